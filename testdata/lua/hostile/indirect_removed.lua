-- expect: error load is not available inside Exec
-- Removed globals reached indirectly still say so in plain words.
local ok, err = pcall(require, "socket")
assert(not ok and err:find("require is not available"), err)
ok, err = pcall(function() return _G.io.open("/etc/passwd") end)
assert(not ok and err:find("io is not available"), err)
local f = rawget(_G, "load")
f("return 1")
