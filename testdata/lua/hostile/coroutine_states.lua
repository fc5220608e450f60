-- expect: ok
-- Resuming a running, normal or dead coroutine fails as in Lua 5.1 (the VM
-- used to panic on a coroutine resuming the one resuming it); wrap raises.
local co
co = coroutine.create(function()
  local ok, err = coroutine.resume(co)
  assert(not ok and err == "cannot resume non-suspended coroutine", tostring(err))
  local inner = coroutine.create(function()
    assert(coroutine.status(co) == "normal", coroutine.status(co))
    local ok2, err2 = coroutine.resume(co)
    assert(not ok2 and err2 == "cannot resume non-suspended coroutine", tostring(err2))
    local w = coroutine.wrap(function() return coroutine.resume(co) end)
    local a, b = w()
    assert(a == false and b == "cannot resume non-suspended coroutine")
    coroutine.yield(1)
  end)
  local pok, rok, rerr = pcall(coroutine.resume, co)
  assert(pok and not rok and rerr == "cannot resume non-suspended coroutine", tostring(rerr))
  assert(coroutine.status(co) == "running")
  assert(coroutine.resume(inner))
  assert(coroutine.status(inner) == "suspended")
  return "done"
end)
assert(coroutine.status(co) == "suspended")
local ok, v = coroutine.resume(co)
assert(ok and v == "done", tostring(v))
assert(coroutine.status(co) == "dead")
local ok2, e2 = coroutine.resume(co)
assert(not ok2 and e2 == "cannot resume dead coroutine", e2)
local w
w = coroutine.wrap(function() w() end)
local okw, ew = pcall(w)
assert(not okw and ew:find("cannot resume non%-suspended coroutine"), ew)
-- A coroutine resuming the one resuming it, through wrap, many times over.
for _ = 1, 100 do
  local a, b
  a = coroutine.wrap(function() b() end)
  b = coroutine.wrap(function() a() end)
  assert(not pcall(a))
end
return "fine"
