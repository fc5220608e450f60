package sandbox

import (
	"context"
	"errors"
	"github.com/execlua/execlua/internal/cputime"
	"strings"
	"testing"
	"time"
)

// ISO-1: the host's capabilities read as nil.
func TestISO1_RemovedGlobalsAreNil(t *testing.T) {
	f := newFunnel(nil)
	mustResult(t, f, `
		local names = { "require", "os", "io", "debug", "package", "module", "getfenv", "setfenv",
			"newproxy", "collectgarbage", "dofile", "loadfile", "load", "loadstring", "gcinfo",
			"_printregs", "_GOPHER_LUA_VERSION", "channel" }
		local present = {}
		for _, n in ipairs(names) do
			if _G[n] ~= nil then present[#present + 1] = n end
		end
		return #present == 0 and require == nil and os == nil or table.concat(present, ",")`, "true")
}

// The script's globals are exactly the contract's list.
func TestGlobalsAreTheAllowlist(t *testing.T) {
	f := newFunnel(nil)
	mustResult(t, f, `
		local names = {}
		for k in pairs(_G) do names[#names + 1] = k end
		table.sort(names)
		return table.concat(names, " ")`,
		"_G _VERSION assert coroutine error getmetatable ipairs math next pairs pcall print rawequal rawget rawset select setmetatable string table tonumber tools tostring type unpack xpcall")
}

// ISO-2: no string is ever compiled into code; string.dump is absent.
func TestISO2_NoRuntimeCompilation(t *testing.T) {
	f := newFunnel(nil)
	mustResult(t, f, `return load == nil and loadstring == nil and string.dump == nil`, "true")
}

// ISO-3: calling a removed global fails in plain words.
func TestISO3_PlainWordsForRemovedGlobals(t *testing.T) {
	f := newFunnel(nil)
	for code, want := range map[string]string{
		`require("os")`:           "require is not available inside Exec: scripts have no modules, files or network",
		`load("x")`:               "load is not available inside Exec",
		`local t = os.time()`:     "os is not available inside Exec",
		`io.open("/etc/passwd")`:  "io is not available inside Exec",
		`local f = io:lines()`:    "io is not available inside Exec",
		`debug.getinfo(1)`:        "debug is not available inside Exec",
		`loadstring("return 1")`:  "loadstring is not available inside Exec",
		`dofile("/tmp/x.lua")`:    "dofile is not available inside Exec",
		`collectgarbage("count")`: "collectgarbage is not available inside Exec",
		// Lua 5.3's library, which models write.
		`return utf8.len("h\195\169llo")`: "utf8 is not available inside Exec: scripts run Lua 5.1",
	} {
		out := runScript(t, f, code, nil)
		if out.Err == nil || !strings.Contains(out.Err.Error(), want) {
			t.Errorf("%s: err = %v, want it to contain %q", code, out.Err, want)
		}
	}
	// Read, a removed global is nil, so a script can test for it.
	mustResult(t, f, `local s = "h\195\169llo" return utf8 and utf8.len(s) or #s`, "6")
	// A script's own local of the same name is its own business.
	mustResult(t, f, `local require = function(x) return x end return require("ok")`, "ok")
	// Caught with pcall, the message is the same.
	mustResult(t, f, `local ok, err = pcall(function() return require("x") end) return err:match("require is not available") ~= nil`, "true")
}

// ISO-4: nothing the script can reach leads back to the host.
func TestISO4_NoPathBackToTheHost(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"t": structured(`{"a":{"b":1}}`)})
	mustResult(t, f, `
		local r = tools.t{}
		assert(getmetatable("") == nil, "strings show no metatable")
		assert(getmetatable(r) == nil and getmetatable(r.a) == nil, "results carry no metatable")
		assert(getmetatable(tools) == "tools is protected", "tools is protected")
		assert(not pcall(setmetatable, tools, {}), "tools' metatable cannot change")
		assert(not pcall(setmetatable, "", {}), "setmetatable takes tables only")
		assert(not pcall(function() tools.x = 1 end), "tools is read-only")
		assert(tostring(print):match("^function: 0x%x+$"), tostring(print))
		assert(not string.format("%s", tools.t):find("0xc0"), "no Go pointer")
		assert(not pcall(string.format, "%T", 1), "no Go verbs")
		assert(not pcall(string.format, "%p", {}), "no Go verbs")
		-- The string library reached through a string is the script's own.
		assert(("x").upper == string.upper)
		return true`, "true")
}

