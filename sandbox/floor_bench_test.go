package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	glua "github.com/yuin/gopher-lua"
)

// BenchmarkFloors puts execlua beside the floors it is measured against,
// in one run, and reports each execlua figure as a ratio to its floor
// ("x-..." units). The machine is shared and noisy; the ratios, measured
// side by side, are what reproduces. Run it with `make bench`.
//
// The floors: a bare gopher-lua coroutine yielding from a Go function, a
// fresh table each way; a bare gopher-lua state opened with the same
// libraries; a Node worker's postMessage round trip of the same payloads
// (when node is on the PATH); encoding/json decoding plus building the
// Lua table.
func BenchmarkFloors(b *testing.B) {
	f := floors{}
	result2K, err := os.ReadFile(filepath.Join("..", "testdata", "bench", "result_2k.json"))
	if err != nil {
		b.Fatal(err)
	}

	b.Run("call-small/bare-yield", f.measure(benchBareYield))
	b.Run("call-small/node", f.node("-"))
	b.Run("call-small/execlua", f.measure(benchNestedCall(echoArgs), "x-bare-yield", "call-small/bare-yield", "x-node", "call-small/node"))

	b.Run("call-2KB/node", f.node(filepath.Join("..", "testdata", "bench", "result_2k.json")))
	b.Run("call-2KB/json+table", f.measure(benchJSONTable(result2K)))
	b.Run("call-2KB/execlua", f.measure(benchNestedCall(answer(Output{Structured: result2K})),
		"x-node", "call-2KB/node", "x-json+table", "call-2KB/json+table"))

	b.Run("cold/bare", f.measure(inParallel(1, bareCold)))
	b.Run("cold/execlua", f.measure(inParallel(1, coldRun(100)), "x-bare", "cold/bare"))

	b.Run("pool/100", f.measure(inParallel(1, coldRun(100))))
	b.Run("pool/10000", f.measure(inParallel(1, coldRun(10000)), "x-100", "pool/100"))

	// Two goroutines against one, on 2 cores: "x-faster" is the gain in
	// throughput, to compare between bare gopher-lua and execlua.
	b.Run("scale/bare-1", f.measure(inParallel(1, bareCold)))
	b.Run("scale/bare-2", f.measure(inParallel(2, bareCold), "x-faster", "scale/bare-1"))
	b.Run("scale/execlua-1", f.measure(inParallel(1, coldRun(100))))
	b.Run("scale/execlua-2", f.measure(inParallel(2, coldRun(100)), "x-faster", "scale/execlua-1"))
}

// floors keeps each sub-benchmark's ns/op (its last, longest run) so that
// later ones can report ratios to it.
type floors map[string]float64

// measure runs bench and records its ns/op; each pair of ratios names a
// unit and a floor: the unit reports floor/this for "x-faster", this/floor
// otherwise.
func (f floors) measure(bench func(*testing.B), ratios ...string) func(*testing.B) {
	return func(b *testing.B) {
		bench(b)
		ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
		f[strings.TrimPrefix(b.Name(), "BenchmarkFloors/")] = ns
		for i := 0; i+1 < len(ratios); i += 2 {
			floor, ok := f[ratios[i+1]]
			if !ok {
				continue // the floor was filtered out or skipped
			}
			if ratios[i] == "x-faster" {
				b.ReportMetric(floor/ns, ratios[i])
			} else {
				b.ReportMetric(ns/floor, ratios[i])
			}
		}
	}
}

