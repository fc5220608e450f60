-- expect: budget
local t = {}
for i = 1, 100 do t[i] = i end
table.sort(t, function(a, b) while true do end end)
