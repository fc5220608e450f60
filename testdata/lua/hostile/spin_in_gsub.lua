-- expect: budget
("abc"):gsub(".", function() while true do end end)