// node measures a Node worker round trip of payload ("-": the small
// arguments echoed; else a JSON file sent back as the result), timed by
// node itself so that process start and pipes are left out.
func (f floors) node(payload string) func(*testing.B) {
	return func(b *testing.B) {
		bin, err := exec.LookPath("node")
		if err != nil {
			b.Skip("node is not on the PATH: no Node worker floor in this run")
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
		defer func() {
			stdin.Close()
			cmd.Wait()
		}()
		lines := bufio.NewScanner(stdout)
		roundTrips := func(n int) float64 {
			fmt.Fprintf(stdin, "%s %d\n", payload, n)
			if !lines.Scan() {
				b.Fatalf("node answered nothing: %v", lines.Err())
			}
			ns, err := strconv.ParseFloat(strings.TrimSpace(lines.Text()), 64)
			if err != nil {
				b.Fatalf("node answered %q", lines.Text())
			}
			return ns
		}
		roundTrips(1000) // warm the JIT up, as a long-lived host would be
		b.ResetTimer()
		perOp := roundTrips(b.N) / float64(b.N)
		b.ReportMetric(perOp, "ns/op")
		name := strings.TrimPrefix(b.Name(), "BenchmarkFloors/")
		f[name] = perOp
	}
}

// echoArgs answers a call with its own arguments as structured content.
var echoArgs = FunnelFunc(func(_ context.Context, c Call) (Output, error) {
	return Output{Structured: c.Args}, nil
})

func answer(out Output) Funnel {
	return FunnelFunc(func(context.Context, Call) (Output, error) { return out, nil })
}

// benchNestedCall makes b.N nested calls in one run, so that the run's
// own cost is spread thin: ns/op is one call.
func benchNestedCall(funnel Funnel) func(*testing.B) {
	return func(b *testing.B) {
		req := Request{
			Code:   fmt.Sprintf(`for i = 1, %d do tools.x{ i = i } end`, b.N),
			Tools:  NewToolset([]Tool{{Name: "x"}}),
			Funnel: funnel,
		}
		b.ResetTimer()
		if out := Run(context.Background(), req, &Options{MaxCalls: b.N}); out.Err != nil {
			b.Fatal(out.Err)
		}
	}
}

// benchBareYield is the floor of a nested call: a Lua loop calls a Go
// function with a fresh table, the Go function yields it to the resumer,
// which reads it and resumes with a fresh table.
func benchBareYield(b *testing.B) {
	L := glua.NewState()
	defer L.Close()
	call := L.NewFunction(func(L *glua.LState) int { return L.Yield(L.Get(1)) })
	script, err := L.LoadString(`local call = ... local i = 0 while true do i = i + 1 call{ i = i } end`)
	if err != nil {
		b.Fatal(err)
	}
	co, _ := L.NewThread()
	state, err, values := L.Resume(co, script, call)
	b.ResetTimer()
	for range b.N {
		if state != glua.ResumeYield || err != nil {
			b.Fatal(state, err)
		}
		fresh := L.CreateTable(0, 1)
		fresh.RawSetString("i", values[0].(*glua.LTable).RawGetString("i"))
		state, err, values = L.Resume(co, nil, fresh)
	}
}

// benchJSONTable is what a host pays without execlua's own decoder:
// encoding/json into Go values, then a Lua table built from them.
func benchJSONTable(raw []byte) func(*testing.B) {
	return func(b *testing.B) {
		L := glua.NewState()
		defer L.Close()
		for range b.N {
			var v any
			if err := json.Unmarshal(raw, &v); err != nil {
				b.Fatal(err)
			}
			L.Push(goToLua(L, v))
			L.Pop(1)
		}
	}
}

func goToLua(L *glua.LState, v any) glua.LValue {
	switch v := v.(type) {
	case map[string]any:
		t := L.CreateTable(0, len(v))
		for k, e := range v {
			t.RawSetString(k, goToLua(L, e))
		}
		return t
	case []any:
		t := L.CreateTable(len(v), 0)
		for i, e := range v {
			t.RawSetInt(i+1, goToLua(L, e))
		}
		return t
	case string:
		return glua.LString(v)
	case float64:
		return glua.LNumber(v)
	case bool:
		return glua.LBool(v)
	}
	return glua.LNil
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

// inParallel runs op b.N times over g goroutines: ns/op is then the
// inverse of throughput.
func inParallel(g int, op func() error) func(*testing.B) {
	return func(b *testing.B) {
		errs := make(chan error, g)
		var wg sync.WaitGroup
		for i := range g {
			share := b.N / g
			if i < b.N%g {
				share++
			}
			wg.Go(func() {
				for range share {
					if err := op(); err != nil {
						errs <- err
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		if err := <-errs; err != nil {
			b.Fatal(err)
		}
	}
}
