-- expect: error resulting string too large
-- A print and a concatenation of thousands of large strings at once.
local s = ("z"):rep(2^20)
local t = {}
for i = 1, 4000 do t[i] = s end
print(unpack(t))
return table.concat(t)
