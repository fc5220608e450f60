package sandbox

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/execlua/execlua/internal/cputime"
	"github.com/execlua/execlua/internal/heapwatch"
	"github.com/execlua/execlua/internal/leaktest"
)

// allocatedBy runs code and returns its outcome and the bytes allocated
// meanwhile.
func allocatedBy(t *testing.T, code string, opts *Options) (Outcome, uint64) {
	t.Helper()
	runtime.GC()
	before := heapwatch.Allocated()
	out := runScript(t, newFunnel(nil), code, opts)
	return out, heapwatch.Allocated() - before
}

// Class 1 (BUD-8): returning many copies of a large string builds no more
// than a small multiple of the result cap, and the full length is still
// told.
func TestResultRenderingIsBounded(t *testing.T) {
	out, built := allocatedBy(t, `
		local s = ("x"):rep(4 * 2^20)
		local t = {}
		for i = 1, 100 do t[i] = s end
		return unpack(t)`, nil)
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	if want := 100*(4<<20+2) + 99 + 2; out.ResultChars != want {
		t.Errorf("ResultChars = %d, want %d", out.ResultChars, want)
	}
	if len(out.Result) != DefaultMaxResultChars {
		t.Errorf("result is %d bytes", len(out.Result))
	}
	// The 4 MiB string itself and its table, plus a small multiple of the
	// cap; rendering every copy would be 800 MiB.
	if built > 32<<20 {
		t.Errorf("the run allocated %d MiB", built>>20)
	}
}

// Class 1 (BUD-7): printing many large strings, or a table when the log is
// full, builds only what the log keeps, and still counts every character.
func TestPrintIsBounded(t *testing.T) {
	out, built := allocatedBy(t, `
		local s = ("é"):rep(2^20)
		local t = {}
		for i = 1, 100 do t[i] = s end
		print(unpack(t))`, nil)
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	if want := 100*(1<<20) + 99; out.LogChars != want {
		t.Errorf("LogChars = %d, want %d", out.LogChars, want)
	}
	if built > 32<<20 {
		t.Errorf("the run allocated %d MiB", built>>20)
	}

	out, built = allocatedBy(t, `
		local t = {}
		for i = 1, 2000 do t["k" .. i] = ("v"):rep(1000) end
		for i = 1, 200 do print(t) end`, nil)
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	if len([]rune(out.Log)) != DefaultMaxLogChars {
		t.Errorf("log is %d characters", len([]rune(out.Log)))
	}
	if built > 64<<20 {
		t.Errorf("the run allocated %d MiB", built>>20)
	}
}

// renderSlack bounds the CPU time a run stopped while rendering a large
// result may spend. The failure these tests catch is a render that goes on
// for minutes; building the 100,000-member tables under the race detector
// takes a second or more of CPU before the stop.
const renderSlack = 3 * time.Second

// Class 1: rendering runs on the budget clock: many copies of a large
// table are stopped with the budget, not rendered for minutes after it.
func TestResultRenderingIsOnTheBudget(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"big": structured(bigObject(100_000))})
	var out Outcome
	spent := cputime.Spent(t, func() {
		out = runScript(t, f, `
			local t = tools.big{}
			local copies = {}
			for i = 1, 5000 do copies[i] = t end
			return unpack(copies, 1, 5000)`, &Options{Budget: 300 * time.Millisecond})
	})
	if !errors.Is(out.Err, ErrBudgetExceeded) {
		t.Fatalf("err = %v, want the budget", out.Err)
	}
	if spent > 300*time.Millisecond+renderSlack {
		t.Errorf("spent %v of CPU", spent)
	}
}

