-- ToolSearch is a fixed entry; unknown ordinary keys read as nil.
local r = tools.ToolSearch{ query = "echo" }
eq(r.total, 1, "search result total")
eq(r.matches[1].name, "echo", "search result name")
check(tools["then"] == nil and tools.search == nil, "unknown keys are nil")
local ok, err = pcall(function() return tools.search{} end)
check(not ok and err:find("attempt to call a nil value %(field 'search'%)"), tostring(err))
return "ok"
