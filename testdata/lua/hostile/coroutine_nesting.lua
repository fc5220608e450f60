-- expect: error C stack overflow
local function dive() local co = coroutine.wrap(dive) co() end
dive()
