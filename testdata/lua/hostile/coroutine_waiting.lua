-- expect: ok
-- A coroutine waiting for a tool call's result belongs to the driver: from
-- another tools.parallel branch it reads "normal", resuming it fails, and
-- it gets its own result.
local co
co = coroutine.create(function()
	return tools.echo{ v = "mine" }
end)
local seen
local a, b = tools.parallel(function()
	local ok, res = coroutine.resume(co)
	assert(ok, tostring(res))
	return res.v
end, function()
	seen = coroutine.status(co)
	local ok, err = coroutine.resume(co, "stolen")
	assert(not ok and err:find("waiting for the result of a tool call"), tostring(err))
	return "other"
end)
assert(seen == "normal", tostring(seen))
assert(a == "mine", tostring(a))
assert(b == "other")
assert(coroutine.status(co) == "dead")

-- Nested: outer resumes inner, which waits for a call; both read "normal"
-- from the other branch and neither can be taken over, through wrap either.
local inner = coroutine.create(function() return tools.echo{ v = "inner" }.v end)
local outer = coroutine.create(function()
	local ok, v = coroutine.resume(inner)
	assert(ok, tostring(v))
	return v
end)
local got = tools.parallel(function()
	local ok, v = coroutine.resume(outer)
	assert(ok, tostring(v))
	return v
end, function()
	assert(coroutine.status(inner) == "normal" and coroutine.status(outer) == "normal")
	assert(not coroutine.resume(inner) and not coroutine.resume(outer))
	local ok, err = pcall(coroutine.wrap(function() return coroutine.resume(inner) end))
	assert(ok and err == false)
end)
assert(got == "inner", tostring(got))
return "fine"