// Class 1 and 4 (BUD-10, BUD-11): cancelling the run while its result is
// rendered ends it promptly as cancelled, not as a crash.
func TestCancelWhileRendering(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var canceledAt time.Duration
	f := newFunnel(map[string]toolFunc{
		"big": structured(bigObject(100_000)),
		"last": func(context.Context, map[string]any) (Output, error) {
			// The script's last instruction follows at once; rendering
			// 5,000 copies of the table takes minutes.
			time.AfterFunc(100*time.Millisecond, func() { canceledAt = cputime.Now(t); cancel() })
			return Output{}, nil
		},
	})
	out := Run(ctx, f.request(`
		local t = tools.big{}
		local copies = {}
		for i = 1, 5000 do copies[i] = t end
		tools.last{}
		return unpack(copies, 1, 5000)`), nil)
	if !errors.Is(out.Err, ErrCanceled) {
		t.Fatalf("err = %v, want cancelled", out.Err)
	}
	if late := cputime.Now(t) - canceledAt; late > renderSlack {
		t.Errorf("spent %v of CPU after the cancellation", late)
	}
}

// slowToParse is a source that gopher-lua's parser takes about 100 ms to
// reject (kept short: an abandoned compilation runs on).
var slowToParse = "return " + strings.Repeat("{", 64<<10)

// Class 3: compiling is on the budget clock.
func TestCompileIsOnTheBudget(t *testing.T) {
	var out Outcome
	spent := cputime.Spent(t, func() { out = runScript(t, newFunnel(nil), slowToParse, &Options{Budget: 20 * time.Millisecond}) })
	if !errors.Is(out.Err, ErrBudgetExceeded) {
		t.Fatalf("err = %v, want the budget", out.Err)
	}
	if spent > 20*time.Millisecond+stopSlack {
		t.Errorf("spent %v of CPU", spent)
	}
}

// Class 3 and 4: cancelling a run while it compiles ends it at once, as
// cancelled.
func TestCancelWhileCompiling(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var canceledAt time.Duration
	time.AfterFunc(10*time.Millisecond, func() { canceledAt = cputime.Now(t); cancel() })
	out := Run(ctx, newFunnel(nil).request(slowToParse), nil)
	if !errors.Is(out.Err, ErrCanceled) {
		t.Fatalf("err = %v, want cancelled", out.Err)
	}
	if late := cputime.Now(t) - canceledAt; late > stopSlack {
		t.Errorf("spent %v of CPU after the cancellation", late)
	}
}

// Class 4 (BUD-10, BUD-11): cancelling the run at any moment (compiling, installing the
// prelude, running, calling, rendering) ends it promptly as cancelled or,
// when the script had finished, with its result; never as a crash.
func TestCancelAtAnyMoment(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"echo": echo})
	code := `
		local t = {}
		for i = 1, 40 do t[i] = tools.echo{ i = i } end
		print(t)
		local ok = pcall(tools.echo, { x = 1 })
		return t, tools.parallel(function() return tools.echo{} end, function() return tools.echo{} end)`
	start := time.Now()
	if out := Run(context.Background(), f.request(code), nil); out.Err != nil {
		t.Fatal(out.Err)
	}
	whole := time.Since(start)
	var latest time.Duration
	defer func() { t.Logf("%v for the whole run; the most CPU spent after a cancellation: %v", whole, latest) }()
	for delay := time.Duration(0); delay < whole*3/2; delay += whole / 200 {
		ctx, cancel := context.WithCancel(context.Background())
		var canceledAt time.Duration
		timer := time.AfterFunc(delay, func() { canceledAt = cputime.Now(t); cancel() })
		out := Run(ctx, f.request(code), nil)
		ended := cputime.Now(t)
		if timer.Stop() {
			cancel()
			if out.Err != nil {
				t.Errorf("uncancelled run failed: %v", out.Err)
			}
			continue
		}
		if out.Err != nil {
			latest = max(latest, ended-canceledAt)
		}
		switch {
		case errors.Is(out.Err, ErrCrashed):
			t.Fatalf("cancelled after %v: crashed: %v", delay, out.Err)
		case out.Err != nil && !errors.Is(out.Err, ErrCanceled):
			t.Errorf("cancelled after %v: err = %v", delay, out.Err)
		case out.Err != nil && ended-canceledAt > stopSlack:
			t.Errorf("cancelled after %v: spent %v of CPU after it", delay, ended-canceledAt)
		}
	}
}

