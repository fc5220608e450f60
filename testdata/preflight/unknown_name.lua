-- want: line 2: tools.restrat: no tool of that name is reachable from this script; did you mean tools.restart?
tools.restrat{ service = "api" }
