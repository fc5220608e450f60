-- expect: ok
-- Where gopher-lua differs from Lua 5.1, the compile step and the
-- libraries give Lua 5.1's answer.
-- tostring returns what __tostring returns, whatever its type.
local o = setmetatable({}, { __tostring = function() return 42 end })
assert(tostring(o) == 42, "tostring of a number __tostring")
-- A multiple assignment evaluates every target before assigning.
local a = {}
local b = a
a, a[1] = 1, 2
assert(a == 1 and b[1] == 2, "multiple assignment order")
local i = 1
local t = {}
i, t[i] = i + 1, 20
assert(i == 2 and t[1] == 20 and t[2] == nil, "key evaluated before the assignment")
local calls = 0
local function obj() calls = calls + 1 return t end
obj().x, obj()[3] = "x", 3
assert(calls == 2 and t.x == "x" and t[3] == 3, "each target's table evaluated once")
local s = { 1, 2, 3 }
local x, y = 1, 3
s[x], s[y] = s[y], s[x]
assert(s[1] == 3 and s[3] == 1, "swap")
g = {}
local h = g
g, g.x = 5, 6
assert(g == 5 and h.x == 6, "a global target's table evaluated first")
g = nil
-- A numeric for converts string bounds.
local n = 0
for k = "1", "3", "1" do n = n + k end
assert(n == 6, "for with string bounds")
local ok, err = pcall(function() for _ = "x", 2 do end end)
assert(not ok and err:find("'for' initial value must be a number"), tostring(err))
-- table.maxn counts every positive numeric key.
assert(table.maxn({ 1, 2, [7.5] = 1, [100] = 1, [-3] = 1, x = 1 }) == 100, "maxn")
assert(table.maxn({ [2.5] = true }) == 2.5, "maxn of a fraction")
-- A caught error names what was called.
ok, err = pcall(function() bbbb() end)
assert(not ok and err:find("global 'bbbb'"), tostring(err))
ok, err = pcall(tools.nosuch, {})
assert(not ok and err:find("field 'nosuch'") and err:find("no tool of that name"), tostring(err))
ok, err = pcall(nil)
assert(not ok and err == "attempt to call a nil value", tostring(err))
-- Far integer keys past the array index are hash entries, as in Lua 5.1.
local far = {}
far[2 ^ 40], far[2 ^ 26] = 1, 2
assert(far[2 ^ 40] == 1 and far[2 ^ 26] == 2, "far keys")
return "fine"
