-- expect: budget
local s = ("ab"):rep(2^21 - 1)
while true do local r = s:reverse():sub(2) end
