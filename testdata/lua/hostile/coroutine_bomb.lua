-- expect: error too many coroutines
local keep = {}
while true do keep[#keep + 1] = coroutine.create(function() end) end
