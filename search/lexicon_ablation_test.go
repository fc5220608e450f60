//go:build eval && evallexicon

package search

import (
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The lexicon's ablation (make eval-lexicon): each table, and each entry
// (a line of a table), earns its place on the frozen halves as the rules
// and signals do (ablation_test.go): without it, top-1 or top-5 summed
// over them falls. The tables are package variables bound from the
// lexicon once when the package starts (tables.go); this file binds a
// lexicon without one table or entry, indexes every pool again, ranks,
// and binds the embedded lexicon back. It is built only with the
// evallexicon tag and runs alone in its process, so nothing else reads
// the tables meanwhile.

// without is lx with the entries of table name for which drop is true
// left out; lx is unchanged.
func (lx lexicon) without(name string, drop func(lexLine) bool) lexicon {
	out := maps.Clone(lx)
	t := *lx[name]
	t.entries = slices.DeleteFunc(slices.Clone(t.entries), drop)
	out[name] = &t
	return out
}

// lexiconAblation is the halves and pools the lexicon's ablation ranks,
// and their figures with the embedded lexicon.
type lexiconAblation struct {
	pools               []*ablationPool
	frozen, dev         []ablationHalf
	baseFrozen, baseDev ablationTotals
}

func newLexiconAblation(t *testing.T) *lexiconAblation {
	la := &lexiconAblation{}
	la.frozen = loadHalves(t, &la.pools, frozenHalves())
	la.dev = loadHalves(t, &la.pools, developmentHalves())
	la.baseFrozen, la.baseDev = withOptions(t, la.frozen, nil), withOptions(t, la.dev, nil)
	t.Logf("frozen: %v; development: %v (%d pools)", la.baseFrozen, la.baseDev, len(la.pools))
	t.Logf("%-44s %-11s %s", "without", "frozen 1/5", "dev 1/5")
	return la
}

// reindex indexes every pool again under the tables bound now, the pools
// spread over the CPUs.
func (la *lexiconAblation) reindex() {
	next := make(chan *ablationPool)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for p := range next {
				p.x = NewIndex(p.tools)
			}
		})
	}
	for _, p := range la.pools {
		next <- p
	}
	close(next)
	wg.Wait()
}

// judge ranks every half with lx bound, logs what it changed and fails
// when that costs nothing on the frozen halves; the embedded lexicon is
// bound back and the pools indexed again before it returns.
func (la *lexiconAblation) judge(t *testing.T, what string, lx lexicon) {
	t.Helper()
	bindLexicon(lx)
	la.reindex()
	frozen, dev := withOptions(t, la.frozen, nil), withOptions(t, la.dev, nil)
	bindLexicon(lex)
	la.reindex()
	t.Logf("%-44s %s   %s", what, frozen.delta(la.baseFrozen), dev.delta(la.baseDev))
	if costsNothing(frozen, la.baseFrozen) {
		t.Errorf("%s costs nothing on the frozen halves: without it top-1 %d, top-5 %d (with it: %d, %d)",
			what, frozen.top1, frozen.top5, la.baseFrozen.top1, la.baseFrozen.top5)
	}
}

// Every table of the lexicon earns its place: emptied, it costs top-1 or
// top-5 on the frozen halves.
func TestLexiconTablesEarnTheirPlace(t *testing.T) {
	la := newLexiconAblation(t)
	for _, name := range slices.Sorted(maps.Keys(lex)) {
		la.judge(t, "table "+name, lex.without(name, func(lexLine) bool { return true }))
	}
}

// Every entry of the lexicon earns its place: left out, it costs top-1 or
// top-5 on the frozen halves. One entry at a time, every pool indexed
// again each time: about an hour on two cores.
func TestLexiconEntriesEarnTheirPlace(t *testing.T) {
	la := newLexiconAblation(t)
	for _, name := range slices.Sorted(maps.Keys(lex)) {
		tb := lex[name]
		for _, e := range tb.entries {
			what := fmt.Sprintf("%v %s", lexPlace{tb.at.file, e.line}, strings.Join(e.words, " "))
			la.judge(t, what, lex.without(name, func(l lexLine) bool { return l.line == e.line }))
		}
	}
}
