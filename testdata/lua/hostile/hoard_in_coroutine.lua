-- expect: memory
-- A hoard kept in a suspended coroutine's locals: the memory walk finds it
-- through the frames of every thread the script reaches.
local co = coroutine.wrap(function()
	local t = {}
	while true do
		for i = 1, 1000 do t[#t + 1] = { i, ("x"):rep(64) .. #t } end
		coroutine.yield()
	end
end)
while true do co() end
