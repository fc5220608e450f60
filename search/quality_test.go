package search

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/execlua/execlua/pool"
)

// fixtureTool is a pool tool as written in testdata/search/pool.json.
type fixtureTool struct {
	Name        string          `json:"name"`
	Kind        string          `json:"kind"`
	Server      string          `json:"server"`
	ServerTool  string          `json:"serverTool"`
	Description string          `json:"description"`
	SearchHint  string          `json:"searchHint"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

func loadPool(t testing.TB) []pool.Tool {
	t.Helper()
	data, err := os.ReadFile("../testdata/search/pool.json")
	if err != nil {
		t.Fatal(err)
	}
	var fs []fixtureTool
	if err := json.Unmarshal(data, &fs); err != nil {
		t.Fatal(err)
	}
	tools := make([]pool.Tool, len(fs))
	for i, f := range fs {
		tools[i] = pool.Tool{
			Name: f.Name, Description: f.Description, InputSchema: f.InputSchema,
			Server: f.Server, ServerTool: f.ServerTool, SearchHint: f.SearchHint,
		}
		if f.Kind == "mcp" {
			tools[i].Kind = pool.MCP
		}
	}
	return tools
}

// TestQuality measures how often the tool a query is after comes first
// (top-1) and within the default five results (top-5), over a pool of
// several servers' worth of tools with confusable names and queries of
// three kinds: exact names, words of the name, and everyday phrasings that
// only a searchHint or description can answer (SRCH-3, SRCH-5, SRCH-7).
func TestQuality(t *testing.T) {
	tools := loadPool(t)
	data, err := os.ReadFile("../testdata/search/queries.json")
	if err != nil {
		t.Fatal(err)
	}
	var queries []struct{ Query, Want, Kind string }
	if err := json.Unmarshal(data, &queries); err != nil {
		t.Fatal(err)
	}
	if len(tools) < 150 || len(queries) < 60 {
		t.Fatalf("need at least 150 tools and 60 queries, have %d and %d", len(tools), len(queries))
	}
	known := map[string]bool{}
	for _, t := range tools {
		known[t.Name] = true
	}
	for _, q := range queries {
		if !known[q.Want] {
			t.Fatalf("query %q wants %s, which is not in the pool", q.Query, q.Want)
		}
	}
	x := NewIndex(tools)
	type tally struct{ n, top1, top5 int }
	byKind := map[string]*tally{}
	var all tally
	for _, q := range queries {
		args, _ := json.Marshal(map[string]any{"query": q.Query})
		res, err := x.Search(args)
		if err != nil {
			t.Fatalf("%q: %v", q.Query, err)
		}
		k := byKind[q.Kind]
		if k == nil {
			k = &tally{}
			byKind[q.Kind] = k
		}
		k.n++
		all.n++
		rank := -1
		for i, m := range res.Matches {
			if m.Name == q.Want {
				rank = i
			}
		}
		switch {
		case rank == 0:
			k.top1++
			all.top1++
			fallthrough
		case rank > 0:
			k.top5++
			all.top5++
		}
		if rank != 0 {
			var got []string
			for _, m := range res.Matches {
				got = append(got, m.Name)
			}
			t.Logf("%-40q want %s at rank %d; got %v", q.Query, q.Want, rank+1, got)
		}
	}
	for kind, k := range byKind {
		t.Logf("%-11s %3d queries: top-1 %5.1f%%  top-5 %5.1f%%", kind, k.n, pct(k.top1, k.n), pct(k.top5, k.n))
	}
	top1, top5 := pct(all.top1, all.n), pct(all.top5, all.n)
	t.Logf("all         %3d queries over %d tools: top-1 %5.1f%%  top-5 %5.1f%%", all.n, len(tools), top1, top5)
	if top1 < 90 || top5 < 98 {
		t.Errorf("top-1 %.1f%% (want >= 90%%), top-5 %.1f%% (want >= 98%%)", top1, top5)
	}
}

func pct(n, of int) float64 { return 100 * float64(n) / float64(of) }
