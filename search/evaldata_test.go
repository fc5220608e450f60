package search

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/execlua/execlua/pool"
)

// The evaluation data: pools and query sets under testdata/search, read
// by the tests of every build. The quality floors and the ablation that
// measure the ranking on them are built with the eval tag only (make eval).

// fixtureTool is a pool tool as written in testdata/search/*pool.json.
type fixtureTool struct {
	Name        string          `json:"name"`
	Kind        string          `json:"kind"`
	Server      string          `json:"server"`
	ServerTool  string          `json:"serverTool"`
	Description string          `json:"description"`
	SearchHint  string          `json:"searchHint"`
	InputSchema json.RawMessage `json:"inputSchema"`
	ReadOnly    *bool           `json:"readOnly"`
	Destructive *bool           `json:"destructive"`
}

func loadPool(t testing.TB, path string) []pool.Tool {
	t.Helper()
	data, err := os.ReadFile(path)
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
			Annotations: pool.Annotations{ReadOnlyHint: f.ReadOnly, DestructiveHint: f.Destructive},
		}
		if f.Kind == "mcp" {
			tools[i].Kind = pool.MCP
		}
	}
	return tools
}

// qualityQuery is one query of a quality set and the tools that answer it
// (any of them counts), as pool names (the real-pool sets write
// server/name: realWanted). The old set names one tool as a string.
type qualityQuery struct {
	Query string
	Kind  string
	Want  []string
}

func (q *qualityQuery) UnmarshalJSON(b []byte) error {
	var raw struct {
		Query, Kind string
		Want        json.RawMessage
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	q.Query, q.Kind = raw.Query, raw.Kind
	var one string
	if json.Unmarshal(raw.Want, &one) == nil {
		q.Want = []string{realWanted(one)}
		return nil
	}
	if err := json.Unmarshal(raw.Want, &q.Want); err != nil {
		return err
	}
	for i, w := range q.Want {
		q.Want[i] = realWanted(w)
	}
	return nil
}

func loadQueries(t testing.TB, path string) []qualityQuery {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var queries []qualityQuery
	if err := json.Unmarshal(data, &queries); err != nil {
		t.Fatal(err)
	}
	return queries
}

// evalPools are the pools of the evaluation sets, in the order they were
// written; set n is searched over the first n together.
var evalPools = []string{
	"../testdata/search/eval/pool.json", "../testdata/search/eval3/pool.json", "../testdata/search/eval4/pool.json",
	"../testdata/search/eval5/pool.json", "../testdata/search/eval6/pool.json", "../testdata/search/eval7/pool.json",
	"../testdata/search/eval8/pool.json", "../testdata/search/eval9/pool.json", "../testdata/search/eval10/pool.json",
	"../testdata/search/eval11/pool.json", "../testdata/search/eval12/pool.json", "../testdata/search/eval13/pool.json",
	"../testdata/search/eval14/pool.json", "../testdata/search/eval15/pool.json", "../testdata/search/eval16/pool.json",
	"../testdata/search/eval17/pool.json", "../testdata/search/eval18/pool.json", "../testdata/search/eval19/pool.json",
	"../testdata/search/eval20/pool.json", "../testdata/search/eval21/pool.json", "../testdata/search/eval22/pool.json",
	"../testdata/search/eval23/pool.json", "../testdata/search/eval24/pool.json", "../testdata/search/eval25/pool.json",
	"../testdata/search/eval26/pool.json", "../testdata/search/eval27/pool.json",
}

// combinedPool is the first n evaluation pools together, checked for
// repeated names.
func combinedPool(t testing.TB, n int) []pool.Tool {
	t.Helper()
	return poolsOf(t, evalPools[:n]...)
}

// upTo is the first n evaluation pools.
func upTo(n int) func(testing.TB) []pool.Tool {
	return func(t testing.TB) []pool.Tool { return combinedPool(t, n) }
}

// poolsOf is the pools at paths together, checked for repeated names.
func poolsOf(t testing.TB, paths ...string) []pool.Tool {
	t.Helper()
	var combined []pool.Tool
	for _, path := range paths {
		combined = append(combined, loadPool(t, path)...)
	}
	seen := map[string]bool{}
	for _, tool := range combined {
		if seen[tool.Name] {
			t.Fatalf("the combined pool has %s twice", tool.Name)
		}
		seen[tool.Name] = true
	}
	return combined
}

// eval5Pool is the pools up to eval5's (825 tools).
func eval5Pool(t testing.TB) []pool.Tool {
	t.Helper()
	tools := combinedPool(t, 4)
	if n := len(tools); n < 800 {
		t.Fatalf("the combined pool has %d tools, want at least 800", n)
	}
	return tools
}
