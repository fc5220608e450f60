-- expect: error stack overflow
local t
t = setmetatable({}, { __tostring = function(self) return tostring(self) end })
return tostring(t)
