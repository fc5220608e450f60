-- missed: a call under pcall is the script's to catch
local ok, err = pcall(tools.restart, { service = "mail" })
local ok2 = pcall(function() return tools.health{} end)
return { ok, ok2 }
