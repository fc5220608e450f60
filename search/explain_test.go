package search

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// Explain returns Search's results in Search's order, and each result's
// explanation adds up: the sum of its matches' and signals' points,
// times its scale factors, is its score. The tie-break of each result but
// the last is the step that put it before the next.
func TestExplainAddsUp(t *testing.T) {
	t.Parallel()
	x := NewIndex(loadPool(t, "../testdata/search/eval/pool.json"))
	for _, qq := range loadQueries(t, "../testdata/search/eval/dev.json")[:80] {
		args := json.RawMessage(q(qq.Query))
		res, err := x.Search(args)
		if err != nil {
			t.Fatal(err)
		}
		e, err := x.Explain(args)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range e.Results {
			got = append(got, r.Name)
		}
		if want := names(res); !slices.Equal(got, want) || e.Total != res.Total {
			t.Errorf("%q: Explain ranks %v of %d, Search %v of %d", qq.Query, got, e.Total, want, res.Total)
			continue
		}
		for i, r := range e.Results {
			sum, scale := 0.0, 1.0
			for _, m := range r.Matches {
				sum += m.Points
			}
			for _, sp := range r.Signals {
				sum += sp.Value
			}
			for _, sp := range r.Scale {
				scale *= sp.Value
			}
			if math.Abs(sum*scale-r.Score) > 1e-9*math.Max(1, r.Score) {
				t.Errorf("%q: %s: matches and signals make %v, its score is %v\n%s", qq.Query, r.Name, sum*scale, r.Score, r)
			}
			if i < len(e.Results)-1 && r.TieBreak == "" || len(r.Matches) == 0 && r.TieBreak != tieBreakNames[byExact] && r.Score != 0 {
				t.Errorf("%q: %s: no tie-break or no matches:\n%s", qq.Query, r.Name, r)
			}
		}
	}
}

// An explanation shows the rules that fired, the keywords and what they
// reach, each result's field matches and signals with their reasons, and
// the tie-break; it renders as text and as JSON.
func TestExplainShowsWhy(t *testing.T) {
	t.Parallel()
	x := NewIndex(rulePool())
	e, err := x.Explain(json.RawMessage(q("spin up a cluster")))
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Results) == 0 || e.Results[0].Name != "mcp__k8s__create_cluster" {
		t.Fatalf("spin up a cluster: results %+v, want create_cluster first", e.Results)
	}
	top := e.Results[0]
	if !slices.ContainsFunc(e.Rules, func(f Fired) bool { return f.Rule == "phrasal" }) {
		t.Errorf("rules %v: want phrasal", e.Rules)
	}
	spin := slices.IndexFunc(e.Keywords, func(k ExplainedKeyword) bool { return k.Word == "spin" })
	if spin < 0 || !slices.ContainsFunc(e.Keywords[spin].Variants, func(v ExplainedReach) bool { return v.Stem == "creat" && v.How == "phrasal verb" }) {
		t.Errorf("keywords %+v: want spin reaching creat as a phrasal verb", e.Keywords)
	}
	if !slices.ContainsFunc(top.Matches, func(m FieldMatch) bool { return m.Keyword == "cluster" && m.Field == "name" && m.Points > 0 }) {
		t.Errorf("matches %+v: want cluster in the name", top.Matches)
	}
	if !slices.ContainsFunc(top.Signals, func(sp SignalPoints) bool { return sp.Signal == "head" && strings.Contains(sp.Reason, `"create"`) }) {
		t.Errorf("signals %+v: want head, for create", top.Signals)
	}
	if top.TieBreak != "score" {
		t.Errorf("tie-break %q, want score", top.TieBreak)
	}
	text := e.String()
	for _, want := range []string{"phrasal: \"spin up\" -> create", "1. mcp__k8s__create_cluster", "in name (cluster; field weight 3)", "head: the query's first word starts the name", "before the next by: score"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	data, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var back Explanation
	if err := json.Unmarshal(data, &back); err != nil || back.Results[0].Name != top.Name || back.Rules[0] != e.Rules[0] {
		t.Errorf("JSON round trip: %v, %s", err, data)
	}
}

// Explain validates its args as Search does, and explains select: and
// the empty query by their order alone.
func TestExplainOtherQueries(t *testing.T) {
	t.Parallel()
	x := NewIndex(rulePool())
	var ae *ArgsError
	if _, err := x.Explain(json.RawMessage(`{"query": 7}`)); !errors.As(err, &ae) {
		t.Errorf("bad args: err = %v, want an *ArgsError", err)
	}
	e, err := x.Explain(json.RawMessage(q("cluster")))
	if err != nil || len(e.Results) < 2 || e.Results[0].Class != "single keyword, tier: word of the name" {
		t.Errorf("cluster: %v\n%s", err, e)
	}
	e, err = x.Explain(json.RawMessage(q("mcp__fs__read_file")))
	if err != nil || len(e.Results) == 0 || !strings.HasPrefix(e.Results[0].Class, "named exactly") || e.Results[0].TieBreak != tieBreakNames[byExact] {
		t.Errorf("an exact name: %v\n%s", err, e)
	}
	e, err = x.Explain(json.RawMessage(q("select:mcp__fs__read_file,nope")))
	if err != nil || !e.Select || len(e.Results) != 1 || e.Results[0].Name != "mcp__fs__read_file" {
		t.Errorf("select: %+v, %v", e, err)
	}
	e, err = x.Explain(json.RawMessage(q("")))
	if err != nil || len(e.Results) != 5 || e.Total != len(rulePool()) || e.Results[0].TieBreak == "" {
		t.Errorf("empty query: %+v, %v", e, err)
	}
}

// Each signal of the scorer shows in an explanation where it applies,
// with its reason. Every signal has a case here.
func TestSignalsShow(t *testing.T) {
	t.Parallel()
	cases := []struct{ signal, query, reason string }{
		{"verb", "create a cluster", `"create"`},
		{"asks", "which clusters can I create", `"create"`},
		{"head", "create a cluster", `"create"`},
		{"surface", "create a cluster", `"cluster"`},
		{"plural", "list errors", `"errors"`},
		{"one", "get orders", `"order"`},
		{"cover", "create a cluster", "2 of 2"},
		{"phrase", "create a cluster", "side by side"},
		{"desc-surface", "create a cluster", "written as in the description"},
		{"alike", "task list", "tasklist reads its parts again, in the name"},
		{"coord", "create a cluster", "of the query's weight"},
		{"labelled", "algolia: add a record", "another server"},
		{"intent", "list clusters", "a query that reads, a tool that writes"},
		{"deprecated", "read a file as text", "says it is deprecated"},
	}
	x := NewIndex(rulePool())
	var tested []string
	for _, c := range cases {
		tested = append(tested, c.signal)
		e, err := x.Explain(json.RawMessage(q(c.query)))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(e.Results, func(r ExplainedResult) bool {
			return slices.ContainsFunc(append(r.Signals, r.Scale...), func(sp SignalPoints) bool {
				return sp.Signal == c.signal && strings.Contains(sp.Reason, c.reason)
			})
		}) {
			t.Errorf("%q: no result shows signal %s for %q:\n%s", c.query, c.signal, c.reason, e)
		}
	}
	for _, name := range signalNames {
		if !slices.Contains(tested, name) {
			t.Errorf("signal %s has no case in TestSignalsShow", name)
		}
	}
}
