-- expect: ok
-- setmetatable refuses strings; getmetatable hides the string metatable.
local ok = pcall(setmetatable, "", { __index = function() return "pwned" end })
assert(not ok and getmetatable("") == nil and ("x"):upper() == "X")
return "contained"
