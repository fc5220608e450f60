-- expect: budget
-- Many copies of a large table as return values: rendering them runs on
-- the script's clock.
local t = {}
for i = 1, 20000 do t["key" .. i] = ("v"):rep(100) end
local copies = {}
for i = 1, 7000 do copies[i] = t end
return unpack(copies, 1, 7000)
