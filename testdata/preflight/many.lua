-- want: line 5: tools.scale{...}: args.replicas: want integer, got string
-- want: line 6: tools.restrat: no tool of that name
-- want: line 7: tools.restart{...}: args.service: required, missing; args.now: not a parameter
tools.restart{ service = "api" }
tools.scale{ service = "api", replicas = "two" }
tools.restrat{ service = "web" }
tools.restart{ now = true }
