package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/execlua/execlua/internal/cputime"
	"github.com/google/go-cmp/cmp"
)

const shortBudget = 100 * time.Millisecond

// budgetStop runs code with a short budget and checks that it was stopped
// for its budget, with a message that says so and that completed calls
// still apply, not long after the budget.
func budgetStop(t *testing.T, f *fakeFunnel, code string) Outcome {
	t.Helper()
	var out Outcome
	spent := cputime.Spent(t, func() { out = runScript(t, f, code, &Options{Budget: shortBudget}) })
	if !errors.Is(out.Err, ErrBudgetExceeded) {
		t.Fatalf("err = %v, want ErrBudgetExceeded", out.Err)
	}
	for _, want := range []string{"execution budget", "100ms", "completed still apply"} {
		if !strings.Contains(out.Err.Error(), want) {
			t.Errorf("message %q lacks %q", out.Err, want)
		}
	}
	if spent > shortBudget+stopSlack {
		t.Errorf("spent %v of CPU for a %v budget", spent, shortBudget)
	}
	return out
}

// BUD-1: a synchronous infinite loop is stopped.
func TestBUD1_InfiniteLoop(t *testing.T) {
	budgetStop(t, newFunnel(nil), `while true do end`)
	// pcall cannot swallow the stop.
	budgetStop(t, newFunnel(nil), `while true do pcall(function() while true do end end) end`)
}

// BUD-2: a loop after a nested call is stopped, and the call it made is
// reported.
func TestBUD2_LoopAfterNestedCall(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"t": echo})
	out := budgetStop(t, f, `tools.t{} print("called") while true do end`)
	if diff := cmp.Diff([]string{"t"}, out.Calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if out.Log != "called" {
		t.Errorf("log before the stop = %q", out.Log)
	}
}

// BUD-3: waiting forever on something that is not a nested call.
func TestBUD3_WaitingOnNothing(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"t": echo})
	budgetStop(t, f, `tools.parallel(function() return tools.t{} end, function() while true do end end)`)
	budgetStop(t, f, `local co = coroutine.wrap(function() while true do coroutine.yield() end end) while true do co() end`)
	budgetStop(t, f, `local t = setmetatable({}, { __index = function(t, k) while true do end end }) return t.x`)
	budgetStop(t, f, `for x in function() while true do end end do end`)
}

// BUD-4: a nested call far longer than the budget does not consume it,
// and nothing caps the wait by default.
func TestBUD4_NestedWaitIsNotScriptTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFunnel(map[string]toolFunc{"slow": func(ctx context.Context, _ map[string]any) (Output, error) {
			time.Sleep(30 * time.Minute) // an approval prompt answered half an hour later
			return Output{Text: []string{"approved"}}, nil
		}})
		start := time.Now()
		out := runScript(t, f, `local a = tools.slow{} local b = tools.slow{} return a .. " " .. b`, &Options{Budget: time.Second})
		if out.Err != nil || out.Result != "approved approved" {
			t.Fatalf("result %q, err %v", out.Result, out.Err)
		}
		if waited := time.Since(start); waited != time.Hour {
			t.Errorf("fake time waited %v, want exactly the calls' hour", waited)
		}
	})
}

// BUD-5: concurrent nested calls share one waiting window.
func TestBUD5_ParallelSharesOneWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFunnel(map[string]toolFunc{"slow": func(ctx context.Context, args map[string]any) (Output, error) {
			time.Sleep(time.Minute)
			return Output{Structured: json.RawMessage(fmt.Sprintf(`{"n":%v}`, args["n"]))}, nil
		}})
		start := time.Now()
		out := runScript(t, f, `
			local a, b, c = tools.parallel(
				function() return tools.slow{ n = 1 }.n end,
				function() return tools.slow{ n = 2 }.n + tools.slow{ n = 20 }.n end,
				function() return 3 end)
			return { a, b, c }`, &Options{Budget: time.Second})
		if out.Err != nil || out.Result != "[1,22,3]" {
			t.Fatalf("result %q, err %v", out.Result, out.Err)
		}
		if waited := time.Since(start); waited != 2*time.Minute {
			t.Errorf("waited %v; want 2m (two rounds, each one window)", waited)
		}
		if f.maxInFlight != 2 {
			t.Errorf("at most %d calls in flight, want 2", f.maxInFlight)
		}
	})
}

