-- want: line 2: tools.scale{...}: args.replicas: want integer, got string
tools.scale{ service = "api", replicas = "3" }
