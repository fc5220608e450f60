-- expect: error resulting string too large
local t = {}
local s = ("x"):rep(2^20)
for i = 1, 64 do t[i] = s end
return #table.concat(t)
