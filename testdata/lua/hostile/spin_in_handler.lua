-- expect: budget
xpcall(function() error("x") end, function() while true do end end)
