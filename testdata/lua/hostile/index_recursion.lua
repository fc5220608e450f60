-- expect: error stack overflow
local t
t = setmetatable({}, { __index = function(_, k) return t[k] end })
return t.x
