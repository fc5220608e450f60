package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	glua "github.com/yuin/gopher-lua"

	"github.com/execlua/execlua/internal/luafloor"
	"github.com/execlua/execlua/internal/realpool"
)

// BenchmarkFloors puts execlua beside the floors it is measured against
// and reports each execlua figure as a ratio to its floor ("x-..." units:
// execlua's time over the floor's, or for "x-faster" the gain in
// throughput). The machine is shared and noisy, so each ratio is measured
// in alternating chunks of the same sub-benchmark: the floor's chunks are
// left out of ns/op, B/op and allocs/op, which are execlua's own. Run it
// with `make bench`.
//
// The cold run is measured both from a fresh state and from one prepared
// ahead (SetPreparedStates); the other rows use fresh states.
//
// The floors: a bare gopher-lua coroutine yielding from a Go function, a
// fresh table each way; a bare gopher-lua state opened with the same
// libraries; a Node worker's postMessage round trip of the same payloads
// (when node is on the PATH); encoding/json decoding plus building the
// Lua table.
func BenchmarkFloors(b *testing.B) {
	result2K, err := os.ReadFile(filepath.Join("..", "testdata", "bench", "result_2k.json"))
	if err != nil {
		b.Fatal(err)
	}
	node := startNode(b)
	nodeSmall, node2K := node.roundTrips("-"), node.roundTrips(filepath.Join("..", "testdata", "bench", "result_2k.json"))
	// A floor that cannot run here (no node) is left out of the ratios.
	withNode := func(unit string, o op, rest ...floor) []floor {
		if node == nil {
			return rest
		}
		return append([]floor{{unit: unit, op: o}}, rest...)
	}

	bareYield := timed(benchBareYield)
	b.Run("call-small/bare-yield", solo(bareYield))
	b.Run("call-small/node", solo(nodeSmall))
	b.Run("call-small/execlua", compare(timed(nestedCalls(echoArgs)), withNode("x-node", nodeSmall,
		floor{unit: "x-bare-yield", op: bareYield})...))
	// An empty table each way, the cheap case: no field to encode or decode.
	b.Run("call-empty/execlua", compare(timed(nestedCallsOf(`{}`, echoArgs)), floor{unit: "x-bare-yield", op: bareYield}))

	jsonTable := timed(benchJSONTable(result2K))
	b.Run("call-2KB/node", solo(node2K))
	b.Run("call-2KB/json+table", solo(jsonTable))
	b.Run("call-2KB/execlua", compare(timed(nestedCalls(answer(Output{Structured: result2K}))), withNode("x-node", node2K,
		floor{unit: "x-json+table", op: jsonTable})...))
	var decoded any
	if err := json.Unmarshal(result2K, &decoded); err != nil {
		b.Fatal(err)
	}
	b.Run("call-2KB/execlua-decoded", compare(timed(nestedCalls(answer(Output{Decoded: decoded}))), withNode("x-node", node2K,
		floor{unit: "x-json+table", op: jsonTable})...))

	// The cold run from a fresh state, then from a prepared one with the
	// prepared states warm (refilling them is left out of the time).
	SetPreparedStates(0)
	defer SetPreparedStates(DefaultPreparedStates)
	bare, cold := timed(repeat(bareCold)), timed(repeat(coldRun(100)))
	b.Run("cold/bare", solo(bare))
	b.Run("cold/execlua", compare(cold, floor{unit: "x-bare", op: bare}))
	b.Run("cold/prepared", compare(preparedRuns(coldRun(100)), floor{unit: "x-bare", op: bare}))

	b.Run("pool/10000", compare(timed(repeat(coldRun(10000))), floor{unit: "x-100", op: cold}))
	b.Run("pool/10000-real", compare(timed(repeat(realColdRun(b, 10000))), floor{unit: "x-100", op: cold}))

	// Two goroutines against one, on 2 cores: the gain in throughput, to
	// compare between bare gopher-lua and execlua.
	b.Run("scale/bare", compare(timed(inParallel(2, bareCold)), floor{unit: "x-faster", op: bare, faster: true}))
	b.Run("scale/execlua", compare(timed(inParallel(2, coldRun(100))), floor{unit: "x-faster", op: cold, faster: true}))
}

// op performs n operations and says how long they took.
type op func(n int) (time.Duration, error)

