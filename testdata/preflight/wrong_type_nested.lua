-- want: line 3: tools.scale{...}: args.limits.cpu: want number, got string
local r = tools.restart{ service = "api" }
tools.scale{ service = "api", replicas = 2, limits = { cpu = "half" } }
