package sandbox

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/execlua/execlua/internal/heapwatch"
	"github.com/execlua/execlua/internal/luafloor"
	"github.com/execlua/execlua/internal/luavm"
)

// A run allocates the same whatever the size of the pool it reaches: the
// name map and the parsed schemas belong to the Toolset, built once per
// pool, not to the run.
func TestRunCostIndependentOfPool(t *testing.T) {
	defer SetPreparedStates(DefaultPreparedStates)
	SetPreparedStates(0) // no refill goroutine in the count
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
	// template) is built before the measure; the run's own state only.
	defer SetPreparedStates(DefaultPreparedStates)
	SetPreparedStates(0)
	if out := Run(context.Background(), Request{Code: `return 1`}, nil); out.Err != nil {
		t.Fatal(out.Err)
	}
	before := heapwatch.Live()
	done := make(chan Outcome, runs)
	for range runs {
		go func() { done <- Run(context.Background(), req, nil) }()
	}
	for range runs {
		<-entered
	}
	perRun := (int64(heapwatch.Live()) - int64(before)) / runs
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

// A prepared state holds its libraries and prelude: what a host pays in
// heap for each state it keeps prepared (SetPreparedStates).
func TestPreparedStateHeap(t *testing.T) {
	const states = 50
	luavm.Prepare().Close() // what is built once per process
	before := heapwatch.Live()
	kept := make([]*luavm.State, states)
	for i := range kept {
		kept[i] = luavm.Prepare()
	}
	perState := (int64(heapwatch.Live()) - int64(before)) / states
	for _, st := range kept {
		st.Close()
	}
	t.Logf("%d bytes of live heap per prepared state", perState)
	if perState > 48<<10 {
		t.Errorf("a prepared state holds %d bytes of live heap; the bound is 48 KiB", perState)
	}
}

// Runs take prepared states, each once, and the states taken are
// prepared again in the background; with none wanted, runs prepare their
// own.
func TestPreparedStates(t *testing.T) {
	defer SetPreparedStates(DefaultPreparedStates)
	for _, want := range []int{0, 1, 3} {
		SetPreparedStates(want)
		seen := map[*luavm.State]bool{}
		for range 5 {
			prepared.waitReady()
			prepared.mu.Lock()
			ready := slices.Clone(prepared.ready)
			prepared.mu.Unlock()
			if len(ready) != want {
				t.Fatalf("want %d prepared: %d ready", want, len(ready))
			}
			for _, st := range ready {
				if seen[st] {
					t.Fatal("a state was offered to a second run")
				}
			}
			out := Run(context.Background(), Request{Code: `x = (x or 0) + 1 return x`}, nil)
			if out.Err != nil || out.Result != "1" {
				t.Fatalf("got %q, %v: a run saw another's globals", out.Result, out.Err)
			}
			if want > 0 {
				seen[ready[want-1]] = true // the one the run took
			}
		}
	}
}

// A set updated for a new pool keeps the entries (and parsed schemas) of
// the tools that did not change and prepares the others afresh; the old
// set is left as it was.
func TestToolsetUpdateReusesUnchangedTools(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"tags":{"type":"array"}}}`)
	ts := NewToolset([]Tool{{Name: "kept", InputSchema: schema}, {Name: "changed", InputSchema: schema}})
	kept, changed := ts.lookup("kept"), ts.lookup("changed")
	next := ts.Update([]Tool{
		{Name: "kept", InputSchema: []byte(string(schema))},
		{Name: "changed", InputSchema: []byte(`{"type":"object"}`)},
		{Name: "new"},
	})
	if next.lookup("kept") != kept {
		t.Error("an unchanged tool was prepared again")
	}
	if got := next.lookup("changed"); got == changed || string(got.tool.InputSchema) != `{"type":"object"}` {
		t.Error("a tool whose schema changed kept its old entry")
	}
	if next.lookup("new") == nil || ts.lookup("new") != nil {
		t.Error("the new tool is not in the updated set only")
	}
}

// With gives the set Update gives for the pool after the change: the same
// tools listed and found, the unchanged entries kept, the old set left as
// it was.
func TestToolsetWithEqualsUpdate(t *testing.T) {
	schema := []byte(`{"type":"object"}`)
	ts := NewToolset([]Tool{{Name: "a", InputSchema: schema}, {Name: "b"}, {Name: "c"}})
	kept := ts.lookup("a")
	next := ts.With([]Tool{{Name: "c", InputSchema: schema}, {Name: "d"}}, []string{"b", "c"})
	want := []Tool{{Name: "a", InputSchema: schema}, {Name: "c", InputSchema: schema}, {Name: "d"}} // by name
	if diff := cmp.Diff(want, next.Tools()); diff != "" {
		t.Errorf("Tools (-want +got):\n%s", diff)
	}
	for _, tool := range want {
		if got := next.lookup(tool.Name); got == nil || string(got.tool.InputSchema) != string(tool.InputSchema) {
			t.Errorf("%s: not found as listed", tool.Name)
		}
	}
	if next.lookup("b") != nil || next.lookup("a") != kept {
		t.Error("a tool that left is still found, or an unchanged one was prepared again")
	}
	if ts.lookup("d") != nil || ts.lookup("b") == nil || len(ts.Tools()) != 3 {
		t.Error("the old set changed")
	}
}

// A 10 MB structured result held by a script through Run takes no more
// heap when it comes as JSON than when it comes decoded: nothing keeps a
// copy of its text alive beside its tables (the decoder's kept strings
// once shared one copy of the whole document). Both are logged as a
// multiple of the JSON size.
func TestBigResultHeldThroughRun(t *testing.T) {
	held := func(decoded bool) float64 {
		var before, at uint64
		var size int
		funnel := FunnelFunc(func(ctx context.Context, c Call) (Output, error) {
			if c.Name == "measure" {
				at = heapwatch.Live()
				return Output{}, nil
			}
			raw := luafloor.BigDocument(10 << 20)
			size = len(raw)
			if !decoded {
				return Output{Structured: raw}, nil
			}
			var v any
			err := json.Unmarshal(raw, &v)
			return Output{Decoded: v}, err
		})
		req := Request{
			Code:   `local r = tools.big{} tools.measure{} return #r.items`,
			Tools:  NewToolset([]Tool{{Name: "big"}, {Name: "measure"}}),
			Funnel: funnel,
		}
		before = heapwatch.Live()
		if out := Run(context.Background(), req, nil); out.Err != nil {
			t.Fatal(out.Err)
		}
		return float64(int64(at)-int64(before)) / float64(size)
	}
	asJSON, asDecoded := held(false), held(true)
	t.Logf("a 10 MB result held: %.2fx its JSON size as JSON, %.2fx decoded", asJSON, asDecoded)
	if asJSON > asDecoded*1.04 {
		t.Errorf("held as JSON %.2fx its size, decoded %.2fx: a copy of the text is kept", asJSON, asDecoded)
	}
}
