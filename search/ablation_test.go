//go:build eval

package search

import (
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/execlua/execlua/pool"
)

// The ablation: every rule, signal and lexicon entry of the ranking earns
// its place on the frozen halves (frozenHalves, each over the pools its
// queries were written against), the halves never tuned on. Turned off,
// it must cost top-1 or top-5 summed over them; the development halves
// (developmentHalves) are shown beside, never judged on.

// ablationHalf is one evaluation half: its pool, its queries and its
// index under the defaults, built once.
type ablationHalf struct {
	name  string
	tools []pool.Tool
	qs    []qualityQuery
	x     *Index
}

// loadHalves reads each half's pool and queries and indexes the pool.
func loadHalves(t *testing.T, hs []evalHalf) []ablationHalf {
	t.Helper()
	out := make([]ablationHalf, len(hs))
	for i, h := range hs {
		tools := h.pool(t)
		out[i] = ablationHalf{h.name, tools, loadQueries(t, h.path), NewIndex(tools)}
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
		if _, err := h.x.WithOptions(opts); err != nil {
			t.Fatal(err)
		}
	}
	return rankAll(halves, func(h ablationHalf) *Index {
		x, _ := h.x.WithOptions(opts)
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

// Every rule of the analyzer (RuleNames) and every signal and switch of
// the scorer (SignalNames) earns its place: turned off by name
// (Options.Disable), it costs top-1 or top-5 summed over the frozen
// halves. A new rule or signal is covered as soon as it has a name. The
// table it logs (-v: the change in frozen and development top-1 and top-5
// with each off) is docs/search.md's.
func TestRulesAndSignalsEarnTheirPlace(t *testing.T) {
	frozen, dev := loadHalves(t, frozenHalves()), loadHalves(t, developmentHalves())
	baseFrozen, baseDev := withOptions(t, frozen, nil), withOptions(t, dev, nil)
	t.Logf("frozen: %v; development: %v", baseFrozen, baseDev)
	t.Logf("%-18s %-11s %s", "off", "frozen 1/5", "dev 1/5")
	for _, name := range slices.Concat(RuleNames(), SignalNames()) {
		opts := &Options{Disable: []string{name}}
		off := withOptions(t, frozen, opts)
		t.Logf("%-18s %s   %s", name, off.delta(baseFrozen), withOptions(t, dev, opts).delta(baseDev))
		if costsNothing(off, baseFrozen) {
			t.Errorf("%s costs nothing on the frozen halves: without it top-1 %d, top-5 %d (with it: %d, %d)",
				name, off.top1, off.top5, baseFrozen.top1, baseFrozen.top5)
		}
	}
}

// searchArgs is Search's arguments for query.
func searchArgs(query string) []byte {
	args, _ := json.Marshal(map[string]any{"query": query})
	return args
}

var _ = strings.Join