// Class 6: long loops of honest work keep memory flat: caught errors,
// refused calls and naming tables leave nothing behind.
func TestNoLeaks(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"echo": echo})
	for name, code := range map[string]string{
		"caught errors":  `for i = 1, 30000 do pcall(error, "x") end`,
		"refused calls":  `for i = 1, 30000 do pcall(tools.echo, {}) end`,
		"unknown tools":  `for i = 1, 30000 do pcall(tools.mcp__x__y, {}) end`,
		"named tables":   `for i = 1, 300000 do local _ = tostring({}) end`,
		"parallel":       `for i = 1, 10000 do pcall(tools.parallel, function() error("x") end) end`,
		"caught objects": `for i = 1, 30000 do pcall(error, {}) end`,
	} {
		t.Run(name, func(t *testing.T) {
			out := runScript(t, f, code, &Options{MaxMemory: 32 << 20, MaxCalls: 10, MaxCoroutines: 1 << 30, Budget: ownLimitBudget})
			if out.Err != nil {
				t.Error(out.Err)
			}
		})
	}
}

// honest computes for a while after telling the test it has started.
const honest = `
	tools.started{}
	local x = 0
	for i = 1, 5e6 do x = x + i % 7 end
	return x`

// startedFunnel has one tool, started, which closes the channel it returns
// when the script calls it.
func startedFunnel() (*fakeFunnel, <-chan struct{}) {
	started := make(chan struct{})
	return newFunnel(map[string]toolFunc{"started": func(context.Context, map[string]any) (Output, error) {
		close(started)
		return Output{}, nil
	}}), started
}

// Class 7: of two runs at once, only the one that holds more than its
// limit is stopped.
func TestMemoryIsPerRun(t *testing.T) {
	// The honest run's budget is out of reach: memory is what is tested.
	opts := &Options{MaxMemory: 64 << 20, Budget: ownLimitBudget}
	f, started := startedFunnel()
	done := make(chan Outcome)
	go func() { done <- runScript(t, f, honest, opts) }()
	<-started
	hoard := runScript(t, newFunnel(nil), `
		local t = {}
		while true do t[#t + 1] = ("x"):rep(4096) .. #t end`, opts)
	if !errors.Is(hoard.Err, ErrMemoryExceeded) {
		t.Errorf("the hoarding run: err = %v", hoard.Err)
	}
	if out := <-done; out.Err != nil {
		t.Errorf("the honest run beside it: %v", out.Err)
	}
}

// Class 7: a host allocating beside a run does not get it stopped.
func TestHostMemoryIsNotTheRuns(t *testing.T) {
	f, started := startedFunnel()
	done := make(chan Outcome)
	go func() { done <- runScript(t, f, honest, &Options{MaxMemory: 64 << 20, Budget: ownLimitBudget}) }()
	<-started
	var held [][]byte
	for range 300 {
		held = append(held, make([]byte, 1<<20))
	}
	runtime.GC()
	if out := <-done; out.Err != nil {
		t.Errorf("the run beside a host holding %d MiB: %v", len(held), out.Err)
	}
	runtime.KeepAlive(held)
}

// Class 7: the walk finds what a script holds wherever it keeps it: in
// locals, upvalues, globals, coroutines and pcall's frames.
func TestMemoryWalkFindsHoards(t *testing.T) {
	for name, code := range map[string]string{
		"local":     `local t = {} while true do t[#t + 1] = ("x"):rep(4096) .. #t end`,
		"global":    `t = {} while true do t[#t + 1] = ("x"):rep(4096) .. #t end`,
		"upvalue":   `local t = {} local function add() t[#t + 1] = ("x"):rep(4096) .. #t end while true do add() end`,
		"pcall":     `pcall(function() local t = {} while true do t[#t + 1] = ("x"):rep(4096) .. #t end end)`,
		"coroutine": `coroutine.wrap(function() local t = {} while true do t[#t + 1] = { #t, {}, {} } end end)()`,
		"nested":    `local t = {} while true do t = { t, {}, {} } end`,
	} {
		t.Run(name, func(t *testing.T) {
			out := runScript(t, newFunnel(nil), code, &Options{MaxMemory: 32 << 20})
			if !errors.Is(out.Err, ErrMemoryExceeded) {
				t.Errorf("err = %v", out.Err)
			}
		})
	}
}

