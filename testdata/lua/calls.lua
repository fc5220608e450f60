-- Nested calls in every position a Lua programmer writes them.
local r = tools.echo{ a = 1, list = { 1, 2 } }
eq(r, { a = 1, list = { 1, 2 } }, "structured output is a table")
eq(tools.text{ text = "hi" }, "hi", "text output is a string")
eq(tools.none{}, nil, "no output is nil")
eq(tools["echo"]{ k = "v" }.k, "v", "bracket call form")

local ok, err = pcall(tools.fail, { message = "denied" })
check(not ok and err:find("denied"), "pcall catches a failing call")

local gen = coroutine.wrap(function()
	for i = 1, 3 do coroutine.yield(tools.echo{ i = i }.i) end
end)
eq({ gen(), gen(), gen() }, { 1, 2, 3 }, "calls inside a generator")

local function tail() return tools.echo{ t = true } end
eq(tail().t, true, "tail call")

local sorted = { 3, 1, 2 }
table.sort(sorted, function(a, b) return tools.echo{ v = a }.v < b end)
eq(sorted, { 1, 2, 3 }, "calls inside a sort comparator")

local a, b = tools.parallel(function() return tools.echo{ x = 1 }.x end, function() return tools.text{ text = "y" } end)
eq({ a, b }, { 1, "y" }, "parallel returns in argument order")
-- A call several wrappers deep: a parallel branch, a generator, a pcall.
local deep = { tools.parallel(function()
	local gen = coroutine.wrap(function()
		local ok, r = pcall(function() return tools.echo{ depth = 3 } end)
		coroutine.yield(ok and r.depth)
		coroutine.yield(select(2, xpcall(function() return tools.fail{ message = "inner" } end, function(e) return "caught " .. e end)))
	end)
	return { gen(), gen() }
end, function() return tools.text{ text = "side" } end) }
eq(deep[1][1], 3, "a call through parallel, wrap and pcall")
check(deep[1][2]:find("^caught .*inner"), "xpcall inside a generator inside parallel: " .. tostring(deep[1][2]))
eq(deep[2], "side", "the other branch")

-- parallel where no yield can reach the driver (inside a metamethod): the
-- branches' calls are still carried out together, on the spot.
local lazy = setmetatable({}, { __index = function(_, k)
	local a, b = tools.parallel(function() return tools.echo{ k = k }.k end, function() return tools.text{ text = k } end)
	return a .. b
end })
eq(lazy.xy, "xyxy", "parallel inside a metamethod")
return "ok"
