//go:build eval

package search

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// realFigures is one ranking's tally on one set, overall and per kind.
type realFigures struct {
	all    tally
	byKind map[string]*tally
}

// count adds a query of kind whose first wanted tool came at rank (-1:
// not in the top five).
func (f *realFigures) count(kind string, rank int) {
	if f.byKind[kind] == nil {
		f.byKind[kind] = &tally{}
	}
	for _, k := range []*tally{&f.all, f.byKind[kind]} {
		k.n++
		if rank == 0 {
			k.top1++
		}
		if rank >= 0 {
			k.top5++
		}
	}
}

// realMeasure ranks every query with top (the names of the first five)
// and tallies where the first wanted tool came. With logMisses it logs
// each miss (the development half only: the frozen half's misses are
// never shown).
func realMeasure(t *testing.T, qs []qualityQuery, top func(string) []string, logMisses bool) realFigures {
	t.Helper()
	f := realFigures{byKind: map[string]*tally{}}
	for _, k := range realKinds {
		f.byKind[k] = &tally{}
	}
	for _, q := range qs {
		got := top(q.Query)
		rank := slices.IndexFunc(got, func(name string) bool { return slices.Contains(q.Want, name) })
		f.count(q.Kind, rank)
		if rank != 0 && logMisses {
			t.Logf("miss %-10s %-60q want %s at %d; got %s", q.Kind, q.Query, strings.Join(q.Want, "|"), rank+1, strings.Join(got, " "))
		}
	}
	return f
}

// TestQualityReal measures ToolSearch over the real pool (370 tools of 22
// public MCP servers and the host's deferred builtins) on the two
// real-pool halves, beside a textbook BM25 (bm25_test.go) on the same
// queries (SRCH-3, SRCH-5). real/test is frozen (written and committed
// before any ranking ran on it, never tuned on); real/test2 is frozen
// too, written on 2026-12-06 before the third real-pool round, so that
// round is measured on queries no ranking had seen; real/dev is what the
// general fixes were tuned on. The floors are a little under what the
// ranking scores, and no kind may fall below BM25 except where a set's
// shortfalls name it: test2's server kind came in a query under BM25's
// top-1 when the set was first measured (19 / 21 against 20 / 21), and
// a frozen set's misses are not looked at to mend it. The table (-v) is
// docs/search.md's.
func TestQualityReal(t *testing.T) {
	tools := realPoolTools(t)
	x := NewIndex(tools)
	ours := func(q string) []string {
		args, _ := json.Marshal(map[string]any{"query": q})
		res, err := x.Search(args)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		var names []string
		for _, m := range res.Matches {
			names = append(names, m.Name)
		}
		return names
	}
	base := newBM25(tools)
	textbook := func(q string) []string { return base.top(q, 5) }
	for _, h := range []struct {
		name       string
		path       string
		top1, top5 float64
		misses     bool
		shortfalls []string // kinds allowed under BM25, reported
	}{
		{"test", "../testdata/search/real/test.json", 76, 90, false, nil},
		{"test2", "../testdata/search/real/test2.json", 76, 92, false, []string{"server"}},
		{"dev", "../testdata/search/real/dev.json", 76, 91, true, nil},
	} {
		t.Run(h.name, func(t *testing.T) {
			qs := loadQueries(t, h.path)
			got := realMeasure(t, qs, ours, h.misses)
			bm := realMeasure(t, qs, textbook, false)
			t.Logf("%-10s %3s  %-13s  %-13s", "kind", "n", "execlua 1/5", "BM25 1/5")
			for _, k := range append(slices.Clone(realKinds), "all") {
				g, b := got.all, bm.all
				if k != "all" {
					g, b = *got.byKind[k], *bm.byKind[k]
				}
				t.Logf("%-10s %3d  %5.1f %5.1f    %5.1f %5.1f", k, g.n, pct(g.top1, g.n), pct(g.top5, g.n), pct(b.top1, b.n), pct(b.top5, b.n))
				switch {
				case g.top1 >= b.top1 && g.top5 >= b.top5:
				case slices.Contains(h.shortfalls, k):
					t.Logf("%s: execlua's top-1/top-5 %d/%d is below BM25's %d/%d (a known shortfall)", k, g.top1, g.top5, b.top1, b.top5)
				default:
					t.Errorf("%s: execlua's top-1/top-5 %d/%d is below BM25's %d/%d", k, g.top1, g.top5, b.top1, b.top5)
				}
			}
			atLeast(t, got.all, h.top1, h.top5)
		})
	}
}
