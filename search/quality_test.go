//go:build eval

package search

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/execlua/execlua/pool"
)

// tally counts how often the wanted tool came first and within five.
type tally struct{ n, top1, top5 int }

func (k tally) String() string {
	return fmt.Sprintf("%3d queries: top-1 %5.1f%% (%d)  top-5 %5.1f%% (%d)", k.n, pct(k.top1, k.n), k.top1, pct(k.top5, k.n), k.top5)
}

func pct(n, of int) float64 { return 100 * float64(n) / float64(of) }

// measure runs every query of the set at path over tools, logs the
// figures per kind and, if misses, each miss, and returns the overall
// tally. The frozen half's misses are not shown: tuning reads only dev's.
func measure(t *testing.T, tools []pool.Tool, path string, misses bool) tally {
	t.Helper()
	queries := loadQueries(t, path)
	known := map[string]bool{}
	for _, t := range tools {
		known[t.Name] = true
	}
	x := NewIndex(tools)
	byKind := map[string]*tally{}
	var all tally
	for _, q := range queries {
		for _, w := range q.Want {
			if !known[w] {
				t.Fatalf("query %q wants %s, which is not in the pool", q.Query, w)
			}
		}
		args, _ := json.Marshal(map[string]any{"query": q.Query})
		res, err := x.Search(args)
		if err != nil {
			t.Fatalf("%q: %v", q.Query, err)
		}
		k := byKind[q.Kind]
		if k == nil {
			k = &tally{}
			byKind[q.Kind] = k
		}
		k.n++
		all.n++
		rank := slices.IndexFunc(res.Matches, func(m Match) bool { return slices.Contains(q.Want, m.Name) })
		if rank == 0 {
			k.top1++
			all.top1++
		}
		if rank >= 0 {
			k.top5++
			all.top5++
		}
		if rank != 0 && misses {
			var got []string
			for _, m := range res.Matches {
				got = append(got, m.Name)
			}
			t.Logf("%-45q want %s at rank %d; got %v", q.Query, strings.Join(q.Want, "|"), rank+1, got)
		}
	}
	kinds := make([]string, 0, len(byKind))
	for k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		t.Logf("%-9s %v", k, *byKind[k])
	}
	t.Logf("all       %v over %d tools", all, len(tools))
	return all
}

// atLeast fails the test when a set's figures fall below its floor.
func atLeast(t *testing.T, k tally, top1, top5 float64) {
	t.Helper()
	if pct(k.top1, k.n) < top1 || pct(k.top5, k.n) < top5 {
		t.Errorf("top-1 %.1f%% (want >= %.0f%%), top-5 %.1f%% (want >= %.0f%%)", pct(k.top1, k.n), top1, pct(k.top5, k.n), top5)
	}
}

// TestQuality measures how often the tool a query is after comes first
// (top-1) and within the default five results (top-5) (SRCH-3, SRCH-5,
// SRCH-7, and the multi-word rule). Six sets, reported apart:
//
//   - eval/test: the frozen half of the evaluation set, written before the
//     ranking was tuned and never tuned on;
//   - eval/test2: a second frozen set, mostly phrasings and task
//     sentences, written after the first round of tuning and before the
//     second, never tuned on either;
//   - eval/dev: the half the ranking is tuned on;
//   - old: the first, smaller set, written alongside the first ranking;
//   - eval3/test3: a third frozen set on 30 servers the ranking was never
//     tuned on, measured over both pools together, never tuned on;
//   - eval3/dev3: its other half, which may be tuned on.
//
// Run with -v to see the misses and the figures per kind. The floors are
// a little under what the ranking scores (docs/search.md), so that a change that
// costs quality fails here.
func TestQuality(t *testing.T) {
	eval := loadPool(t, "../testdata/search/eval/pool.json")
	if len(eval) < 300 {
		t.Fatalf("the evaluation pool has %d tools, want at least 300", len(eval))
	}
	t.Run("test", func(t *testing.T) {
		atLeast(t, measure(t, eval, "../testdata/search/eval/test.json", false), 91, 96)
	})
	t.Run("test2", func(t *testing.T) {
		atLeast(t, measure(t, eval, "../testdata/search/eval/test2.json", false), 80, 92)
	})
	t.Run("dev", func(t *testing.T) {
		atLeast(t, measure(t, eval, "../testdata/search/eval/dev.json", true), 95, 98)
	})
	t.Run("old", func(t *testing.T) {
		atLeast(t, measure(t, loadPool(t, "../testdata/search/pool.json"), "../testdata/search/queries.json", true), 97, 99)
	})
	// eval3: servers the ranking was never tuned on, over both pools.
	combined := combinedPool(t, 2)
	if len(combined)-len(eval) < 160 {
		t.Fatalf("the eval3 pool has %d tools, want at least 160", len(combined)-len(eval))
	}
	t.Run("test3", func(t *testing.T) {
		atLeast(t, measure(t, combined, "../testdata/search/eval3/test3.json", false), 83, 97)
	})
	t.Run("dev3", func(t *testing.T) {
		atLeast(t, measure(t, combined, "../testdata/search/eval3/dev3.json", true), 90, 97)
	})
}

// evalKinds are the kinds of query the evaluation sets are written in.
var evalKinds = []string{"exact", "bare", "words", "phrasing", "task", "typo", "server"}

// The evaluation sets use only the seven kinds, so the per-kind figures
// add up to the whole.
func TestQualityKinds(t *testing.T) {
	for _, path := range []string{
		"../testdata/search/eval/test.json", "../testdata/search/eval/test2.json", "../testdata/search/eval/dev.json",
		"../testdata/search/eval3/test3.json", "../testdata/search/eval3/dev3.json",
	} {
		for _, q := range loadQueries(t, path) {
			if !slices.Contains(evalKinds, q.Kind) {
				t.Errorf("%s: query %q has kind %q, want one of %v", path, q.Query, q.Kind, evalKinds)
			}
			if len(q.Want) == 0 {
				t.Errorf("%s: query %q wants no tool", path, q.Query)
			}
		}
	}
}

// quiet measures a set without logging, for comparisons.
func quiet(x *Index, queries []qualityQuery) tally {
	var all tally
	for _, q := range queries {
		args, _ := json.Marshal(map[string]any{"query": q.Query})
		res, _ := x.Search(args)
		all.n++
		rank := slices.IndexFunc(res.Matches, func(m Match) bool { return slices.Contains(q.Want, m.Name) })
		if rank == 0 {
			all.top1++
		}
		if rank >= 0 {
			all.top5++
		}
	}
	return all
}
