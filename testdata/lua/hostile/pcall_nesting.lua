-- expect: error C stack overflow
local function dive() local ok, e = pcall(dive) error(e, 0) end
dive()
