-- expect: budget
tools.parallel(function() return tools.echo{} end, function() while true do end end)
