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
		for _, id := range s.best(8) {
			fmt.Printf("   %6.2f left=%d %s\n", s.score[id], s.left[id], x.entry(id).tool.Name)
		}
	}
}

func TestDebugTool(t *testing.T) {
	qs, name := os.Getenv("SQ"), os.Getenv("ST")
	if qs == "" || name == "" {
		return
	}
	x := NewIndex(loadPool(t, "../testdata/search/eval/pool.json"))
	s := x.score(qs)
	for _, id := range s.hits {
		e := x.entry(id)
		if strings.Contains(e.tool.Name, name) {
			fmt.Printf("   %6.2f left=%d covered=%.2f %s own=%v\n", s.score[id], s.left[id], s.covered[id], e.tool.Name, e.own)
		}
	}
}
