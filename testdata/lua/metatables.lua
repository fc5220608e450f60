-- Metatables work for the script's own tables.
-- log: {"x":3}	{"plain":true}
local Vec = {}
Vec.__index = Vec
Vec.__add = function(a, b) return setmetatable({ x = a.x + b.x }, Vec) end
Vec.__tostring = function(v) return "Vec(" .. v.x .. ")" end
function Vec.new(x) return setmetatable({ x = x }, Vec) end
function Vec:double() return Vec.new(self.x * 2) end
local v = Vec.new(1) + Vec.new(2)
eq(v.x, 3, "__add")
eq(v:double().x, 6, "methods through __index")
eq(tostring(v), "Vec(3)", "__tostring")
print(v, { plain = true })
eq(getmetatable(v), Vec, "getmetatable of a table")
local locked = setmetatable({}, { __metatable = "locked" })
eq(getmetatable(locked), "locked", "__metatable protects")
check(not pcall(setmetatable, locked, {}), "a protected metatable cannot change")
local defaults = setmetatable({}, { __index = function(_, k) return k .. "!" end })
eq(defaults.hi, "hi!", "__index function")
local calls = 0
local counted = setmetatable({}, { __newindex = function(t, k, v) calls = calls + 1 rawset(t, k, v) end })
counted.a = 1
eq({ calls, counted.a }, { 1, 1 }, "__newindex and rawset")
return "ok"
