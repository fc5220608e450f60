package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/execlua/execlua/sandbox"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Every way a script ends gives the same outcome in a worker as
// in-process: result, lines, calls, images, and an error that matches the
// same sentinels and has the same text (BUD-1, BUD-6..9, ORCH-4
// in a worker).
func TestSameOutcomeAsInProcess(t *testing.T) {
	p := testPool(t, nil)
	scripts := map[string]string{
		"value":       `return { a = 1, b = { "x", "y" } }`,
		"string":      `print("hi") print({ 1, 2 }) return "plain"`,
		"multi":       `return 1, "two", nil`,
		"nothing":     `local x = 1`,
		"calls":       `local r = tools.echo{ n = 1 } local s = tools.text{ text = "t" } return r.n, s`,
		"parallel":    `return tools.parallel(function() return tools.echo{ i = 1 } end, function() return tools.echo{ i = 2 } end)`,
		"search":      `return tools.ToolSearch{ query = "echo" }`,
		"caught":      `local ok, err = pcall(tools.fail, { x = 1 }) return ok, err`,
		"uncaught":    `tools.fail{ x = 2 }`,
		"error":       `error("plain failure")`,
		"syntax":      `return (`,
		"unknown":     `return tools.mcp__nowhere__x{}`,
		"call limit":  `for i = 1, 3 do pcall(tools.echo, {}) end return tools.echo{}`,
		"nil":         `return nil`,
		"log cut":     `for i = 1, 100 do print(("x"):rep(100)) end return ("y"):rep(200000)`,
		"budget":      `while true do end`,
		"memory":      `local t = {} for i = 1, 1e8 do t[i] = { i } end`,
		"coroutines":  `for i = 1, 10 do coroutine.create(function() end) end`,
		"images":      `for i = 1, 3 do tools.text{ text = "i" } end return "ok"`,
		"no funnel":   `return tools.echo{}`,
		"on the spot": `local t = { 3, 1, 2 } table.sort(t, function(a, b) tools.echo{} return a < b end) return t`,
	}
	opts := &sandbox.Options{Budget: 200 * time.Millisecond, MaxCalls: 3, MaxMemory: 32 << 20, MaxCoroutines: 5, MaxImages: 2}
	for name, code := range scripts {
		t.Run(name, func(t *testing.T) {
			req := request(code)
			if name == "no funnel" {
				req.Funnel = nil
			}
			opts := *opts
			switch name {
			case "memory": // the memory limit first, not the budget
				opts = sandbox.Options{Budget: ownLimitBudget, MaxMemory: opts.MaxMemory}
			case "budget":
			default: // out of reach on a loaded machine, where the budget is not what is compared
				opts.Budget = ownLimitBudget
			}
			want := sandbox.Run(context.Background(), req, &opts)
			got := p.Run(context.Background(), req, &opts)
			ignore := cmp.Options{cmpopts.IgnoreFields(sandbox.Outcome{}, "Timings", "Err"), cmpopts.EquateEmpty()}
			if diff := cmp.Diff(want, got, ignore); diff != "" {
				t.Errorf("outcome (-in-process +worker):\n%s", diff)
			}
			if (want.Err == nil) != (got.Err == nil) || want.Err != nil && !sameMessage(name, want.Err, got.Err) {
				t.Errorf("err = %v, want %v", got.Err, want.Err)
			}
			for _, sentinel := range []error{sandbox.ErrBudgetExceeded, sandbox.ErrMemoryExceeded, sandbox.ErrScript,
				sandbox.ErrCallLimit, sandbox.ErrUnknownTool, sandbox.ErrNoFunnel, errFake, sandbox.ErrCrashed} {
				if errors.Is(want.Err, sentinel) != errors.Is(got.Err, sentinel) {
					t.Errorf("errors.Is(%v, %v) = %v in the worker, %v in-process", got.Err, sentinel, !errors.Is(want.Err, sentinel), errors.Is(want.Err, sentinel))
				}
			}
		})
	}
}

