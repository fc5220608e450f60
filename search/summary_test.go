//go:build eval

package search

import (
	"encoding/json"
	"slices"
	"testing"
)

// kindTally is a tally overall and per kind of query.
type kindTally struct {
	all    tally
	byKind map[string]*tally
}

// add ranks the queries of one half and counts them.
func (k *kindTally) add(x *Index, queries []qualityQuery) {
	for _, q := range queries {
		args, _ := json.Marshal(map[string]any{"query": q.Query})
		res, _ := x.Search(args)
		rank := slices.IndexFunc(res.Matches, func(m Match) bool { return slices.Contains(q.Want, m.Name) })
		if k.byKind[q.Kind] == nil {
			k.byKind[q.Kind] = &tally{}
		}
		for _, t := range []*tally{&k.all, k.byKind[q.Kind]} {
			t.n++
			if rank == 0 {
				t.top1++
			}
			if rank >= 0 {
				t.top5++
			}
		}
	}
}

// summarize ranks every half of hs with its own pool.
func summarize(t *testing.T, hs []evalHalf) kindTally {
	k := kindTally{byKind: map[string]*tally{}}
	var pools []*ablationPool
	for _, h := range loadHalves(t, &pools, hs) {
		k.add(h.pool.x, h.qs)
	}
	return k
}

// TestQualitySummary logs the README's table of search quality (-v):
// the frozen halves, the development halves and the real pool's halves,
// top-1 and top-5, and per kind over the frozen halves. The kinds add up
// to the whole.
func TestQualitySummary(t *testing.T) {
	frozen, dev := summarize(t, frozenHalves()), summarize(t, developmentHalves())
	real := func(name string) kindTally {
		return summarize(t, []evalHalf{{name, realPoolTools, "../testdata/search/real/" + name + ".json"}})
	}
	realTest, realDev := real("test"), real("dev")
	row := func(what string, k tally) {
		t.Logf("| %s | %d | %.1f | %.1f |", what, k.n, pct(k.top1, k.n), pct(k.top5, k.n))
	}
	t.Logf("| set | queries | top-1 | top-5 |")
	t.Logf("|---|---|---|---|")
	row("frozen halves, never tuned on", frozen.all)
	row("development halves", dev.all)
	row("real pool (370 tools of 22 servers), its frozen half", realTest.all)
	row("real pool, its development half", realDev.all)
	var kinds []string
	var sum tally
	for kind, k := range frozen.byKind {
		kinds = append(kinds, kind)
		sum.n, sum.top1, sum.top5 = sum.n+k.n, sum.top1+k.top1, sum.top5+k.top5
	}
	slices.Sort(kinds)
	t.Logf("| kind (frozen halves) | queries | top-1 | top-5 |")
	t.Logf("|---|---|---|---|")
	for _, kind := range kinds {
		row(kind, *frozen.byKind[kind])
	}
	if sum != frozen.all {
		t.Errorf("the kinds add up to %+v, the frozen halves to %+v", sum, frozen.all)
	}
}