// ISO-5: results are fresh copies; changing one changes nothing else.
func TestISO5_DeepCopies(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"t": structured(`{"list":[1,2],"m":{"k":"v"}}`), "e": echo})
	mustResult(t, f, `
		local a = tools.t{}
		a.list[1] = 99; a.m.k = "changed"; a.extra = true
		local b = tools.t{}
		local args = { x = { 1 } }
		local echoed = tools.e(args)
		args.x[1] = 2
		return b.list[1] == 1 and b.m.k == "v" and b.extra == nil and echoed.x[1] == 1`, "true")
}

// ISO-6: only plain data crosses; everything else is refused with its path
// before anything reaches the host, and the error returns to the script.
func TestISO6_ArgumentsMustBePlainData(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"t": echo, "get-item": echo})
	for code, want := range map[string]string{
		`tools.t{ items = { 1, 2, { cb = print } } }`: "args.items[3].cb is a function",
		// The way out each refusal shows is valid Lua as written.
		`tools["get-item"]("x")`:                                  `tools["get-item"] expects one table of arguments (or nothing), got a string: call it as tools["get-item"]{ name = value, ... }`,
		`tools["get-item"]{ 1, 2 }`:                               `tools["get-item"] takes one table of named arguments, not a list: call it as tools["get-item"]{ name = value, ... }`,
		`tools.ToolSearch("weather")`:                             `tools.ToolSearch expects one table of arguments, got a string: call it as tools.ToolSearch{ query = "..." }`,
		`tools.t{ m = setmetatable({}, {}) }`:                     "args.m has a metatable",
		`local c = {} c.self = c tools.t{ c = c }`:                "args.c.self refers back to itself",
		`tools.t{ co = coroutine.create(print) }`:                 "args.co is a coroutine",
		`tools.t{ n = 0/0 }`:                                      "args.n is NaN",
		`tools.t{ [true] = 1 }`:                                   "args has a key of type boolean; a table is either a sequence 1..n or has string keys only",
		`tools.t{ 1, 2, x = 3 }`:                                  "a sequence 1..n or has string keys only",
		`tools.t{ [1.5] = "x" }`:                                  "args has a key 1.5; a table is either a sequence 1..n or has string keys only",
		`tools.t{ [true] = 1, x = 2 }`:                            "args mixes key of type boolean with other keys",
		`tools.t{ list = { 1, nil, 3 } }`:                         "args.list is a list with holes (2 of the indexes 1..3 set); a list needs every index from 1: write tools.null for a missing element",
		`tools.t{ list = { [2] = "b" } }`:                         "args.list is a list with holes (1 of the indexes 1..2 set)",
		`tools.t("not a table")`:                                  "expects one table of arguments",
		`tools.t{ ["a-b"] = { f = function() end } }`:             `args["a-b"].f is a function`,
		`local d = {} for i = 1, 200 do d = { d } end tools.t{d}`: "nested more than",
	} {
		out := runScript(t, f, code, nil)
		if out.Err == nil || !strings.Contains(out.Err.Error(), want) {
			t.Errorf("%s: err = %v, want it to contain %q", code, out.Err, want)
		}
		if !errors.Is(out.Err, ErrScript) {
			t.Errorf("%s: err %v is not a script error", code, out.Err)
		}
	}
	if len(f.calls) != 0 {
		t.Errorf("refused arguments reached the host: %v", f.names())
	}
	// The refusal is catchable, and a table referenced twice is not a cycle.
	mustResult(t, f, `
		local ok, err = pcall(tools.t, { f = print })
		local shared = { 1 }
		return (not ok) and tools.t{ a = shared, b = shared }.b[1] == 1`, "true")
}

// ISO-7: nothing survives from one run to the next.
func TestISO7_FreshStateEveryRun(t *testing.T) {
	f := newFunnel(nil)
	mustResult(t, f, `
		leaked = "yes"
		string.upper = nil
		table.insert = function() end
		math.pi = 3
		local mt = { __index = function() return "hijacked" end }
		setmetatable(_G, mt)
		return "dirty"`, "dirty")
	mustResult(t, f, `return leaked == nil and string.upper("a") == "A" and math.pi > 3.14 and
		getmetatable(_G) == nil and nothing_here == nil`, "true")
}