// The script corpus (testdata/lua/*.lua, with its assert helper) ends the
// same way in a worker as in-process, call for call and line for line.
func TestScriptCorpusSameInBothModes(t *testing.T) {
	p := testPool(t, nil)
	helper, err := os.ReadFile("../../testdata/lua/lib/assert.lua")
	if err != nil {
		t.Fatal(err)
	}
	prelude := strings.ReplaceAll(string(helper), "\n", " ")
	files, _ := filepath.Glob("../../testdata/lua/*.lua")
	if len(files) < 5 {
		t.Fatalf("%d scripts", len(files))
	}
	opts := &sandbox.Options{MaxCalls: 1000}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		req := request(prelude + string(src))
		want, got := sandbox.Run(context.Background(), req, opts), p.Run(context.Background(), req, opts)
		if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(sandbox.Outcome{}, "Timings", "Err"), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s (-in-process +worker):\n%s", file, diff)
		}
		if fmt.Sprint(want.Err) != fmt.Sprint(got.Err) {
			t.Errorf("%s: err = %v, want %v", file, got.Err, want.Err)
		}
	}
}

// sameMessage compares errors by text, except where the text holds a
// number that differs between processes (a memory figure measured).
func sameMessage(name string, want, got error) bool {
	if name == "memory" {
		return errors.Is(got, sandbox.ErrMemoryExceeded)
	}
	return want.Error() == got.Error()
}

