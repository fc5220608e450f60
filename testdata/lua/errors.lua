-- Errors keep their shape through pcall, xpcall and coroutines.
local ok, e = pcall(error, { code = 42 })
eq(e, { code = 42 }, "table error objects survive")
ok, e = pcall(error, "plain", 0)
eq(e, "plain", "level 0 adds no position")
ok, e = pcall(function() error("where", 1) end)
check(e:match("^script:%d+: where$"), "level 1 names the script line: " .. tostring(e))
local function inner() error("up", 2) end
local function outer() inner() end
ok, e = pcall(outer)
check(e:match("^script:9: up$"), "level 2 names the caller's line: " .. tostring(e))
ok, e = xpcall(function() error("x") end, function(m) return "handled " .. m end)
check(not ok and e:find("^handled "), "xpcall runs its handler")
local co = coroutine.create(function() error("in co") end)
local ok2, e2 = coroutine.resume(co)
check(not ok2 and e2:find("in co") and coroutine.status(co) == "dead", "resume reports errors")
local ok3, e3 = pcall(coroutine.wrap(function() error("wrapped") end))
check(not ok3 and e3:find("wrapped"), "wrap re-raises")
ok, e = pcall(nil)
check(not ok and type(e) == "string", "pcall(nil) fails softly")
return "ok"