func timed(f func(n int) error) op {
	return func(n int) (time.Duration, error) {
		start := time.Now()
		err := f(n)
		return time.Since(start), err
	}
}

// floor is what a sub-benchmark is compared with, reported under unit.
type floor struct {
	unit   string
	op     op
	faster bool // report floor/subject: a gain
}

// solo measures a floor on its own, for its absolute figure.
func solo(o op) func(*testing.B) {
	return func(b *testing.B) {
		if o == nil {
			b.Skip("node is not on the PATH: no Node worker floor in this run")
		}
		d, err := o(b.N)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "ns/op")
	}
}

// compare measures subject and its floors in alternating chunks, so that
// the machine's load drifts over all of them alike.
func compare(subject op, floors ...floor) func(*testing.B) {
	const chunks = 32
	return func(b *testing.B) {
		var mine time.Duration
		theirs := make([]time.Duration, len(floors))
		for c := range min(chunks, b.N) {
			n := b.N / min(chunks, b.N)
			if c == 0 {
				n += b.N % min(chunks, b.N)
			}
			b.StopTimer()
			for i, f := range floors {
				d, err := f.op(n)
				if err != nil {
					b.Fatal(err)
				}
				theirs[i] += d
			}
			b.StartTimer()
			d, err := subject(n)
			if err != nil {
				b.Fatal(err)
			}
			mine += d
		}
		for i, f := range floors {
			if f.faster {
				b.ReportMetric(float64(theirs[i])/float64(mine), f.unit)
			} else {
				b.ReportMetric(float64(mine)/float64(theirs[i]), f.unit)
			}
		}
	}
}

// nodeWorker is a node process running testdata/bench/worker_roundtrip.js.
type nodeWorker struct {
	stdin io.Writer
	lines *bufio.Scanner
}

// startNode starts the Node worker for the whole benchmark, or returns nil
// when node is not on the PATH.
func startNode(b *testing.B) *nodeWorker {
	bin, err := exec.LookPath("node")
	if err != nil {
		return nil
	}
	cmd := exec.Command(bin, filepath.Join("..", "testdata", "bench", "worker_roundtrip.js"))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		stdin.Close()
		cmd.Wait()
	})
	return &nodeWorker{stdin: stdin, lines: bufio.NewScanner(stdout)}
}

// roundTrips is n round trips of payload ("-": the small arguments echoed;
// else a JSON file sent back as the result), timed by node itself so that
// the pipes are left out. The first use warms node's JIT up, as a
// long-lived host would have it.
func (w *nodeWorker) roundTrips(payload string) op {
	if w == nil {
		return nil
	}
	warm := false
	run := func(n int) (time.Duration, error) {
		fmt.Fprintf(w.stdin, "%s %d\n", payload, n)
		if !w.lines.Scan() {
			return 0, fmt.Errorf("node answered nothing: %v", w.lines.Err())
		}
		ns, err := strconv.ParseInt(strings.TrimSpace(w.lines.Text()), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("node answered %q", w.lines.Text())
		}
		return time.Duration(ns), nil
	}
	return func(n int) (time.Duration, error) {
		if !warm {
			warm = true
			if _, err := run(2000); err != nil {
				return 0, err
			}
		}
		return run(n)
	}
}

// echoArgs answers a call with its own arguments as structured content.
var echoArgs = FunnelFunc(func(_ context.Context, c Call) (Output, error) {
	return Output{Structured: c.Args}, nil
})

func answer(out Output) Funnel {
	return FunnelFunc(func(context.Context, Call) (Output, error) { return out, nil })
}

// nestedCalls makes n nested calls in one run, so that the run's own cost
// is spread thin: each operation is one call.
func nestedCalls(funnel Funnel) func(n int) error { return nestedCallsOf(`{ i = i }`, funnel) }

// nestedCallsOf is nestedCalls with args as each call's argument table.
func nestedCallsOf(args string, funnel Funnel) func(n int) error {
	tools := NewToolset([]Tool{{Name: "x"}})
	return func(n int) error {
		req := Request{Code: fmt.Sprintf(`for i = 1, %d do tools.x%s end`, n, args), Tools: tools, Funnel: funnel}
		return Run(context.Background(), req, &Options{MaxCalls: n}).Err
	}
}

