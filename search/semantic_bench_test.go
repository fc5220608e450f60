package search

import (
	"math/rand/v2"
	"testing"

	"github.com/execlua/execlua/internal/cputime"
)

// The semantic ranking's own work for one query over 10,000 tools of 384
// dimensions: a dot product per tool and the top DefaultFusionDepth kept.
func BenchmarkSemanticRank10k(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	vec := func() []float32 {
		v := make([]float32, 384)
		for i := range v {
			v[i] = rng.Float32() - 0.5
		}
		return unit(v)
	}
	x := NewIndex(bigPool(b, 10000))
	t := &table{groups: map[*group]*groupVecs{}}
	for _, g := range x.groups {
		gv := &groupVecs{vecs: make([][]float32, len(g.ids))}
		for i := range gv.vecs {
			gv.vecs[i] = vec()
		}
		t.groups[g] = gv
	}
	qv := vec()
	lex := lexicalList{hit: make([]bool, x.next), depth: DefaultFusionDepth}
	defer cputime.PerOp(b)()
	for b.Loop() {
		rank(x, t, qv, lex, 0)
	}
}
