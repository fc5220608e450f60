-- want: line 2: tools.health: call it with a dot, not a colon: tools.health{...}
return tools:health{ service = "api" }