// OnCall hears every call, refused ones included, in order, as the
// script makes them.
func TestOnCall(t *testing.T) {
	p := testPool(t, nil)
	var heard []string
	req := request(`tools.echo{} pcall(tools.fail, {}) tools.ToolSearch{ query = "x" } pcall(tools.echo, {}) return 1`)
	req.OnCall = func(name string) { heard = append(heard, name) }
	out := p.Run(context.Background(), req, &sandbox.Options{MaxCalls: 3})
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	want := []string{"echo", "fail", "ToolSearch", "echo"}
	if diff := cmp.Diff(want, heard); diff != "" {
		t.Errorf("OnCall (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, out.Calls); diff != "" {
		t.Errorf("Calls (-want +got):\n%s", diff)
	}
}

// BUD-10 in a worker: cancelling the caller's context ends the run, a
// nested call in flight included, with the caller's cause.
func TestCancelDuringCall(t *testing.T) {
	p := testPool(t, nil)
	ctx, cancel := context.WithCancelCause(context.Background())
	req := request(`tools.echo{} tools.block{} return 1`)
	req.OnCall = func(name string) {
		if name == "block" {
			cancel(errors.New("the user pressed stop"))
		}
	}
	out := p.Run(ctx, req, nil)
	if !errors.Is(out.Err, sandbox.ErrCanceled) || !strings.Contains(out.Err.Error(), "the user pressed stop") {
		t.Errorf("err = %v, want the cancellation with its cause", out.Err)
	}
	if diff := cmp.Diff([]string{"echo", "block"}, out.Calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

// Issue 10 class 11 in a worker: a host funnel that ignores its context
// does not hold the run; the cancellation ends it and the call left
// behind is named in Outcome.Abandoned, as in-process.
func TestFunnelIgnoringItsContext(t *testing.T) {
	// A grace period no loaded machine reaches: a run that waited for it
	// shows, one that returned at once does not.
	p := testPool(t, &Options{Grace: time.Minute})
	release := make(chan struct{})
	defer close(release)
	entered := make(chan struct{})
	req := request(`tools.echo{} tools.block{} return 1`)
	inner := req.Funnel
	req.Funnel = sandbox.FunnelFunc(func(ctx context.Context, c sandbox.Call) (sandbox.Output, error) {
		if c.Name != "block" {
			return inner.Call(ctx, c)
		}
		close(entered)
		<-release // ignores its context
		return sandbox.Output{}, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan sandbox.Outcome)
	go func() { done <- p.Run(ctx, req, nil) }()
	<-entered
	canceledAt := time.Now()
	cancel()
	out := <-done
	if late := time.Since(canceledAt); late >= p.grace {
		t.Errorf("returned %v after the cancellation, not before the grace period (%v)", late, p.grace)
	}
	if !errors.Is(out.Err, sandbox.ErrCanceled) {
		t.Errorf("err = %v, want the cancellation", out.Err)
	}
	if diff := cmp.Diff([]string{"block"}, out.Abandoned); diff != "" {
		t.Errorf("abandoned (-want +got):\n%s", diff)
	}
}

// BUD-1, ISO-8: a worker stuck in one step is killed once its budget and
// the grace period are spent, and the run reports the budget.
func TestHardKillPastBudget(t *testing.T) {
	p := misbehaving(t, "hang")
	w, err := p.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.release(w)
	budget := 100 * time.Millisecond
	start := time.Now()
	out := w.run(context.Background(), request(`return 1`), sandbox.Options{Budget: budget}, p.grace)
	took := time.Since(start)
	var be *sandbox.BudgetError
	if !errors.As(out.Err, &be) || be.Budget != budget {
		t.Fatalf("err = %v, want the budget of %v", out.Err, budget)
	}
	// The host's own kill, not the CPU limit behind it; how soon after
	// the grace period it came is the scheduler's on a shared machine.
	if why := w.killed.Load(); why != killBudget {
		t.Errorf("the worker was killed for reason %d, want the budget (%d)", why, killBudget)
	}
	if took < budget+p.grace {
		t.Errorf("the run took %v; the worker should be killed %v past its budget, not before", took, p.grace)
	}
}

// BUD-10: a worker that ignores a cancellation is killed after the grace
// period.
func TestHardKillAfterCancel(t *testing.T) {
	p := misbehaving(t, "hang")
	w, err := p.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.release(w)
	ctx, cancel := context.WithCancel(context.Background())
	after := 20 * time.Millisecond
	time.AfterFunc(after, cancel)
	start := time.Now()
	out := w.run(ctx, request(`return 1`), sandbox.Options{Budget: time.Hour}, p.grace)
	if took := time.Since(start); took < after+p.grace {
		t.Errorf("the run ended after %v, before the grace period", took)
	}
	if !errors.Is(out.Err, sandbox.ErrCanceled) {
		t.Fatalf("err = %v, want the cancellation", out.Err)
	}
}

// BUD-11: a worker that dies for another reason is a crash that names how
// it ended; the next run gets a fresh worker.
func TestWorkerDies(t *testing.T) {
	p := misbehaving(t, "crash")
	for range 2 {
		out := p.Run(context.Background(), request(`return 1`), nil)
		var we *WorkerError
		if !errors.As(out.Err, &we) || !errors.Is(out.Err, sandbox.ErrCrashed) {
			t.Fatalf("err = %v, want a WorkerError", out.Err)
		}
		for _, want := range []string{"exit status 2", "something broke in the worker"} {
			if !strings.Contains(out.Err.Error(), want) {
				t.Errorf("err = %v, want it to name %q", out.Err, want)
			}
		}
	}
}

// A worker that grows past its memory cap in a way the sandbox cannot
// see is killed, and the run reports the memory budget.
func TestMemoryKill(t *testing.T) {
	p := misbehaving(t, "hog")
	out := p.Run(context.Background(), request(`return 1`), &sandbox.Options{MaxMemory: 32 << 20})
	var me *sandbox.MemoryError
	if !errors.As(out.Err, &me) || me.Limit != 32<<20 {
		t.Fatalf("err = %v, want the memory budget", out.Err)
	}
}

// A binary that is no worker, one that speaks another version, and one
// that writes something else than frames: each is a WorkerError saying so.
func TestBadWorkers(t *testing.T) {
	for mode, want := range map[string]string{
		"silent":  "does not serve as a worker",
		"old":     fmt.Sprintf("speaks worker protocol version %d", Version+1),
		"garbage": "broke the protocol",
	} {
		t.Run(mode, func(t *testing.T) {
			p := misbehaving(t, mode)
			out := p.Run(context.Background(), request(`return 1`), nil)
			if !errors.Is(out.Err, sandbox.ErrCrashed) || !strings.Contains(out.Err.Error(), want) {
				t.Errorf("err = %v, want a WorkerError naming %q", out.Err, want)
			}
		})
	}
}

// BUD-11: a funnel that panics ends the run as a crash, as in-process.
func TestFunnelPanics(t *testing.T) {
	p := testPool(t, nil)
	out := p.Run(context.Background(), request(`tools.boom{}`), nil)
	if !errors.Is(out.Err, sandbox.ErrCrashed) || !strings.Contains(out.Err.Error(), "the funnel broke") {
		t.Errorf("err = %v, want a crash naming the panic", out.Err)
	}
}

// In a worker, assigning to a far integer index is one hash entry: in
// process, gopher-lua fills the array part up to it (a gigabyte for
// 2^26 - 1) in one step no budget can stop.
func TestFarIndexInWorker(t *testing.T) {
	p := testPool(t, nil)
	w, err := p.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.release(w)
	stop := make(chan struct{})
	peak := make(chan uint64)
	go func() { peak <- residentPeak(w.pid, stop) }()
	out := w.run(context.Background(), request(`local t = {} t[2^26 - 1] = true t[2^25] = 1 return t[2^26 - 1], #t`),
		sandbox.Options{MaxMemory: 64 << 20}, p.grace)
	close(stop)
	if out.Err != nil || out.Result != "[true,0]" {
		t.Errorf("result %q, err %v", out.Result, out.Err)
	}
	if rss := <-peak; rss > raceMemoryFactor*64<<20 {
		t.Errorf("the worker's resident memory peaked at %d MiB", rss>>20)
	}
}

// One allocation far past the cap: the address-space limit refuses it and
// the Go runtime dies of it, which the host reads as the memory budget
// (under the race detector, which needs the address space, the host's
// watch on resident memory kills the worker instead).
func TestAddressSpaceLimit(t *testing.T) {
	p := misbehaving(t, "bigalloc")
	w, err := p.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.release(w)
	out := w.run(context.Background(), request(`return 1`), sandbox.Options{MaxMemory: 64 << 20}, p.grace)
	if !errors.Is(out.Err, sandbox.ErrMemoryExceeded) {
		t.Fatalf("err = %v, want the memory budget", out.Err)
	}
	if killed := w.killed.Load(); !raceEnabled && killed != killEnd {
		t.Errorf("the host killed the worker (reason %d); the kernel should have refused the allocation", killed)
	}
}

// A worker the kernel kills at its CPU rlimit reads as over its budget,
// not as a crash. This one spins while the host waits in the call it
// asked for, so the host's watchdog is paused and the kernel's limit (a
// few seconds of CPU for a 1 ms budget) is what ends it.
func TestCPULimit(t *testing.T) {
	p := misbehaving(t, "cpuspin")
	w, err := p.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.release(w)
	budget := time.Millisecond
	out := w.run(context.Background(), request(`return 1`), sandbox.Options{Budget: budget}, p.grace)
	var be *sandbox.BudgetError
	if !errors.As(out.Err, &be) || be.Budget != budget {
		t.Fatalf("err = %v, want the budget of %v", out.Err, budget)
	}
	if killed := w.killed.Load(); killed != killEnd {
		t.Errorf("the host killed the worker (reason %d); the kernel should have", killed)
	}
	if ws := w.cmd.ProcessState.Sys().(syscall.WaitStatus); ws.Signal() != syscall.SIGKILL {
		t.Errorf("the worker ended with %v, want the kernel's SIGKILL", w.cmd.ProcessState)
	}
}

// A worker that dies after printing, or is killed for its budget or its
// memory, still leaves the failed result what the script printed before,
// as in-process: printed lines stream to the host as they are made.
func TestPrintedBeforeTheEnd(t *testing.T) {
	for then, tc := range map[string]struct {
		budget   time.Duration
		sentinel error
	}{
		"crash": {time.Minute, sandbox.ErrCrashed},
		"hang":  {100 * time.Millisecond, sandbox.ErrBudgetExceeded},
		"hog":   {time.Minute, sandbox.ErrMemoryExceeded},
	} {
		t.Run(then, func(t *testing.T) {
			p := misbehaving(t, "print-"+then)
			out := p.Run(context.Background(), request(`print("kept", 1) print("never sent") return 1`),
				&sandbox.Options{Budget: tc.budget, MaxMemory: 32 << 20})
			if sentinel := tc.sentinel; !errors.Is(out.Err, sentinel) {
				t.Fatalf("err = %v, want %v", out.Err, sentinel)
			}
			want := sandbox.Outcome{Log: "kept\t1", LogChars: 6, Lines: []string{"kept\t1"}}
			if diff := cmp.Diff(want, out, cmpopts.IgnoreFields(sandbox.Outcome{}, "Timings", "Err")); diff != "" {
				t.Errorf("outcome (-want +got):\n%s", diff)
			}
		})
	}
}

// The worker learns the tools' names with its run and asks for a tool's
// input schema at its first call with arguments: the schema's empty-array
// rule applies as in-process, for each call of it.
func TestSchemaAtFirstCall(t *testing.T) {
	p := testPool(t, nil)
	req := request(`return tools.list{ xs = {} }, tools.list{ xs = {}, o = {} }, tools.echo{ xs = {} }, tools.none()`)
	req.Tools = sandbox.NewToolset(append(req.Tools.Tools(),
		sandbox.Tool{Name: "list", InputSchema: json.RawMessage(`{"type":"object","properties":{"xs":{"type":"array"}}}`)}))
	inner := req.Funnel
	req.Funnel = sandbox.FunnelFunc(func(ctx context.Context, c sandbox.Call) (sandbox.Output, error) {
		if c.Name == "list" {
			c.Name = "echo"
		}
		return inner.Call(ctx, c)
	})
	want := sandbox.Run(context.Background(), req, nil)
	got := p.Run(context.Background(), req, nil)
	if got.Err != nil || got.Result != want.Result {
		t.Errorf("result %s (err %v), want %s", got.Result, got.Err, want.Result)
	}
	if !strings.Contains(want.Result, `[{"xs":[]},{"o":{},"xs":[]},{"xs":{}}`) {
		t.Errorf("in-process result %s does not show the rule", want.Result)
	}
}

// OnPrint hears each print in a worker as in-process, while the log has
// room: what the log holds after it.
func TestOnPrint(t *testing.T) {
	p := testPool(t, nil)
	heard := map[string][]string{}
	for _, mode := range []string{"inprocess", "worker"} {
		req := request(`print("a") print("b", 2) print({ 1 }) return 1`)
		req.OnPrint = func(log string, lines []string, chars int) {
			heard[mode] = append(heard[mode], fmt.Sprintf("%q %q %d", log, lines, chars))
		}
		run := sandbox.Run
		if mode == "worker" {
			run = p.Run
		}
		if out := run(context.Background(), req, nil); out.Err != nil {
			t.Fatal(out.Err)
		}
	}
	if len(heard["inprocess"]) != 3 {
		t.Fatalf("in-process OnPrint heard %q", heard["inprocess"])
	}
	if diff := cmp.Diff(heard["inprocess"], heard["worker"]); diff != "" {
		t.Errorf("OnPrint (-in-process +worker):\n%s", diff)
	}
}

// A funnel that hands its structured content over already decoded
// (Output.Decoded, no Structured bytes) gives the script in a worker the
// same table as in-process, pairs order included; a value JSON cannot
// hold fails the call with the tool's name in both modes.
func TestDecodedOutputInWorker(t *testing.T) {
	p := testPool(t, nil)
	var decoded any
	if err := json.Unmarshal([]byte(`{"id":7,"tags":["a",null,"c"],"owner":{"name":"x","admin":false}}`), &decoded); err != nil {
		t.Fatal(err)
	}
	const script = `local r = tools.t{}
local keys = {}
for k in pairs(r) do keys[#keys + 1] = k end
return { keys = table.concat(keys, ","), name = r.owner.name, value = r }`
	type runner = func(context.Context, sandbox.Request, *sandbox.Options) sandbox.Outcome
	run := func(in runner, out sandbox.Output) sandbox.Outcome {
		req := sandbox.Request{Code: script, Tools: sandbox.NewToolset([]sandbox.Tool{{Name: "t"}}),
			Funnel: sandbox.FunnelFunc(func(context.Context, sandbox.Call) (sandbox.Output, error) { return out, nil })}
		return in(context.Background(), req, nil)
	}
	want := run(sandbox.Run, sandbox.Output{Decoded: decoded})
	got := run(p.Run, sandbox.Output{Decoded: decoded})
	if want.Err != nil || got.Err != nil {
		t.Fatal(want.Err, got.Err)
	}
	if got.Result != want.Result || !strings.Contains(got.Result, `"keys":"id,owner,tags","name":"x"`) {
		t.Errorf("worker: %s\nin-process: %s", got.Result, want.Result)
	}
	bad := sandbox.Output{Decoded: map[string]any{"ch": make(chan int)}}
	for mode, in := range map[string]runner{"inprocess": sandbox.Run, "worker": p.Run} {
		out := run(in, bad)
		if out.Err == nil || !strings.Contains(out.Err.Error(), "t: tool output cannot be converted") {
			t.Errorf("%s: got %v, want the call to fail naming the tool", mode, out.Err)
		}
	}
}

// The calls of one tools.parallel overlap in a worker as in-process,
// although the host performs a lone call on the goroutine that read its
// frame: each call here returns only once all three have reached the
// funnel (ORCH-4 in a worker).
func TestParallelCallsOverlap(t *testing.T) {
	p := testPool(t, nil)
	const n = 3
	var mu sync.Mutex
	arrived := 0
	all := make(chan struct{})
	req := request(`return tools.parallel(function() return tools.echo{ i = 1 } end,
		function() return tools.echo{ i = 2 } end, function() return tools.echo{ i = 3 } end)`)
	inner := req.Funnel
	req.Funnel = sandbox.FunnelFunc(func(ctx context.Context, c sandbox.Call) (sandbox.Output, error) {
		mu.Lock()
		if arrived++; arrived == n {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
			return inner.Call(ctx, c)
		case <-ctx.Done():
			return sandbox.Output{}, context.Cause(ctx)
		}
	})
	out := p.Run(context.Background(), req, &sandbox.Options{MaxNestedWait: 10 * time.Second})
	if out.Err != nil || out.Result != `[{"i":1},{"i":2},{"i":3}]` {
		t.Errorf("result %s, err %v", out.Result, out.Err)
	}
}

// A ToolSearch runs in the host, where the worker's kill does not reach:
// it gets a context that ends with the run, whether the worker's budget
// ended it (the worker gone) or the caller cancelled, so that a search
// still at work does not hold the run.
func TestSearchEndsWithTheRun(t *testing.T) {
	p := testPool(t, nil)
	for _, tc := range []struct {
		name   string
		budget time.Duration
		cancel bool
		want   error
	}{
		{"budget", 100 * time.Millisecond, false, sandbox.ErrBudgetExceeded},
		{"cancelled", time.Minute, true, sandbox.ErrCanceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ended := make(chan error, 1)
			req := request(`tools.ToolSearch{ query = "x" } return 1`)
			req.Search = func(sctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
				if tc.cancel {
					cancel()
				}
				<-sctx.Done()
				ended <- context.Cause(sctx)
				return nil, context.Cause(sctx)
			}
			done := make(chan sandbox.Outcome, 1)
			go func() { done <- p.Run(ctx, req, &sandbox.Options{Budget: tc.budget}) }()
			select {
			case out := <-done:
				if !errors.Is(out.Err, tc.want) {
					t.Errorf("err = %v, want %v", out.Err, tc.want)
				}
			case <-time.After(time.Minute): // a hang guard only
				t.Fatal("the run did not end while the host's search waited for its context")
			}
			if err := <-ended; err == nil {
				t.Error("the search's context ended without a cause")
			}
		})
	}
}
