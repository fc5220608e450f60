package sandbox

import (
	"context"
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
	small, large := allocs(10), allocs(10000)
	if large > small {
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
