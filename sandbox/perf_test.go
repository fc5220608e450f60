package sandbox

import (
	"context"
	"runtime"
	"testing"
)

// A run allocates the same whatever the size of the pool it reaches: the
// name map and the parsed schemas belong to the Toolset, built once per
// pool, not to the run.
func TestRunCostIndependentOfPool(t *testing.T) {
	allocs := func(n int) float64 {
		run := coldRun(n)
		return testing.AllocsPerRun(20, func() {
			if err := run(); err != nil {
				t.Fatal(err)
			}
		})
	}
	// A margin for what other goroutines of the test binary allocate
	// meanwhile (the count is process-wide); a map of 10,000 names built
	// per run would cost more than 30 allocations.
	small, large := allocs(10), allocs(10000)
	if large > small+10 {
		t.Errorf("a run with 10,000 pool tools allocates %v times, with 10 tools %v", large, small)
	}
}

// The schema of a tool is parsed once per Toolset and shared by its runs.
func TestToolsetParsesSchemaOnce(t *testing.T) {
	ts := NewToolset([]Tool{{Name: "t", InputSchema: []byte(`{"type":"object","properties":{"tags":{"type":"array"}}}`)}})
	first := ts.lookup("t").schema()
	if first == nil {
		t.Fatal("the schema did not parse")
	}
	if again := ts.lookup("t").schema(); again != first {
		t.Error("the schema was parsed again")
	}
	f := newFunnel(map[string]toolFunc{"t": echo})
	for i := range 2 {
		if out := Run(context.Background(), Request{Code: `tools.t{ tags = {} }`, Tools: ts, Funnel: f}, nil); out.Err != nil {
			t.Fatal(out.Err)
		}
		if got := string(f.calls[i].Args); got != `{"tags":[]}` {
			t.Errorf("run %d sent %s; want the empty table as an array", i+1, got)
		}
	}
}

// A run blocked in a nested call holds at most 64 KiB of live heap: its
// Lua state, prelude and script, waiting for the host.
func TestBlockedRunHeap(t *testing.T) {
	const runs = 50
	release := make(chan struct{})
	entered := make(chan struct{}, runs)
	funnel := FunnelFunc(func(ctx context.Context, c Call) (Output, error) {
		entered <- struct{}{}
		<-release
		return Output{Structured: []byte(`{"ok":true}`)}, nil
	})
	req := Request{
		Code:   `local r = tools.t{ q = "x" } return r.ok`,
		Tools:  NewToolset([]Tool{{Name: "t", InputSchema: []byte(`{"type":"object"}`)}}),
		Funnel: funnel,
	}
	// What is built once per process (the prelude, the library
	// template) is built before the measure.
	if out := Run(context.Background(), Request{Code: `return 1`}, nil); out.Err != nil {
		t.Fatal(out.Err)
	}
	before := liveHeap()
	done := make(chan Outcome, runs)
	for range runs {
		go func() { done <- Run(context.Background(), req, nil) }()
	}
	for range runs {
		<-entered
	}
	perRun := (int64(liveHeap()) - int64(before)) / runs
	close(release)
	for range runs {
		if out := <-done; out.Err != nil || out.Result != "true" {
			t.Fatalf("got %q, %v", out.Result, out.Err)
		}
	}
	t.Logf("%d bytes of live heap per blocked run", perRun)

	if perRun > 64<<10 {
		t.Errorf("a blocked run holds %d bytes of live heap; the bound is 64 KiB", perRun)
	}
}

// liveHeap is the heap in use after full collections: two, since what a
// sync.Pool drops survives the first in its victim cache.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
