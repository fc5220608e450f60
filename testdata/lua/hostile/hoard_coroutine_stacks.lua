-- expect: memory
-- Suspended coroutines that recursed deep with many arguments keep their
-- grown register stacks (about 1.3 MB each here), not a fixed 10 KB.
local args = {}
for i = 1, 200 do
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
for i = 1, 1000 do
	local co = coroutine.create(dive)
	assert(coroutine.resume(co, 400, unpack(args)))
	keep[i] = co
end
