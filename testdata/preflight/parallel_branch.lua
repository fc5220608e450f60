-- want: line 4: tools.restart{...}: args.service: want one of "api", "web", "db", got "cache"
local a, b = tools.parallel(
  function() return tools.restart{ service = "api" } end,
  function() return tools.restart{ service = "cache" } end)
return { a, b }