// parallel re-raises the error of the branch that failed first (in time,
// as Promise.all does) after all branches finish, and its results come in
// argument order.
func TestParallelErrorsAndOrder(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"t": echo, "bad": failing("boom")})
	out := runScript(t, f, `
		local done = {}
		local ok, err = pcall(tools.parallel,
			function() done[1] = true return tools.bad{} end,
			function() done[2] = tools.t{ v = 2 }.v end,
			function() error("second failure") end)
		assert(not ok and err:find("second failure") and not err:find("boom"), tostring(err))
		assert(done[2] == 2, "the other branches finish")
		return select("#", tools.parallel(function() return "a" end, function() return nil end, function() return "c" end)),
			tools.parallel(function() return "a" end, function() return nil end, function() return "c" end)`, nil)
	if out.Err != nil || out.Result != `[3,"a",null,"c"]` {
		t.Errorf("result %q, err %v", out.Result, out.Err)
	}
	out = runScript(t, f, `tools.parallel(function() end, 42)`, nil)
	if out.Err == nil || !strings.Contains(out.Err.Error(), "function expected, got number") {
		t.Errorf("non-function branch: %v", out.Err)
	}
	// A list of functions, as models pass it, is told how to spread it.
	out = runScript(t, f, `local fns = { function() end } return tools.parallel(fns)`, nil)
	if out.Err == nil || !strings.Contains(out.Err.Error(), "function expected, got table): pass one function per branch") || !strings.Contains(out.Err.Error(), "tools.parallel(unpack(list))") {
		t.Errorf("a list of branches: %v", out.Err)
	}
}

