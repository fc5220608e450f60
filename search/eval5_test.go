package search

import (
	"slices"
	"testing"

	"github.com/execlua/execlua/pool"
)

// eval5Pool is the four evaluation pools together (825 tools), checked
// for repeated names.
func eval5Pool(t testing.TB) []pool.Tool {
	t.Helper()
	var combined []pool.Tool
	for _, path := range []string{"../testdata/search/eval/pool.json", "../testdata/search/eval3/pool.json",
		"../testdata/search/eval4/pool.json", "../testdata/search/eval5/pool.json"} {
		combined = append(combined, loadPool(t, path)...)
	}
	seen := map[string]bool{}
	for _, tool := range combined {
		if seen[tool.Name] {
			t.Fatalf("the combined pool has %s twice", tool.Name)
		}
		seen[tool.Name] = true
	}
	if n := len(combined); n < 800 {
		t.Fatalf("the combined pool has %d tools, want at least 800", n)
	}
	return combined
}

// TestQualityEval5 measures ToolSearch on eval5, 19 servers in none of the
// other pools, searched together with all of them (825 tools), with
// queries written by someone who never ran the ranking (SRCH-3, SRCH-5,
// SRCH-7, and the multi-word rule): test5, frozen, committed before the
// ranking ran on it and never tuned on, of which only aggregates are
// logged; and dev5, its other half, which may be tuned on.
func TestQualityEval5(t *testing.T) {
	combined := eval5Pool(t)
	for _, path := range []string{"../testdata/search/eval5/test5.json", "../testdata/search/eval5/dev5.json"} {
		for _, q := range loadQueries(t, path) {
			if !slices.Contains(evalKinds, q.Kind) {
				t.Errorf("%s: query %q has kind %q, want one of %v", path, q.Query, q.Kind, evalKinds)
			}
		}
	}
	t.Run("test5", func(t *testing.T) {
		atLeast(t, measure(t, combined, "../testdata/search/eval5/test5.json", false), 0, 0)
	})
	t.Run("dev5", func(t *testing.T) {
		atLeast(t, measure(t, combined, "../testdata/search/eval5/dev5.json", true), 0, 0)
	})
}
