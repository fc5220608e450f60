-- expect: budget
for _ in function() while true do end end do end
