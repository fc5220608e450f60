-- want: line 2: tools.restart{...}: args.forse: not a parameter (it takes service, force)
tools.restart{ service = "api", forse = true }
