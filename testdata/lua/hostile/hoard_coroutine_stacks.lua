-- expect: memory
-- Suspended coroutines that recursed deep with many arguments keep their
-- grown register stacks (about 160 KB each here), not a fixed 10 KB.
local args = {}
for i = 1, 50 do
	args[i] = i
end
local function dive(n, ...)
	if n == 0 then
		coroutine.yield()
		return
	end
	dive(n - 1, ...)
end
local keep = {}
for i = 1, 2000 do
	local co = coroutine.create(dive)
	assert(coroutine.resume(co, 200, unpack(args)))
	keep[i] = co
end
