-- expect: budget
while true do end
