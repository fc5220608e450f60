-- expect: budget
-- A stop landing while a large result is being built on the script's last
-- line: the rendering looks at the clock, so this ends as the budget, not
-- as a crash.
local t = {}
for i = 1, 5000 do t["k" .. i] = ("w"):rep(50) end
local copies = {}
for i = 1, 7000 do copies[i] = t end
return unpack(copies, 1, 7000)
