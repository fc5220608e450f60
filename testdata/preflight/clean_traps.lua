-- want: nothing
local tools_list = tools.list_services()
local r = tools.restart{ service = "db", force = false }
local n = tools.mcp__notes__add_note{ title = "t", tags = {}, extra = 1 }
local s = tools.scale{ service = "api", replicas = -1, limits = {}, zones = { "a", tools.null } }
local x = tools.scale{ service = "api", replicas = 0x10, limits = { cpu = 0.5, memory = 1e3 } }
local h = tools.health{ service = "api", port = nil } or tools.health{ service = tostring(1) }
local g = tools["mcp__shop__get-item"]{ sku = 7 }
local ok = pcall(function() return tools.restrat{} end)
local function try() return tools.health{} end
local ok2 = pcall(try)
local co = coroutine.wrap(function() return tools:health{} end)
local f = tools.parallel(function() return tools.health{ service = "web" } end)
local found = tools.ToolSearch{ query = "restart" }
return { tools_list, r, n, s, x, h, g, ok, ok2, f, found }