// BUD-6: only the offending call is refused over the limit; ToolSearch
// counts too (SRCH-10), and refused calls are still recorded (SUM-7).
func TestBUD6_CallLimitRefusesOnlyThatCall(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"t": echo})
	req := f.request(`
		tools.t{} tools.ToolSearch{ query = "x" } tools.t{}
		local ok, err = pcall(tools.t, {})
		local ok2 = pcall(tools.t, {})
		return { ok, err, ok2 }`)
	req.Search = func(context.Context, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"matches":[],"total":0}`), nil
	}
	out := Run(context.Background(), req, &Options{MaxCalls: 3})
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	if !strings.Contains(out.Result, "nested call limit reached") || !strings.HasPrefix(out.Result, "[false,") || !strings.HasSuffix(out.Result, ",false]") {
		t.Errorf("result %s", out.Result)
	}
	if diff := cmp.Diff([]string{"t", "ToolSearch", "t", "t", "t"}, out.Calls); diff != "" {
		t.Errorf("recorded calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"t", "t"}, f.names()); diff != "" {
		t.Errorf("calls that reached the host (-want +got):\n%s", diff)
	}
	// Uncaught, the refusal fails the script and keeps its sentinel.
	out = runScript(t, f, `for i = 1, 3 do tools.t{} end`, &Options{MaxCalls: 2})
	if !errors.Is(out.Err, ErrCallLimit) || !errors.Is(out.Err, ErrScript) {
		t.Errorf("err = %v", out.Err)
	}
}

// BUD-7: the log is cut at its character limit.
func TestBUD7_LogCut(t *testing.T) {
	out := runScript(t, newFunnel(nil), `for i = 1, 1000 do print("ééééé") end`, &Options{MaxLogChars: 20})
	if out.Log != "ééééé\nééééé\nééééé\néé" {
		t.Errorf("log %q", out.Log)
	}
	if out.LogChars != 1000*6-1 {
		t.Errorf("LogChars = %d", out.LogChars)
	}
}

// BUD-8: the result is cut and its full length kept.
func TestBUD8_ResultCut(t *testing.T) {
	out := runScript(t, newFunnel(nil), `return ("ab"):rep(100)`, &Options{MaxResultChars: 10})
	if out.Result != "ababababab" || out.ResultChars != 200 {
		t.Errorf("result %q (%d chars)", out.Result, out.ResultChars)
	}
}

// BUD-9: images from many nested calls are capped.
func TestBUD9_ImagesCapped(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"shot": func(context.Context, map[string]any) (Output, error) {
		return Output{Images: []Image{{MIMEType: "image/png", Data: "AA"}, {MIMEType: "image/png", Data: "BB"}}}, nil
	}})
	out := runScript(t, f, `for i = 1, 3 do tools.shot{} end`, &Options{MaxImages: 4})
	if len(out.Images) != 4 || out.DroppedImages != 2 {
		t.Errorf("kept %d images, dropped %d", len(out.Images), out.DroppedImages)
	}
}

// BUD-10: cancellation before or during the run, nested call in flight
// included, ends it promptly; the call's own context is cancelled too.
func TestBUD10_Cancellation(t *testing.T) {
	f := newFunnel(nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if out := Run(ctx, f.request(`return 1`), nil); !errors.Is(out.Err, ErrCanceled) {
		t.Errorf("canceled before: %v", out.Err)
	}

	synctest.Test(t, func(t *testing.T) {
		callCanceled := make(chan bool, 3)
		f := newFunnel(map[string]toolFunc{"wait": func(ctx context.Context, _ map[string]any) (Output, error) {
			<-ctx.Done()
			callCanceled <- true
			return Output{}, ctx.Err()
		}})
		for _, code := range []string{
			`tools.wait{} return "not reached"`,
			`tools.parallel(function() tools.wait{} end, function() tools.wait{} end) return "not reached"`,
		} {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(time.Minute, cancel)
			start := time.Now()
			out := Run(ctx, f.request(code), nil)
			if !errors.Is(out.Err, ErrCanceled) || time.Since(start) != time.Minute {
				t.Errorf("%s: err %v after %v", code, out.Err, time.Since(start))
			}
		}
		synctest.Wait() // the parallel calls may still be returning
		if len(callCanceled) != 3 {
			t.Errorf("%d of 3 nested calls saw their context cancelled", len(callCanceled))
		}
	})

	// During script time.
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if out := Run(ctx, f.request(`while true do end`), nil); !errors.Is(out.Err, ErrCanceled) {
		t.Errorf("canceled while running: %v", out.Err)
	}
}

// BUD-11: a crash becomes a failed outcome, never a panic.
func TestBUD11_CrashIsAFailure(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"boom": func(context.Context, map[string]any) (Output, error) {
		panic("host tool bug")
	}})
	out := runScript(t, f, `local ok = pcall(tools.boom, {}) return "continued"`, nil)
	if !errors.Is(out.Err, ErrCrashed) || !strings.Contains(out.Err.Error(), "host tool bug") {
		t.Errorf("funnel panic: %v", out.Err)
	}
	req := f.request(`local ok = pcall(tools.ToolSearch, { query = "x" }) return "continued"`)
	req.Search = func(context.Context, json.RawMessage) (json.RawMessage, error) { panic("search bug") }
	if out := Run(context.Background(), req, nil); !errors.Is(out.Err, ErrCrashed) {
		t.Errorf("search panic: %v", out.Err)
	}
}

// BUD-12: the optional cap on nested waiting ends the run.
func TestBUD12_NestedWaitCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFunnel(map[string]toolFunc{"slow": func(ctx context.Context, _ map[string]any) (Output, error) {
			select {
			case <-time.After(time.Hour):
			case <-ctx.Done():
			}
			return Output{}, nil
		}})
		start := time.Now()
		out := runScript(t, f, `tools.slow{} tools.slow{}`, &Options{MaxNestedWait: 90 * time.Minute})
		if !errors.Is(out.Err, ErrNestedWaitExceeded) {
			t.Fatalf("err = %v", out.Err)
		}
		if waited := time.Since(start); waited != 90*time.Minute {
			t.Errorf("stopped after %v of waiting, want the cap of 90m in total", waited)
		}
		if !strings.Contains(out.Err.Error(), "completed still apply") {
			t.Errorf("message %q", out.Err)
		}
	})
}

// A nested call where no yield can cross a Go frame completes on the
// spot, with the clock stopped all the same.
func TestCallsInsideGoFrames(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFunnel(map[string]toolFunc{"slow": func(_ context.Context, args map[string]any) (Output, error) {
			time.Sleep(10 * time.Minute)
			return Output{Structured: json.RawMessage(fmt.Sprintf(`{"v":%v}`, args["v"]))}, nil
		}})
		out := runScript(t, f, `
			local t = { 3, 1, 2 }
			table.sort(t, function(a, b) return tools.slow{ v = a }.v < tools.slow{ v = b }.v end)
			local s = ("ab"):gsub("%w", function(c) return tools.slow{ v = 1 }.v .. c end)
			local m = setmetatable({}, { __index = function(_, k) return tools.slow{ v = k }.v end })
			local n = 0
			for v in function(_, last) if (last or 0) < 2 then return tools.slow{ v = (last or 0) + 1 }.v end end do n = n + v end
			local gen = coroutine.wrap(function() coroutine.yield(tools.slow{ v = 7 }.v) end)
			local w = 0
			for x in gen do w = x end
			return { t, s, m[5], n, w }`, &Options{Budget: time.Second})
		if out.Err != nil || out.Result != `[[1,2,3],"1a1b",5,3,7]` {
			t.Errorf("result %q, err %v", out.Result, out.Err)
		}
		// Yielding on the script's own account there fails as in C Lua.
		out = runScript(t, f, `local co = coroutine.wrap(function() table.sort({ 2, 1 }, function(a, b) coroutine.yield() return a < b end) end) co()`, nil)
		if out.Err == nil || !strings.Contains(out.Err.Error(), "attempt to yield across a C-call boundary") {
			t.Errorf("yield in a comparator: %v", out.Err)
		}
	})
}

// A top-level yield fails as C Lua's does; coroutine.running is nil there
// even inside pcall.
func TestCoroutineTransparency(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"t": echo})
	mustResult(t, f, `
		local ok, err = pcall(coroutine.yield, 1)
		assert(not ok and err:find("attempt to yield from outside a coroutine"), tostring(err))
		assert(coroutine.running() == nil)
		assert(select(2, pcall(coroutine.running)) == nil, "pcall adds no coroutine")
		local co
		co = coroutine.create(function(a)
			assert(coroutine.running() == co and coroutine.status(co) == "running")
			local ok, b = pcall(function() return coroutine.yield(a + 1) end)
			tools.t{}
			return b * 10
		end)
		local _, first = coroutine.resume(co, 1)
		local _, second = coroutine.resume(co, 5)
		return first == 2 and second == 50 and coroutine.status(co) == "dead"`, "true")
}

// The memory guard's trigger: live heap against the room the run has
// left, all heap objects (for when the GC does not run) against twice it.
func TestMemoryGuardThresholds(t *testing.T) {
	g := &memoryGuard{limit: 100, trigger: heapSample{live: 1100, objects: 5200}}
	for _, c := range []struct {
		now  heapSample
		want bool
	}{
		{heapSample{live: 1100, objects: 5200}, false},
		{heapSample{live: 1101, objects: 5000}, true},
		{heapSample{live: 900, objects: 5201}, true},
		{heapSample{live: 500, objects: 100}, false},
	} {
		if got := g.over(c.now); got != c.want {
			t.Errorf("over(%+v) = %v, want %v", c.now, got, c.want)
		}
	}
}