// Class 8: a tool's output passed on unchanged, or returned, arrives as
// the same JSON: empty arrays and objects keep their kind whatever the
// schema says, null elements keep their places.
func TestFaithfulValues(t *testing.T) {
	const output = `{"a":[1,null,3],"e":[],"n":[null,null],"o":{},"rows":[{"id":1,"tags":[]},{"id":2,"tags":["x",null]}]}`
	f := newFunnel(map[string]toolFunc{"src": structured(output), "sink": echo})
	f.schemas["sink"] = `{"type":"object","properties":{"v":{"type":"object","properties":{"e":{"type":"object"},"o":{"type":"array"}}}}}`
	mustResult(t, f, `
		local v = tools.src{}
		assert(#v.a == 3 and v.a[2] == tools.null and #v.n == 2)
		local seen = 0
		for _ in ipairs(v.a) do seen = seen + 1 end
		assert(seen == 3)
		assert(tostring(tools.null) == "null" and not pcall(function() tools.null.x = 1 end))
		tools.sink{ v = v }
		return v`, output)
	f.mu.Lock()
	got := string(f.calls[1].Args)
	f.mu.Unlock()
	if got != `{"v":`+output+`}` {
		t.Errorf("the second tool received %s", got)
	}
	// A table the script builds itself follows the encoding rules.
	mustResult(t, f, `return tools.sink{ list = { 1, tools.null, 3 }, empty = {} }`, `{"empty":{},"list":[1,null,3]}`)
}

// Class 8 (ORCH-3, the contract's conversion rules): the arguments are one
// object; a list or tools.null as the
// whole argument list is refused with a message that says so.
func TestArgumentsAreAnObject(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"sink": echo, "src": structured(`{"list":[1,2],"empty":[]}`)})
	for _, code := range []string{`tools.sink({ 1, 2 })`, `tools.sink(tools.src{}.list)`, `tools.sink(tools.src{}.empty)`, `tools.sink(tools.null)`} {
		out := runScript(t, f, code, nil)
		if out.Err == nil || !strings.Contains(out.Err.Error(), "tools.sink takes one table of named arguments, not a list") {
			t.Errorf("%s: err = %v", code, out.Err)
		}
	}
	mustResult(t, f, `return tools.sink()`, `{}`)
	mustResult(t, f, `return tools.sink{}`, `{}`)
}

// Class 9: Lua as models write it.
func TestLuaAsModelsWriteIt(t *testing.T) {
	f := newFunnel(nil)
	mustResult(t, f, `return select("#", pcall(error)), (select(2, pcall(error))) == nil`, `[2,true]`)
	mustResult(t, f, `return tonumber("1e5"), tostring(1e15), tostring(-0), -0 .. ""`, `[100000,"1e+15","-0","-0"]`)
	mustResult(t, f, `return #(("x"):rep(4 * 2^20 - 3) .. 100)`, `4194304`)
	mustResult(t, f, `return #setmetatable({ 1, 2 }, { __len = function() return 5 end }), #"abc", #{ n = 1 }`, `[2,3,0]`)
	out := runScript(t, f, `local x return #x`, nil)
	if out.Err == nil || !strings.Contains(out.Err.Error(), "script:1: attempt to get length of a nil value") {
		t.Errorf("#nil: %v", out.Err)
	}
}

// Class 10 (ISO-1, ISO-3, ORCH-4): messages a model can act on.
func TestMessagesModelsCanActOn(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"echo": echo})
	for code, want := range map[string]string{
		`tools:echo{ a = 1 }`: "script:1: call tools.echo{...} with a dot, not a colon",
		`error(setmetatable({}, { __tostring = function() return "custom text" end }))`: "custom text",
		`local ok, err = pcall(require, "x") error(err, 0)`:                             "require is not available inside Exec: scripts have no modules",
		`local ok, err = xpcall(load, function(e) return e end) error(err, 0)`:          "load is not available inside Exec",
		`_G.require("x")`:                                       "script:1: require is not available inside Exec",
		`return _G.os.time()`:                                   "script:1: os is not available inside Exec",
		`local f = rawget(_G, "load") f("x")`:                   "note: load is not available inside Exec: code cannot be compiled at run time",
		"local function f(n)\n  return f(n + 1) + 1\nend\nf(1)": "script:2: stack overflow (calls nested more than 512 deep",
		`tools.unknown_tool{}`:                                  `no tool of that name in this session; find tools with tools.ToolSearch{ query = "..." }`,
	} {
		out := runScript(t, f, code, nil)
		if !errors.Is(out.Err, ErrScript) || !strings.Contains(out.Err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", code, out.Err, want)
		}
	}
	// The removed names still read as nil (ISO-1).
	mustResult(t, f, `return require == nil and _G.require == nil and rawget(_G, "load") == nil`, "true")
}

