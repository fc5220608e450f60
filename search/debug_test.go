package search

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestDebugQuery(t *testing.T) {
	qs := os.Getenv("SQ")
	if qs == "" {
		return
	}
	x := NewIndex(loadPool(t, "../testdata/search/eval/pool.json"))
	for _, qq := range strings.Split(qs, "|") {
		s := x.score(qq)
		var kws []string
		for _, k := range s.plan.kws {
			var vs []string
			for _, v := range k.vars {
				vs = append(vs, fmt.Sprintf("%s:%.1f", v.stem, v.q))
			}
			kws = append(kws, fmt.Sprintf("%s(w%.1f)[%s]", k.word, k.weight, strings.Join(vs, " ")))
		}
		fmt.Printf("== %s  kws=%v intent=%v\n", qq, kws, s.plan.intent)
		for _, id := range s.top(s.hits, 8) {
			fmt.Printf("   %6.2f left=%d %s\n", s.score[id], s.left[id], x.entry(id).tool.Name)
		}
	}
}
