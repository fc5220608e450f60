-- expect: ok
-- Hundreds of copies of a 4 MiB string as return values: only the cut
-- result is built, the rest is counted.
local s = ("x"):rep(4 * 2^20)
local t = {}
for i = 1, 500 do t[i] = s end
return unpack(t)