// Class 11 (BUD-10): a funnel that ignores its context does not hold the run: a
// cancellation returns at once, single call or parallel, and the calls
// left behind are named.
func TestFunnelIgnoringItsContext(t *testing.T) {
	for name, code := range map[string]string{
		"single":   `tools.stuck{}`,
		"parallel": `tools.parallel(function() return tools.stuck{} end, function() return tools.stuck{} end)`,
	} {
		// In a bubble of fake time, so that a run that waits for the
		// funnel, or for a timer, shows as fake time passed.
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				release := make(chan struct{})
				defer close(release)
				entered := make(chan struct{}, 2)
				f := newFunnel(map[string]toolFunc{"stuck": func(context.Context, map[string]any) (Output, error) {
					entered <- struct{}{}
					<-release // ignores its context
					return Output{}, nil
				}})
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan Outcome)
				go func() { done <- Run(ctx, f.request(code), nil) }()
				<-entered
				canceledAt := time.Now()
				cancel()
				out := <-done
				if late := time.Since(canceledAt); late != 0 {
					t.Errorf("returned %v of fake time after the cancellation", late)
				}
				if !errors.Is(out.Err, ErrCanceled) {
					t.Errorf("err = %v", out.Err)
				}
				if len(out.Abandoned) == 0 || out.Abandoned[0] != "stuck" {
					t.Errorf("abandoned = %v", out.Abandoned)
				}
			})
		})
	}
}

// Class 1: counting what printing or returning thousands of large strings
// does not keep runs on the budget clock.
func TestCountingIsOnTheBudget(t *testing.T) {
	for _, tail := range []string{"print(unpack(t))", "return unpack(t)"} {
		var out Outcome
		spent := cputime.Spent(t, func() {
			out = runScript(t, newFunnel(nil), `
				local s = ("z"):rep(2^20)
				local t = {}
				for i = 1, 4000 do t[i] = s end
				`+tail, &Options{Budget: 50 * time.Millisecond, MaxStringBytes: 1 << 20})
		})
		if !errors.Is(out.Err, ErrBudgetExceeded) {
			t.Errorf("%s: err = %v", tail, out.Err)
		}
		if spent > 50*time.Millisecond+stopSlack {
			t.Errorf("%s: spent %v of CPU", tail, spent)
		}
	}
}

// BUD-10: the VM goroutine a run left behind in a funnel that ignores its
// context ends once the funnel returns, and its late return changes
// nothing of the outcome the run gave.
func TestLeftBehindVMEnds(t *testing.T) {
	t.Cleanup(leaktest.Check(t))
	defer SetPreparedStates(DefaultPreparedStates)
	SetPreparedStates(0) // no refill goroutine in the count
	release := make(chan struct{})
	entered := make(chan struct{})
	f := newFunnel(map[string]toolFunc{"stuck": func(context.Context, map[string]any) (Output, error) {
		close(entered)
		<-release // ignores its context
		return Output{Structured: []byte(`{"late":true}`)}, nil
	}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Outcome)
	go func() {
		done <- Run(ctx, f.request(`print("before") local r = tools.stuck{} print("after") return r`), nil)
	}()
	<-entered
	cancel()
	out := <-done
	close(release)
	if !errors.Is(out.Err, ErrCanceled) || out.Log != "before" || out.HasResult || !slices.Equal(out.Abandoned, []string{"stuck"}) {
		t.Errorf("err = %v, log = %q, result = %q, abandoned = %v", out.Err, out.Log, out.Result, out.Abandoned)
	}
}
