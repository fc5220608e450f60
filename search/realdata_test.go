package search

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/execlua/execlua/host/preset"
	"github.com/execlua/execlua/internal/realpool"
	"github.com/execlua/execlua/pool"
)

// The real-pool evaluation data (testdata/search/real): the tools of 22
// public MCP servers (package realpool) with the host's deferred builtins,
// and queries written over them. The figures are measured with the eval
// tag only (realeval_test.go); this file loads and checks the data.

// realKinds are the kinds of query the real-pool sets are written in.
var realKinds = []string{"keywords", "bare", "typo", "server", "task", "question", "paraphrase"}

// realPoolTools is what a real session's ToolSearch searches: every tool
// of the real pool as NewMCPTool would describe it, then the preset
// builtins a host defers (Exempt ones stay flat, out of the pool).
func realPoolTools(t testing.TB) []pool.Tool {
	t.Helper()
	var tools []pool.Tool
	for _, l := range realpool.Pool(realpool.Tools) {
		var e struct {
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
			Annotations struct {
				Title                         string
				ReadOnlyHint, DestructiveHint *bool
			} `json:"annotations"`
		}
		if err := json.Unmarshal(l.Entry, &e); err != nil {
			t.Fatalf("%s/%s: %v", l.Server, l.Name, err)
		}
		server := strings.TrimSuffix(l.Server, "-00")
		tools = append(tools, pool.Tool{
			Name: pool.MCPName(server, l.Name), Description: e.Description, InputSchema: e.InputSchema,
			Kind: pool.MCP, Server: server, ServerTool: l.Name,
			Annotations: pool.Annotations{Title: e.Annotations.Title, ReadOnlyHint: e.Annotations.ReadOnlyHint, DestructiveHint: e.Annotations.DestructiveHint},
		})
	}
	exempt := preset.Exempt()
	for _, b := range preset.Builtins() {
		if !slices.Contains(exempt, b.Name) {
			tools = append(tools, b)
		}
	}
	return tools
}

// realWanted is a wanted tool's pool name: server/name names an MCP tool,
// a bare name a builtin.
func realWanted(w string) string {
	if server, name, ok := strings.Cut(w, "/"); ok {
		return pool.MCPName(server, name)
	}
	return w
}

var realSets = []string{"../testdata/search/real/test.json", "../testdata/search/real/dev.json"}

// Every query of the real-pool sets has one of the seven kinds and wants
// only tools the real pool has; no query is in both halves.
func TestRealQueriesWantPoolTools(t *testing.T) {
	known := map[string]bool{}
	for _, tool := range realPoolTools(t) {
		known[tool.Name] = true
	}
	if len(known) != realpool.Tools+len(preset.Builtins())-len(preset.Exempt()) {
		t.Fatalf("the real pool has %d distinct tools", len(known))
	}
	seen := map[string]string{}
	for _, path := range realSets {
		for _, q := range loadQueries(t, path) {
			if !slices.Contains(realKinds, q.Kind) {
				t.Errorf("%s: %q has kind %q, want one of %v", path, q.Query, q.Kind, realKinds)
			}
			if len(q.Want) == 0 {
				t.Errorf("%s: %q wants no tool", path, q.Query)
			}
			for _, w := range q.Want {
				if !known[w] {
					t.Errorf("%s: %q wants %s, which the real pool does not have", path, q.Query, w)
				}
			}
			if other, dup := seen[q.Query]; dup {
				t.Errorf("%q is in %s and %s", q.Query, other, path)
			}
			seen[q.Query] = path
		}
	}
}
