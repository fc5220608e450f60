-- want: nothing
function tools.restrat(t) return t end
return tools.restrat{ service = "api" }
