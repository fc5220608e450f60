-- expect: budget
-- Printing a table of many keys again and again: sorting its keys looks at
-- the clock, and once the log is full the table is only counted.
local t = {}
for i = 1, 50000 do t["k" .. i] = i end
while true do print(t) end
