-- expect: error
local t = {}
setmetatable(t, { __index = t })
return t.missing.x