// benchBareYield is the floor of a nested call: a Lua loop calls a Go
// function with a fresh table, the Go function yields it to the resumer,
// which reads it and resumes with a fresh table.
func benchBareYield(n int) error {
	L := glua.NewState()
	defer L.Close()
	call := L.NewFunction(func(L *glua.LState) int { return L.Yield(L.Get(1)) })
	script, err := L.LoadString(`local call = ... local i = 0 while true do i = i + 1 call{ i = i } end`)
	if err != nil {
		return err
	}
	co, _ := L.NewThread()
	state, err, values := L.Resume(co, script, call)
	for range n {
		if state != glua.ResumeYield || err != nil {
			return fmt.Errorf("the loop ended: %v", err)
		}
		fresh := L.CreateTable(0, 1)
		fresh.RawSetString("i", values[0].(*glua.LTable).RawGetString("i"))
		state, err, values = L.Resume(co, nil, fresh)
	}
	return nil
}

// benchJSONTable is what a host pays without execlua's own decoder:
// encoding/json into Go values, then a Lua table built from them.
func benchJSONTable(raw []byte) func(n int) error {
	return func(n int) error {
		L := glua.NewState()
		defer L.Close()
		for range n {
			var v any
			if err := json.Unmarshal(raw, &v); err != nil {
				return err
			}
			L.Push(luafloor.Table(L, v))
			L.Pop(1)
		}
		return nil
	}
}

// bareCold is the floor of a cold run: a gopher-lua state opened with the
// libraries a script gets, compiling and running `return 1`.
func bareCold() error {
	L := glua.NewState(glua.Options{SkipOpenLibs: true})
	defer L.Close()
	for _, lib := range []struct {
		name string
		open glua.LGFunction
	}{
		{glua.BaseLibName, glua.OpenBase},
		{glua.StringLibName, glua.OpenString},
		{glua.TabLibName, glua.OpenTable},
		{glua.MathLibName, glua.OpenMath},
		{glua.CoroutineLibName, glua.OpenCoroutine},
	} {
		L.Push(L.NewFunction(lib.open))
		L.Push(glua.LString(lib.name))
		L.Call(1, 0)
	}
	return L.DoString(`return 1`)
}

// coldRun is a whole run of `return 1` reaching a pool of n tools.
func coldRun(n int) func() error {
	tools := make([]Tool, n)
	for i := range tools {
		tools[i] = Tool{Name: fmt.Sprintf("mcp__server%02d__tool_%d", i%20, i), InputSchema: json.RawMessage(`{"type":"object"}`)}
	}
	req := Request{Code: `return 1`, Tools: NewToolset(tools)}
	return func() error { return Run(context.Background(), req, nil).Err }
}

// realColdRun is coldRun over a pool of n real tools, with their names and
// input schemas (package realpool).
func realColdRun(b *testing.B, n int) func() error {
	var tools []Tool
	for _, l := range realpool.Pool(n) {
		var entry struct{ InputSchema json.RawMessage }
		if err := json.Unmarshal(l.Entry, &entry); err != nil {
			b.Fatal(err)
		}
		tools = append(tools, Tool{Name: "mcp__" + l.Server + "__" + l.Name, InputSchema: entry.InputSchema})
	}
	req := Request{Code: `return 1`, Tools: NewToolset(tools)}
	return func() error { return Run(context.Background(), req, nil).Err }
}

// preparedRuns times n runs each from a prepared state, waiting with the
// clock stopped until the states taken are prepared again.
func preparedRuns(run func() error) op {
	return func(n int) (time.Duration, error) {
		SetPreparedStates(DefaultPreparedStates)
		defer SetPreparedStates(0)
		var d time.Duration
		for range n {
			prepared.waitReady()
			start := time.Now()
			err := run()
			d += time.Since(start)
			if err != nil {
				return d, err
			}
		}
		return d, nil
	}
}

// repeat runs op n times.
func repeat(op func() error) func(n int) error {
	return func(n int) error {
		for range n {
			if err := op(); err != nil {
				return err
			}
		}
		return nil
	}
}

// inParallel runs op n times over g goroutines.
func inParallel(g int, op func() error) func(n int) error {
	return func(n int) error {
		errs := make(chan error, g)
		var wg sync.WaitGroup
		for i := range g {
			share := n / g
			if i < n%g {
				share++
			}
			wg.Go(func() { errs <- repeat(op)(share) })
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				return err
			}
		}
		return nil
	}
}
