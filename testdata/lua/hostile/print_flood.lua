-- expect: budget
local line = ("x"):rep(1e5)
while true do print(line) end
