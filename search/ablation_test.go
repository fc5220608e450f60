//go:build eval

package search

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/execlua/execlua/pool"
)

// The ablation: every rule, signal and lexicon entry of the ranking earns
// its place on the frozen halves (frozenHalves, each over the pools its
// queries were written against), the halves never tuned on. Turned off,
// it must cost top-1 or top-5 summed over them; the development halves
// (developmentHalves) are shown beside, never judged on.

// ablationHalf is one evaluation half: its queries and its pool.
type ablationHalf struct {
	name string
	qs   []qualityQuery
	pool *ablationPool
}

// ablationPool is a pool and its index under the defaults; the halves
// written against one pool (test5 and dev5) share it.
type ablationPool struct {
	tools []pool.Tool
	x     *Index
}

// loadHalves reads each half's queries and pool, indexing each pool once
// (pools holds those read so far).
func loadHalves(t *testing.T, pools *[]*ablationPool, hs []evalHalf) []ablationHalf {
	t.Helper()
	out := make([]ablationHalf, len(hs))
	for i, h := range hs {
		tools := h.pool(t)
		same := func(p *ablationPool) bool {
			return slices.EqualFunc(p.tools, tools, func(a, b pool.Tool) bool { return a.Name == b.Name })
		}
		j := slices.IndexFunc(*pools, same)
		if j < 0 {
			j = len(*pools)
			*pools = append(*pools, &ablationPool{tools, NewIndex(tools)})
		}
		out[i] = ablationHalf{h.name, loadQueries(t, h.path), (*pools)[j]}
	}
	return out
}

// ablationTotals are top-1 and top-5 summed over halves, of n queries.
type ablationTotals struct{ n, top1, top5 int }

// rankAll ranks every half's queries, with index(h) as the index of half
// h, the halves spread over the CPUs (an Index serves concurrent
// searches), and sums the tallies.
func rankAll(halves []ablationHalf, index func(ablationHalf) *Index) ablationTotals {
	tallies := make([]tally, len(halves))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				tallies[i] = quiet(index(halves[i]), halves[i].qs)
			}
		})
	}
	for i := range halves {
		next <- i
	}
	close(next)
	wg.Wait()
	var sum ablationTotals
	for _, k := range tallies {
		sum.n, sum.top1, sum.top5 = sum.n+k.n, sum.top1+k.top1, sum.top5+k.top5
	}
	return sum
}

// withOptions ranks the halves with their indexes under opts.
func withOptions(t *testing.T, halves []ablationHalf, opts *Options) ablationTotals {
	t.Helper()
	for _, h := range halves {
		if _, err := h.pool.x.WithOptions(opts); err != nil {
			t.Fatal(err)
		}
	}
	return rankAll(halves, func(h ablationHalf) *Index {
		x, _ := h.pool.x.WithOptions(opts)
		return x
	})
}

// delta is what turning something off changed: top-1 and top-5.
func (a ablationTotals) delta(base ablationTotals) string {
	return fmt.Sprintf("%+4d %+4d", a.top1-base.top1, a.top5-base.top5)
}

func (a ablationTotals) String() string {
	return fmt.Sprintf("%d queries: top-1 %d (%.1f%%), top-5 %d (%.1f%%)", a.n, a.top1, pct(a.top1, a.n), a.top5, pct(a.top5, a.n))
}

// costsNothing reports whether off is no worse than base on both figures.
func costsNothing(off, base ablationTotals) bool {
	return off.top1 >= base.top1 && off.top5 >= base.top5
}

// keptAtNoCost are the names kept though they cost nothing on the frozen
// halves, each with the reason (docs/search.md).
var keptAtNoCost = map[string]string{
	"deprecated": "a general fix issue 23 asks for: a deprecated tool ranked first on the real pool; no frozen query meets a deprecated tool",
	"folds":      "not pruned yet: removing it reaches the index's postings (post.plain), left for a change of its own",
	"label":      "it cost 2 frozen top-1 before the third real-pool round and the alike signal now answers those queries too (0/0 frozen, 4/0 on the development halves), but a label naming a server is documented behaviour that TestLabelsAndMedia checks (algolia: add a record)",
}

// Every rule of the analyzer (RuleNames) and every signal and switch of
// the scorer (SignalNames) earns its place: turned off by name
// (Options.Disable), it costs top-1 or top-5 summed over the frozen
// halves, unless keptAtNoCost says why it stays. A new rule or signal is
// covered as soon as it has a name. The table it logs (-v: the change in
// frozen and development top-1 and top-5 with each off) is
// docs/search.md's.
func TestRulesAndSignalsEarnTheirPlace(t *testing.T) {
	var pools []*ablationPool
	frozen, dev := loadHalves(t, &pools, frozenHalves()), loadHalves(t, &pools, developmentHalves())
	baseFrozen, baseDev := withOptions(t, frozen, nil), withOptions(t, dev, nil)
	t.Logf("frozen: %v; development: %v", baseFrozen, baseDev)
	t.Logf("%-18s %-11s %s", "off", "frozen 1/5", "dev 1/5")
	for _, name := range slices.Concat(RuleNames(), SignalNames()) {
		opts := &Options{Disable: []string{name}}
		off := withOptions(t, frozen, opts)
		t.Logf("%-18s %s   %s", name, off.delta(baseFrozen), withOptions(t, dev, opts).delta(baseDev))
		if why, kept := keptAtNoCost[name]; kept {
			t.Logf("%-18s kept: %s", "", why)
		} else if costsNothing(off, baseFrozen) {
			t.Errorf("%s costs nothing on the frozen halves: without it top-1 %d, top-5 %d (with it: %d, %d)",
				name, off.top1, off.top5, baseFrozen.top1, baseFrozen.top5)
		}
	}
}
