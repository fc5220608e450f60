-- expect: memory
local t = {}
while true do t[#t + 1] = ("x"):rep(4096) .. #t end
