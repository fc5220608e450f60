-- expect: memory
-- A hoard reachable only through a closure's upvalue.
local add
do
	local t = {}
	add = function() t[#t + 1] = ("y"):rep(1024) .. #t end
end
while true do add() end
