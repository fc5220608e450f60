-- want: nothing
local tools = { restart = function(t) return t end }
return tools.restart{ service = "mail" }
