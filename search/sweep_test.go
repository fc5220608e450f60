package search

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"
)

func evalTally(tools *Index, queries []qualityQuery) tally {
	var all tally
	for _, q := range queries {
		args, _ := json.Marshal(map[string]any{"query": q.Query})
		res, _ := tools.Search(args)
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

func TestSweep(t *testing.T) {
	if os.Getenv("SWEEP") == "" {
		return
	}
	dev := NewIndex(loadPool(t, "../testdata/search/eval/pool.json"))
	old := NewIndex(loadPool(t, "../testdata/search/pool.json"))
	dq := loadQueries(t, "../testdata/search/eval/dev.json")
	oq := loadQueries(t, "../testdata/search/queries.json")
	base := params
	run := func(name string) {
		d, o := evalTally(dev, dq), evalTally(old, oq)
		fmt.Printf("%-28s dev %3d %3d   old %3d %3d\n", name, d.top1, d.top5, o.top1, o.top5)
	}
	run("base")
	type knob struct {
		name string
		p    *float64
		vals []float64
	}
	ks := []knob{
		{"name", &params.fields[fName], []float64{2, 2.5, 3.5, 4}},
		{"server", &params.fields[fServer], []float64{1, 1.5, 2.5, 3}},
		{"hint", &params.fields[fHint], []float64{1.5, 2.5}},
		{"desc", &params.fields[fDesc], []float64{0.5, 0.75, 1.25, 1.5}},
		{"substring", &params.substring, []float64{0, 0.6, 1.8}},
		{"synonym", &params.synonym, []float64{0, 0.4, 0.5, 0.7, 0.8}},
		{"prefix", &params.prefix, []float64{0, 0.3, 0.7}},
		{"typo", &params.typo, []float64{0, 0.4, 0.8}},
		{"value", &params.value, []float64{0, 0.1, 0.5, 1}},
		{"stop", &params.stop, []float64{0, 0.05, 0.3}},
		{"idfPower", &params.idfPower, []float64{0, 0.25, 0.75, 1}},
		{"coord", &params.coord, []float64{0, 0.25, 0.75, 1}},
		{"cover", &params.cover, []float64{0, 1, 3, 4}},
		{"surface", &params.surface, []float64{0, 0.15, 0.6}},
		{"order", &params.order, []float64{0, 0.3, 1, 1.5}},
		{"phrase", &params.phrase, []float64{0, 0.2, 0.8, 1.2}},
		{"order", &params.order, []float64{0}},
		{"implied", &params.implied, []float64{0, 0.3, 0.7, 1}},
		{"head", &params.head, []float64{0, 0.25, 1, 1.5, 2}},
		{"descSurface", &params.descSurface, []float64{0.05, 0.1, 0.2, 0.3, 0.5}},
	}
	for _, k := range ks {
		for _, v := range k.vals {
			params = base
			*k.p = v
			run(fmt.Sprintf("%s=%v", k.name, v))
		}
	}
	params = base
	params.intent = false
	run("intent=false")
	params = base
}
