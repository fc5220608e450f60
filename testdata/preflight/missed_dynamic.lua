-- missed: the value is not a literal
local svc = "mail"
tools.restart{ service = svc }
