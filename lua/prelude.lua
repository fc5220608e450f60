-- The Lua half of the sandbox's calling convention. It runs once in every
-- fresh state, before the script, and installs pcall, xpcall, coroutine.*
-- and the tools table.
--
-- A nested tool call yields (MARK, id...) up the chain of coroutines to the
-- Go driver, which performs the call with the budget clock stopped and
-- resumes the chain. pcall and xpcall run their function as a coroutine so
-- that such a yield can cross them (gopher-lua's own pcall cannot be
-- yielded across), and every wrapper that resumes a coroutine passes tool
-- yields outward through `await`. Where no yield can reach the driver (a
-- table.sort comparator, a gsub callback, a metamethod, a for iterator),
-- `await` performs the calls on the spot instead. The script cannot tell
-- that yields are used underneath.
local MARK, YIELD_ERR, prim, G = ...
local create, resume, status, running = prim.create, prim.resume, prim.status, prim.running
local thread, first, release = prim.thread, prim.first, prim.release
local yield, await, submit, collect, reachable = prim.yield, prim.await, prim.submit, prim.collect, prim.reachable
local isgo, adopt, logical = prim.isgo, prim.adopt, prim.logical
local select, type, error, unpack, setmetatable = G.select, G.type, G.error, G.unpack, G.setmetatable

local function pack(...)
	return { n = select("#", ...), ... }
end

-- adopt(co, parent) records that the coroutine a pcall, xpcall or parallel
-- branch runs in acts on behalf of parent (adopt(co) forgets it), and
-- logical(co) follows those links, so coroutine.running and
-- coroutine.status answer as if no coroutine had been added. The links
-- live in Go: a Lua table keeps every key it ever held.
local main

-- finish starts f on co and drives it to its end, returning resume's
-- results packed: tool yields go out through await, the script's own
-- yields go out to whoever resumed us (the yieldable pcall of Lua 5.2).
local function finish(co, f, ...)
	local r = pack(first(co, f, ...))
	while status(co) ~= "dead" do
		local args
		if r[1] and r[2] == MARK then
			await(unpack(r, 3, r.n))
			args = pack()
		else
			args = pack(yield(unpack(r, 2, r.n)))
		end
		r = pack(resume(co, unpack(args, 1, args.n)))
	end
	return r
end

-- runnable returns a Lua function a coroutine can start with: gopher-lua
-- cannot start a coroutine on a Go function, and calling a non-function
-- must raise inside, as it would in C Lua.
local function runnable(f)
	if type(f) == "function" and not isgo(f) then
		return f
	end
	return function(...)
		local r = pack(f(...))
		return unpack(r, 1, r.n)
	end
end

local function protected(f, ...)
	local co = thread()
	adopt(co, running())
	local r = finish(co, runnable(f), ...)
	adopt(co)
	release(co)
	return r
end

G.pcall = function(f, ...)
	local r = protected(f, ...)
	return unpack(r, 1, r.n)
end

G.xpcall = function(f, handler)
	local r = protected(f)
	if r[1] then
		return unpack(r, 1, r.n)
	end
	local h = protected(handler, r[2])
	if not h[1] then
		return false, "error in error handling"
	end
	return false, h[2]
end

local co_create = function(f)
	if type(f) ~= "function" then
		error("bad argument #1 to 'create' (function expected, got " .. type(f) .. ")", 2)
	end
	return create(runnable(f))
end

local co_resume = function(co, ...)
	local args = pack(...)
	while true do
		local r = pack(resume(co, unpack(args, 1, args.n)))
		if r[1] and r[2] == MARK and status(co) == "suspended" then
			await(unpack(r, 3, r.n))
			args = pack()
		else
			return unpack(r, 1, r.n)
		end
	end
end

G.coroutine = {
	create = co_create,
	resume = co_resume,
	yield = function(...)
		local r = pack(yield(...))
		if r[1] == YIELD_ERR then
			error("attempt to yield from outside a coroutine", 2)
		end
		return unpack(r, 1, r.n)
	end,
	status = function(co)
		if co == logical(running()) then
			return "running"
		end
		return status(co)
	end,
	running = function()
		local co = logical(running())
		if co == main then
			return nil
		end
		return co
	end,
	wrap = function(f)
		local co = co_create(f)
		return function(...)
			local r = pack(co_resume(co, ...))
			if r[1] then
				return unpack(r, 2, r.n)
			end
			error(r[2], 2)
		end
	end,
}

-- A tool call: submit converts and records it (or refuses it), await
-- carries it to the driver, collect returns its output or raises its error
-- at the caller's line.
local callers = {}
local tools_table
local function caller(name)
	local f = callers[name]
	if f then
		return f
	end
	f = function(args)
		if args == tools_table and tools_table ~= nil then
			error("call tools." .. name .. "{...} with a dot, not a colon: tools:" .. name .. " passes the tools table as the arguments", 2)
		end
		local id, err = submit(name, args)
		if not id then
			error(err, 2)
		end
		await(id)
		local ok, value = collect(id)
		if not ok then
			error(value, 2)
		end
		return value
	end
	callers[name] = f
	return f
end

local function parallel(...)
	local fns = pack(...)
	for i = 1, fns.n do
		if type(fns[i]) ~= "function" then
			error("bad argument #" .. i .. " to 'parallel' (function expected, got " .. type(fns[i]) .. ")", 2)
		end
	end
	local cos, results, waiting = {}, {}, {}
	local failed, first_err = false, nil
	local me = running()
	for i = 1, fns.n do
		cos[i] = create(runnable(fns[i]))
		adopt(cos[i], me)
		waiting[i] = true
	end
	while true do
		local batch, nb = {}, 0
		for i = 1, fns.n do
			if waiting[i] then
				local r = pack(resume(cos[i]))
				if status(cos[i]) == "dead" then
					waiting[i] = nil
					adopt(cos[i])
					if r[1] then
						results[i] = r[2]
					elseif not failed then
						failed, first_err = true, r[2]
					end
				elseif r[1] and r[2] == MARK then
					for j = 3, r.n do
						nb = nb + 1
						batch[nb] = r[j]
					end
				else
					waiting[i] = nil
					adopt(cos[i])
					if not failed then
						failed, first_err = true, "coroutine.yield cannot suspend a tools.parallel branch"
					end
				end
			end
		end
		if nb == 0 then
			break
		end
		await(unpack(batch, 1, nb))
	end
	if failed then
		error(first_err, 0)
	end
	return unpack(results, 1, fns.n)
end

-- tools.null stands for a JSON null inside an array, so that # and ipairs
-- see every element and the array goes back out as it came.
local fixed = { parallel = parallel, ToolSearch = caller("ToolSearch"), null = prim.null }

G.tools = setmetatable({}, {
	__index = function(_, name)
		local f = fixed[name]
		if f then
			return f
		end
		if reachable(name) then
			return caller(name)
		end
		return nil
	end,
	__newindex = function()
		error("tools is read-only", 2)
	end,
	__metatable = "tools is protected",
})
tools_table = G.tools

return {
	-- tool_guard is (tool) in compile.go: tools.x(...) on a nil field.
	tool_guard = function(t, name)
		local f = t[name]
		if f == nil then
			error("attempt to call a nil value (field '" .. name .. "'): no tool of that name in this session; find tools with tools.ToolSearch{ query = \"...\" }", 2)
		end
		return f
	end,
	set_main = function(co)
		main = co
	end,
}
