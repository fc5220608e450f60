-- expect: error stack overflow
local t
t = setmetatable({}, { __concat = function(a, b) return a .. b end })
return t .. "x"
