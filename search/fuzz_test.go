package search

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

// FuzzSearch runs any query a model could write over the evaluation pools
// together (825 tools): the search never fails on a string query within
// the input limits (past one, only with the LimitError naming it) nor
// panics, returns at most max_results keyword matches (select: is not
// capped), each a tool of the pool and each once, counts at least the
// matches it returns, and answers the same query the same way twice.
func FuzzSearch(f *testing.F) {
	for _, seed := range []string{
		"list issues", "tweet: we are live!", "snowflake: list warehouses", "r/golang info",
		"xero P&L by month", "whatsapp mom that I'll be late", "select:mcp__github__list_issues,Read",
		"turn a city name into coordinates", "\"quoted text\" in #general", "SELECT * FROM orders WHERE id = 1",
		"on-call", "who am i", ":", "::", "r/", "a:b:c", "tear down the VM for good", "lsit isues", "ünïcödé 🚀",
		"it changed — fix it", "call +1 415-908-3801", "rocket.chat history", "cnv_y4xb93i", "don't delete, just unsubscribe",
		"basecamp: to-do lists", "-", "— —", ", ,", "+", "(415)", "due next monday", "make it live", "#rust",
		strings.Repeat("a,", MaxQueryWords+1), "select:" + strings.Repeat("Read,", MaxSelectNames),
	} {
		f.Add(seed, 0)
	}
	tools := eval5Pool(f)
	x := NewIndex(tools)
	known := map[string]bool{}
	for _, t := range tools {
		known[t.Name] = true
	}
	f.Fuzz(func(t *testing.T, query string, maxResults int) {
		req := map[string]any{"query": query}
		if maxResults != 0 {
			req["max_results"] = maxResults
		}
		args, err := json.Marshal(req)
		if err != nil {
			t.Skip() // no string JSON can carry
		}
		res, err := x.Search(args)
		var over *LimitError
		if errors.As(err, &over) {
			if over.Size <= over.Limit {
				t.Fatalf("query %q refused at %d %s under the limit of %d", query, over.Size, over.What, over.Limit)
			}
			return
		}
		if err != nil {
			t.Fatalf("query %q: %v", query, err)
		}
		again, _ := x.Search(args)
		got := names(res)
		if !slices.Equal(got, names(again)) {
			t.Fatalf("query %q: %v, then %v", query, got, names(again))
		}
		limit := DefaultResults
		if maxResults != 0 {
			limit = min(max(maxResults, 1), MaxResults)
		}
		selecting := strings.HasPrefix(strings.ToLower(strings.TrimSpace(query)), "select:")
		if !selecting && len(got) > limit {
			t.Fatalf("query %q: %d matches, want at most %d", query, len(got), limit)
		}
		if res.Total < len(got) {
			t.Fatalf("query %q: total %d under the %d matches returned", query, res.Total, len(got))
		}
		seen := map[string]bool{}
		for _, n := range got {
			if !known[n] || seen[n] {
				t.Fatalf("query %q: match %s is not a tool of the pool or comes twice: %v", query, n, got)
			}
			seen[n] = true
		}
	})
}
