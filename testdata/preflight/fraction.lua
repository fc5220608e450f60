-- want: args.replicas: want integer, got number 2.5
tools.scale{ service = "web", replicas = 2.5 }
