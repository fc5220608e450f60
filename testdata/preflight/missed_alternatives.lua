-- missed: anyOf is left to the tool
return tools["mcp__shop__get-item"]{ sku = true }