// ISO-8: builtins that ignore the VM's instruction check are bounded, so
// the host survives and the run ends near its budget.
func TestISO8_BuiltinsAreBounded(t *testing.T) {
	f := newFunnel(nil)
	opts := &Options{Budget: 200 * time.Millisecond, MaxStringBytes: 1 << 20}
	for code, want := range map[string]string{
		`return #string.rep("x", 1e9)`:                                                "resulting string too large",
		`return #string.rep("abc", 1e7)`:                                              "resulting string too large",
		`local s = "x" for i = 1, 40 do s = s .. s end`:                               "resulting string too large",
		`local t = {} for i = 1, 2e5 do t[i] = "xxxxxxxx" end return table.concat(t)`: "resulting string too large",
		`return string.format("%99999d", 1)`:                                          "width or precision too long",
		`return string.find(("a"):rep(100), ".-.-.-.-.-.-b")`:                         "budget",
		`return ("a"):rep(5e5):gsub("", "xyz")`:                                       "resulting string too large",
		`return unpack({}, 1, 1e8)`:                                                   "too many results",
		`return string.byte(("x"):rep(1e5), 1, -1)`:                                   "string slice too long",
		`local t = {} for i = 1, 1e7 do t[i] = coroutine.create(print) end`:           "too many coroutines",
		`local function f() local ok, e = pcall(f) error(e, 0) end f()`:               "C stack overflow",
		`local t = {} for i = 1, 3e5 do t[i] = -i end table.sort(t, function(a, b) return a < b end) while true do end`: "budget",
	} {
		opts := opts
		if want != "budget" {
			// These end on a size limit long before any budget; a generous
			// one keeps the race detector's slowdown out of the picture.
			opts = &Options{Budget: ownLimitBudget, MaxStringBytes: opts.MaxStringBytes}
		}
		var out Outcome
		spent := cputime.Spent(t, func() { out = Run(context.Background(), f.request(code), opts) })
		if out.Err == nil || !strings.Contains(out.Err.Error(), want) {
			t.Errorf("%s: err = %v, want it to contain %q", code, out.Err, want)
		}
		if spent > 10*time.Second {
			t.Errorf("%s: spent %v of CPU", code, spent)
		}
	}
}

// tostring never shows a Go address: ids are per-run counters.
func TestTostringHidesAddresses(t *testing.T) {
	f := newFunnel(nil)
	mustResult(t, f, `return tostring({}) .. " " .. tostring(print) .. " " .. tostring({})`,
		"table: 0x00000001 function: 0x00000002 table: 0x00000003")
}

// Every library function called with odd arguments fails, if at all, with
// a Lua error: never a Go runtime error, never a crash, and never a message
// that points into the prelude the script cannot see.
func TestLibraryFunctionsWithOddArguments(t *testing.T) {
	out := Run(context.Background(), Request{Code: `
		local args = { {}, { nil }, { 0 }, { -1 }, { 1e308 }, { -1e308 }, { 0/0 }, { 1/0 }, { "x" }, { "" }, { {} },
			{ print }, { true }, { "x", 0 }, { "x", -1 }, { "x", 1e10 }, { "x", -1e10 }, { "x", 0/0 }, { "%", "x" },
			{ {}, 1e9 }, { {}, -1 }, { { 1, 2, 3 }, 0/0 }, { {}, 1, 2 }, { "abc", "b", 1e10 }, { "abc", "", -1e10 },
			{ {}, "x" }, { 1, 2, 3 }, { "x", {} }, { {}, 1e9, 1 }, { "%d", 1e300 }, { "%c", 1e10 }, { "%x", -1e300 },
			{ "%5.2s", {} }, { coroutine.create(print) } }
		local bad = {}
		for lname, lib in pairs({ _G = _G, string = string, table = table, math = math, coroutine = coroutine }) do
			for fname, f in pairs(lib) do
				if type(f) == "function" and fname ~= "print" then
					for _, a in ipairs(args) do
						local ok, err = pcall(f, unpack(a, 1, 3))
						if not ok and type(err) == "string" and (err:find("runtime error") or err:find("internal error")
							or err:find("prelude") or err:find("index out of range %[")) then
							bad[#bad + 1] = lname .. "." .. fname .. ": " .. err
						end
					end
				end
			end
		end
		return bad`}, &Options{Budget: 30 * time.Second})
	if out.Err != nil || out.Result != "{}" {
		t.Errorf("result %s, err %v", out.Result, out.Err)
	}
	for _, code := range []string{`local t = {} while true do t[#t + 1] = coroutine.create(print) end`, `local ok, e = pcall(select, -1) error(e)`} {
		out := Run(context.Background(), Request{Code: code}, nil)
		if out.Err == nil || strings.Contains(out.Err.Error(), "prelude") {
			t.Errorf("%s: err %v", code, out.Err)
		}
	}
}
