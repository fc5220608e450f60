-- missed: the name is not a literal
tools["rest" .. "rat"]{ service = "api" }
