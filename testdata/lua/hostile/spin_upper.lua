-- expect: budget
local s = ("x"):rep(2^22 - 1)
while true do local u = s:upper() end
