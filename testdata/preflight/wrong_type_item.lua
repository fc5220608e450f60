-- want: line 2: tools.scale{...}: args.zones[2]: want string, got integer
tools.scale{ service = "api", replicas = 2, zones = { "eu-1", 2 } }
