-- The Lua half of the sandbox's calling convention. It runs once in every
-- fresh state, before the script, and installs pcall, xpcall, coroutine.*
-- and the tools table.
--
-- A nested tool call yields (MARK, -id) up the chain of coroutines to the
-- Go driver, which performs the call with the budget clock stopped and
-- resumes the caller with its output: (true, value) or (false, message).
-- A wrapper that passes a yield on (MARK, id...) with positive ids is
-- resumed with nothing, and answers its own coroutine's call (reply). pcall and xpcall run their function as a coroutine so
-- that such a yield can cross them (gopher-lua's own pcall cannot be
-- yielded across), and every wrapper that resumes a coroutine passes tool
-- yields outward through `await`. Where no yield can reach the driver (a
-- table.sort comparator, a gsub callback, a metamethod, a for iterator),
-- `await` performs the calls on the spot instead. The script cannot tell
-- that yields are used underneath.
local MARK, YIELD_ERR, prim, G = ...
local create, resume, deliver, status, running = prim.create, prim.resume, prim.deliver, prim.status, prim.running
local thread, first, release = prim.thread, prim.first, prim.release
local yield, await, call, collect, reachable = prim.yield, prim.await, prim.call, prim.collect, prim.reachable
local isgo, adopt, logical, view = prim.isgo, prim.adopt, prim.logical, prim.view
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

-- reply is what a coroutine whose tool yield r has been carried out is
-- resumed with (by deliver, the one resume a coroutine waiting for a call
-- accepts): a call waiting for its own output gets it.
local function reply(r)
	if r.n == 3 and r[3] < 0 then
		return pack(collect(-r[3]))
	end
	return pack()
end

-- finish starts f on co and drives it to its end, returning resume's
-- results packed: tool yields go out through await, the script's own
-- yields go out to whoever resumed us (the yieldable pcall of Lua 5.2).
local function finish(co, f, ...)
	local r = pack(first(co, f, ...))
	while status(co) ~= "dead" do
		if r[1] and r[2] == MARK then
			await(unpack(r, 3, r.n))
			local args = reply(r)
			r = pack(deliver(co, unpack(args, 1, args.n)))
		else
			r = pack(resume(co, yield(unpack(r, 2, r.n))))
		end
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
	local kind = type(f)
	if kind == "nil" or kind == "boolean" or kind == "number" then
		return function()
			error("attempt to call a " .. kind .. " value", 0)
		end
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
	local r = pack(resume(co, ...))
	while r[1] and r[2] == MARK and status(co) == "suspended" do
		await(unpack(r, 3, r.n))
		local args = reply(r)
		r = pack(deliver(co, unpack(args, 1, args.n)))
	end
	return unpack(r, 1, r.n)
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
		return view(co)
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

-- A tool call: call converts and records it (or refuses it: tools:name,
-- which passes the tools table as the arguments, included), carries it to
-- the driver and returns its output, or its error, which is raised at the
-- caller's line.
local function caller(name)
	return function(args)
		local ok, value = call(name, args)
		if not ok then
			error(value, 2)
		end
		return value
	end
end

local function parallel(...)
	local fns = pack(...)
	for i = 1, fns.n do
		if type(fns[i]) ~= "function" then
			error("bad argument #" .. i .. " to 'parallel' (function expected, got " .. type(fns[i]) .. "): pass one function per branch, "
				.. "tools.parallel(function() return tools.a{} end, function() return tools.b{} end), or a list of them as tools.parallel(unpack(list))", 2)
		end
	end
	local cos, results, waiting, replies = {}, {}, {}, {}
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
				local args, go = replies[i], deliver
				if not args then
					args, go = pack(), resume
				end
				local r = pack(go(cos[i], unpack(args, 1, args.n)))
				replies[i] = nil
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
					replies[i] = r
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
		for i = 1, fns.n do
			if replies[i] then
				replies[i] = reply(replies[i])
			end
		end
	end
	if failed then
		error(first_err, 0)
	end
	return unpack(results, 1, fns.n)
end

-- callers holds a function for each name the script has reached; tools
-- reads through it, so only the first use of a name runs any code.
-- tools.null stands for a JSON null inside an array, so that # and ipairs
-- see every element and the array goes back out as it came.
local callers = setmetatable({ [prim.parallel_name] = parallel, [prim.search_name] = caller(prim.search_name), null = prim.null }, {
	__index = function(callers, name)
		if reachable(name) then
			local f = caller(name)
			callers[name] = f
			return f
		end
		return nil
	end,
})

G.tools = setmetatable({}, {
	__index = callers,
	__newindex = function()
		error("tools is read-only", 2)
	end,
	__metatable = "tools is protected",
})

-- What the Go side keeps: the tools table and the callers it reads
-- through, for (tool) in compile.go (tools.x(...) finds x among the
-- callers when the script left tools as it was, and otherwise through
-- index), and set_main.
return G.tools, callers, function(t, name)
	return t[name]
end, function(co)
	main = co
end
