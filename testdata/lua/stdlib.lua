-- The string, table and math libraries behave as Lua 5.1's.
eq({ string.find("hello world", "o w") }, { 5, 7 }, "plain find")
eq({ string.find("hello", "l+") }, { 3, 4 }, "pattern find")
eq({ string.find("a.b", ".", 1, true) }, { 2, 2 }, "find plain flag")
eq({ ("key=val"):match("(%w+)=(%w+)") }, { "key", "val" }, "captures")
eq({ ("abc"):match("()b()") }, { 2, 3 }, "position captures")
eq({ ("THE (quick) fox"):find("%((%a+)%)") }, { 5, 11, "quick" }, "escaped parens")
eq(("f(a(b)c)d"):match("%b()"), "(a(b)c)", "balanced match")
eq(("THE (quick) fox"):gsub("%f[%a]%a+", string.lower), "the (quick) fox", "frontier and function repl")
eq({ ("hello world"):gsub("o", "0") }, { "hell0 w0rld", 2 }, "gsub count")
eq(("abc"):gsub("%w", "%0%0"), "aabbcc", "gsub %0")
eq(("hello"):gsub("l", { l = "L" }), "heLLo", "gsub table")
eq(("a,b,,c"):gsub(",", ";", 2), "a;b;,c", "gsub max")
local words = {}
for w in ("one two  three"):gmatch("%a+") do words[#words + 1] = w end
eq(words, { "one", "two", "three" }, "gmatch")
local pairs_seen = {}
for k, v in ("a=1, b=2"):gmatch("(%w+)=(%w+)") do pairs_seen[k] = v end
eq(pairs_seen, { a = "1", b = "2" }, "gmatch captures")
eq(("x"):rep(3), "xxx", "rep")
eq(string.format("%5.2f|%-3d|%03d|%x|%s|%q", 3.14159, 7, 5, 255, "s", 'a"b'), ' 3.14|7  |005|ff|s|"a\\"b"', "format")
eq(string.format("%g %g %e", 1e20, 0.1, 1), "1e+20 0.1 1.000000e+00", "format floats")
eq(string.format("%d%%", 50), "50%", "format percent")
eq(string.format("%s %s", 1, true), "1 true", "format %s takes any value")
eq({ string.byte("AB", 1, -1) }, { 65, 66 }, "byte")
eq(("abc"):sub(-2), "bc", "sub")
eq(table.concat({ 1, "b", 3 }, "-"), "1-b-3", "concat")
local t = { 5, 2, 8, 1 }
table.sort(t)
eq(t, { 1, 2, 5, 8 }, "sort")
table.sort(t, function(a, b) return a > b end)
eq(t, { 8, 5, 2, 1 }, "sort with comparator")
local q = { 1, 2 }
table.insert(q, 3) table.insert(q, 1, 0)
eq(q, { 0, 1, 2, 3 }, "insert")
eq(table.remove(q), 3, "remove")
eq(select("#", unpack({ 1, nil, 3 }, 1, 3)), 3, "unpack with n")
eq(math.floor(3.7) + math.max(1, 9) + math.abs(-2), 14, "math")
math.randomseed(7)
local r1 = math.random(1, 100)
math.randomseed(7)
eq(math.random(1, 100), r1, "randomseed is repeatable")
check(math.random() < 1, "random in [0,1)")
eq(tostring(12) .. tonumber("0x10"), "1216", "tostring and tonumber")
eq(#"héllo", 6, "strings are bytes")
eq("a" .. 1 .. 2.5, "a12.5", "concat numbers")
local mt = { __concat = function(a, b) return "joined" end }
eq(setmetatable({}, mt) .. "x", "joined", "__concat metamethod")
return "ok"
