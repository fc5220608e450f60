-- expect: ok
-- One print of hundreds of multi-megabyte strings builds only what the log
-- keeps.
local s = ("y"):rep(4 * 2^20)
local t = {}
for i = 1, 500 do t[i] = s end
print(unpack(t))
print(s, s, s, s, s, s, s, s)
