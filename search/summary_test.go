//go:build eval

package search

import (
	"encoding/json"
	"slices"
	"testing"
)

// summarize ranks every half of hs with its own pool and tallies the
// queries overall and per kind.
func summarize(t *testing.T, hs []evalHalf) realFigures {
	f := realFigures{byKind: map[string]*tally{}}
	var pools []*ablationPool
	for _, h := range loadHalves(t, &pools, hs) {
		for _, q := range h.qs {
			args, _ := json.Marshal(map[string]any{"query": q.Query})
			res, _ := h.pool.x.Search(args)
			f.count(q.Kind, slices.IndexFunc(res.Matches, func(m Match) bool { return slices.Contains(q.Want, m.Name) }))
		}
	}
	return f
}

// TestQualitySummary logs the README's table of search quality (-v):
// the frozen halves, the development halves and the real pool's halves,
// top-1 and top-5, and per kind over the frozen halves. Each row has a
// floor a little under what the README says, so a change that makes the
// README's figure untrue fails here.
func TestQualitySummary(t *testing.T) {
	real := func(name string) realFigures {
		return summarize(t, []evalHalf{{name, realPoolTools, "../testdata/search/real/" + name + ".json"}})
	}
	rows := []struct {
		what       string
		f          realFigures
		top1, top5 float64 // floors, in %
	}{
		{"frozen halves, never tuned on", summarize(t, frozenHalves()), 83.5, 95},
		{"development halves", summarize(t, developmentHalves()), 85.5, 95.5},
		{"real pool (370 tools of 22 servers), its frozen half", real("test"), 76, 89.5},
		{"real pool, its second frozen set (written 2026-12-06)", real("test2"), 76, 92},
		{"real pool, its development half", real("dev"), 76, 91},
	}
	row := func(what string, k tally) {
		t.Logf("| %s | %d | %.1f | %.1f |", what, k.n, pct(k.top1, k.n), pct(k.top5, k.n))
	}
	t.Logf("| set | queries | top-1 | top-5 |")
	t.Logf("|---|---|---|---|")
	for _, r := range rows {
		row(r.what, r.f.all)
		if pct(r.f.all.top1, r.f.all.n) < r.top1 || pct(r.f.all.top5, r.f.all.n) < r.top5 {
			t.Errorf("%s: %v, want at least top-1 %.1f%%, top-5 %.1f%%", r.what, r.f.all, r.top1, r.top5)
		}
	}
	frozen := rows[0].f
	var kinds []string
	for kind := range frozen.byKind {
		kinds = append(kinds, kind)
	}
	slices.Sort(kinds)
	t.Logf("| kind (frozen halves) | queries | top-1 | top-5 |")
	t.Logf("|---|---|---|---|")
	for _, kind := range kinds {
		row(kind, *frozen.byKind[kind])
	}
}
