-- expect: budget
local s = ("ab"):rep(2^21 - 1) .. "c"
while true do local i = s:find("abc", 1, true) end
