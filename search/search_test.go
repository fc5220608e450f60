package search

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/execlua/execlua/internal/cputime"
	"github.com/execlua/execlua/internal/realpool"
	"github.com/execlua/execlua/pool"
	"github.com/execlua/execlua/render"
)

func mcpTool(server, tool, desc string) pool.Tool {
	return pool.Tool{Name: "mcp__" + server + "__" + tool, Description: desc, Kind: pool.MCP, Server: server, ServerTool: tool}
}

func builtinTool(name, desc string) pool.Tool {
	return pool.Tool{Name: name, Description: desc}
}

// doSearch searches tools with args, failing the test on an error.
func doSearch(t *testing.T, tools []pool.Tool, args string) Result {
	t.Helper()
	res, err := Search(tools, json.RawMessage(args))
	if err != nil {
		t.Fatalf("Search(%s): %v", args, err)
	}
	return res
}

func names(r Result) []string {
	out := []string{}
	for _, m := range r.Matches {
		out = append(out, m.Name)
	}
	return out
}

func q(query string) string {
	b, _ := json.Marshal(map[string]string{"query": query})
	return string(b)
}

// SRCH-3: a tool's exact name, in any case or copied with its call form,
// puts that tool first, ahead of MCP tools that match it as a word.
func TestExactNameFirst(t *testing.T) {
	wantFirst(t, exactPool(), map[string]string{
		"mcp__srv__fetch":          "mcp__srv__fetch",
		"MCP__SRV__FETCH":          "mcp__srv__fetch",
		"tools.mcp__srv__fetch":    "mcp__srv__fetch",
		`tools["mcp__srv__fetch"]`: "mcp__srv__fetch",
		"read":                     "Read",
		"mcp__srv__get-item":       "mcp__srv__get-item",
		"mcp__srv__get_item":       "mcp__srv__get_item",
	})
}

// exactPool has tools named alike: whole names, names within names,
// names in descriptions, MCP and builtin.
func exactPool() []pool.Tool {
	return []pool.Tool{
		mcpTool("srv", "fetch_all", "Fetch everything; like mcp__srv__fetch but for all records."),
		mcpTool("srv", "prefetch", "Warm the cache."),
		mcpTool("other", "fetch", "Fetch from the other server."),
		mcpTool("srv", "fetch", "Fetch one record."),
		mcpTool("fs", "read", "Read a file."),
		mcpTool("srv", "get_item", "Get an item."),
		mcpTool("srv", "get-item", "Get an item, hyphenated."),
		builtinTool("Read", "Read a file from disk."),
	}
}

// wantFirst checks, for each query, which tool comes first.
func wantFirst(t *testing.T, tools []pool.Tool, cases map[string]string) {
	t.Helper()
	wantFirstBy(t, func(args string) Result { return doSearch(t, tools, args) }, cases)
}

// wantFirstBy is wantFirst with search's ranking.
func wantFirstBy(t *testing.T, search func(args string) Result, cases map[string]string) {
	t.Helper()
	for query, want := range cases {
		got := names(search(q(query)))
		if len(got) == 0 || got[0] != want {
			t.Errorf("query %q: got %v, want %s first", query, got, want)
		}
	}
}

// searchWithout returns a search of tools with the rule or signal named
// off turned off.
func searchWithout(t *testing.T, tools []pool.Tool, off string) func(args string) Result {
	t.Helper()
	x, err := NewIndexWith(tools, &Options{Disable: []string{off}})
	if err != nil {
		t.Fatal(err)
	}
	return func(args string) Result {
		t.Helper()
		res, err := x.Search(json.RawMessage(args))
		if err != nil {
			t.Fatalf("Search(%s): %v", args, err)
		}
		return res
	}
}

// ruleMatters checks that turning a rule off loses the query's first tool,
// so that a test of the rule tests it.
func ruleMatters(t *testing.T, tools []pool.Tool, query, want, off string) {
	t.Helper()
	if got := names(searchWithout(t, tools, off)(q(query))); len(got) > 0 && got[0] == want {
		t.Errorf("with the rule off, %q still found %s first: the test does not test the rule", query, want)
	}
}

// SRCH-4: select: returns exactly the named tools, in the caller's order,
// case-insensitively, without repeats or unknown names, and max_results
// does not cap it.
func TestSelect(t *testing.T) {
	tools := []pool.Tool{
		builtinTool("Read", ""), builtinTool("EnterWorktree", ""),
		mcpTool("srv", "tool", ""), mcpTool("srv", "other", ""),
	}
	res := doSearch(t, tools, `{"query":"select:mcp__srv__tool, read,EnterWorktree,READ,nope,,mcp__SRV__TOOL","max_results":1}`)
	want := Result{Total: 3, Matches: []Match{{Name: "mcp__srv__tool"}, {Name: "Read"}, {Name: "EnterWorktree"}}}
	if diff := cmp.Diff(want, res, cmpNamesOnly); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if res := doSearch(t, tools, q("SELECT:nope")); len(res.Matches) != 0 || res.Total != 0 {
		t.Errorf("select of unknown names: %+v, want nothing", res)
	}
}

// cmpNamesOnly compares matches by name: signatures have their own tests.
var cmpNamesOnly = cmp.Transformer("names", func(m Match) string { return m.Name })

// SRCH-5: exact name > word of the name > substring of the name >
// searchHint > description; MCP above builtin within a tier; ties by name;
// the same order whatever order the pool is in.
func TestTierOrder(t *testing.T) {
	tools := tierPool()
	want := []string{
		"widget",                                // exact name
		"mcp__s__widget_y", "mcp__t__widgets_x", // word of the name, MCP, by name
		"WidgetMaker",                         // word of the name, builtin
		"mcp__s__superwidgetry", "Megawidget", // substring: MCP, then builtin
		"mcp__s__one", // searchHint
		"mcp__s__two", // description
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		rng.Shuffle(len(tools), func(i, j int) { tools[i], tools[j] = tools[j], tools[i] })
		res := doSearch(t, tools, `{"query":"widget","max_results":50}`)
		if diff := cmp.Diff(want, names(res)); diff != "" {
			t.Fatalf("(-want +got):\n%s", diff)
		}
		if res.Total != len(want) {
			t.Errorf("total = %d, want %d", res.Total, len(want))
		}
	}
}

// tierPool has a tool of each of SRCH-5's tiers for "widget", and one
// that does not match it.
func tierPool() []pool.Tool {
	return []pool.Tool{
		mcpTool("s", "zzz", "Unrelated."),
		mcpTool("s", "two", "Works on the widget."),
		{Name: "mcp__s__one", Description: "Unrelated.", SearchHint: "widget things", Kind: pool.MCP, Server: "s", ServerTool: "one"},
		mcpTool("t", "widgets_x", "Unrelated."),
		builtinTool("WidgetMaker", "Unrelated."),
		mcpTool("s", "superwidgetry", "Unrelated."),
		mcpTool("s", "widget_y", "Unrelated."),
		builtinTool("widget", "Unrelated."),
		builtinTool("Megawidget", "Unrelated."),
	}
}

// SRCH-5 (multi-word queries, revised): keywords combine in a ranking
// function; a tool a keyword matches in its name is never dropped for the
// other keywords (the old half-of-the-keywords cutoff is gone), and a query
// returns nothing only when no keyword matches anything. The confusable
// pair is ordered by how much of the name the query covers.
func TestMultiWord(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("gh", "list_issue_comments", "Get comments for an issue."),
		mcpTool("gh", "list_issues", "List issues in a repository."),
		mcpTool("gh", "label_issue", "Add a label."),
		mcpTool("db", "rows", "List rows, filtered by label, of an issue table."),
		mcpTool("gh", "label", "Manage labels."),
		mcpTool("zz", "unrelated", "Nothing to see."),
	}
	got := names(doSearch(t, tools, q("list issues label")))
	// All of the name, two words of it: first.
	if len(got) == 0 || got[0] != "mcp__gh__list_issues" {
		t.Errorf("got %v, want mcp__gh__list_issues first", got)
	}
	// The confusable pair: less of the name left over first.
	if slices.Index(got, "mcp__gh__list_issues") > slices.Index(got, "mcp__gh__list_issue_comments") {
		t.Errorf("got %v, want list_issues before list_issue_comments", got)
	}
	// One word of three: ranked last, not dropped; every word, in the
	// description only, is a hit too.
	if len(got) != 5 || got[4] != "mcp__gh__label" || !slices.Contains(got, "mcp__db__rows") {
		t.Errorf("got %v, want mcp__db__rows among the hits and mcp__gh__label last", got)
	}
	if got := names(doSearch(t, tools, q("list issues"))); got[0] != "mcp__gh__list_issues" {
		t.Errorf(`"list issues": got %v, want mcp__gh__list_issues first`, got)
	}
	// A sentence of names, values and filler still finds the tool.
	if got := names(doSearch(t, tools, q(`could you please list the open issues of acme/widgets for Dana "urgent"`))); len(got) == 0 || got[0] != "mcp__gh__list_issues" {
		t.Errorf("a sentence: got %v, want mcp__gh__list_issues first", got)
	}
	if res := doSearch(t, tools, q("quantum entanglement")); res.Total != 0 {
		t.Errorf("no keyword matches anything: got %v, want nothing", names(res))
	}
}

// SRCH-6: keyword results are capped at 5 by default; max_results is
// clamped to [1, 50] and truncated; total counts every hit.
func TestCap(t *testing.T) {
	var tools []pool.Tool
	for i := range 60 {
		tools = append(tools, mcpTool("s", "widget_"+strconv.Itoa(100+i), ""))
	}
	for args, want := range map[string]int{
		`{"query":"widget"}`:                      5,
		`{"query":"widget","max_results":0}`:      1,
		`{"query":"widget","max_results":-3}`:     1,
		`{"query":"widget","max_results":2.7}`:    2,
		`{"query":"widget","max_results":12}`:     12,
		`{"query":"widget","max_results":1000}`:   50,
		`{"query":"widget","max_results":1e400}`:  50,
		`{"query":"widget","max_results":null}`:   5,
		`{"query":"widget","max_results":50.999}`: 50,
	} {
		res := doSearch(t, tools, args)
		if len(res.Matches) != want || res.Total != 60 {
			t.Errorf("%s: %d matches, total %d; want %d matches, total 60", args, len(res.Matches), res.Total, want)
		}
	}
}

// SRCH-7: a searchHint is matched and ranks above the description, below
// the name.
func TestSearchHint(t *testing.T) {
	tools := hintPool()
	want := []string{"mcp__b__relocate", "mcp__a__mover"}
	if diff := cmp.Diff(want, names(doSearch(t, tools, q("teleport")))); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := names(doSearch(t, tools, q("teleport things"))); len(got) == 0 || got[0] != "mcp__b__relocate" {
		t.Errorf("hint phrase: got %v", got)
	}
}

// hintPool has a tool whose searchHint says teleport, and one whose
// description does.
func hintPool() []pool.Tool {
	return []pool.Tool{
		mcpTool("a", "mover", "Moves objects to a new place; a teleport of sorts."),
		{Name: "mcp__b__relocate", Description: "Relocates objects.", SearchHint: "teleport things", Kind: pool.MCP, Server: "b", ServerTool: "relocate"},
		mcpTool("c", "other", "Unrelated."),
	}
}

// SRCH-8: an empty query lists the pool, capped, in tie order (MCP first,
// then by name); total is the whole pool.
func TestEmptyQuery(t *testing.T) {
	tools := []pool.Tool{
		builtinTool("B", ""), mcpTool("z", "a", ""), builtinTool("A", ""),
		mcpTool("a", "z", ""), builtinTool("C", ""), builtinTool("D", ""), builtinTool("E", ""),
	}
	for _, args := range []string{`{"query":""}`, `{"query":"   "}`} {
		res := doSearch(t, tools, args)
		want := Result{Total: 7, Matches: []Match{{Name: "mcp__a__z"}, {Name: "mcp__z__a"}, {Name: "A"}, {Name: "B"}, {Name: "C"}}}
		if diff := cmp.Diff(want, res, cmpNamesOnly); diff != "" {
			t.Errorf("%s (-want +got):\n%s", args, diff)
		}
	}
	if res := doSearch(t, nil, `{"query":""}`); res.Total != 0 || res.Matches == nil {
		t.Errorf("empty pool: %+v, want no matches (an empty list, not null) and total 0", res)
	}
}

// SRCH-12, SRCH-15: the signature, the validator and the result shape all
// come from InputSchema and OutputSchema.
func TestOneSchema(t *testing.T) {
	sig := Signature()
	want, err := render.Signature(Name, json.RawMessage(InputSchema), json.RawMessage(OutputSchema))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, sig); diff != "" {
		t.Errorf("(-render +Signature):\n%s", diff)
	}
	for _, line := range []string{
		"---@field query string",
		"---@param args ToolSearch.Args",
		"---@return ToolSearch.Result",
		"function tools.ToolSearch(args) end",
	} {
		if !strings.Contains(sig, line) {
			t.Errorf("signature lacks %q:\n%s", line, sig)
		}
	}

	// Every field of InputSchema is accepted, and nothing else.
	var in struct{ Properties map[string]json.RawMessage }
	if err := json.Unmarshal([]byte(InputSchema), &in); err != nil {
		t.Fatal(err)
	}
	if _, err := Search(nil, json.RawMessage(`{"query":"x","max_results":3}`)); err != nil || len(in.Properties) != 2 {
		t.Errorf("the schema's own fields are refused (%v) or the schema changed (%d fields)", err, len(in.Properties))
	}

	// A Result marshals to exactly OutputSchema's fields.
	var out struct {
		Properties map[string]struct {
			Items struct{ Properties map[string]json.RawMessage }
		}
	}
	if err := json.Unmarshal([]byte(OutputSchema), &out); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(Result{Matches: []Match{{}}})
	var got map[string][]map[string]any
	var top map[string]json.RawMessage
	_ = json.Unmarshal(data, &top)
	_ = json.Unmarshal([]byte(`{"m":`+string(top["matches"])+`}`), &got)
	if diff := cmp.Diff(keys(out.Properties), keys(top)); diff != "" {
		t.Errorf("result fields (-schema +Result):\n%s", diff)
	}
	if diff := cmp.Diff(keys(out.Properties["matches"].Items.Properties), keys(got["m"][0])); diff != "" {
		t.Errorf("match fields (-schema +Match):\n%s", diff)
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// SRCH-13: wrong fields or types fail with the expected shape, rendered
// from InputSchema; nothing is read as an empty query.
func TestWrongArgs(t *testing.T) {
	expected, err := render.Type(json.RawMessage(InputSchema))
	if err != nil {
		t.Fatal(err)
	}
	tools := []pool.Tool{builtinTool("Read", "")}
	for args, problem := range map[string]string{
		`{"q":"x"}`:                            `unknown field "q"; missing field "query"`,
		`{}`:                                   `missing field "query"`,
		``:                                     `missing field "query"`,
		`null`:                                 `missing field "query"`,
		`{"query":null}`:                       `missing field "query"`,
		`{"query":5}`:                          `field "query" must be a string`,
		`{"query":"x","max_results":"3"}`:      `field "max_results" must be a number`,
		`{"query":"x","limit":3}`:              `unknown field "limit"`,
		`["x"]`:                                `arguments must be a table with named fields`,
		`"x"`:                                  `arguments must be a table with named fields`,
		`{"query":{"text":"x"}}`:               `field "query" must be a string`,
		`{"query":"x","max_results":[1]}`:      `field "max_results" must be a number`,
		`{"max_results":3,"query":true,"z":1}`: `field "query" must be a string; unknown field "z"`,
	} {
		res, err := Search(tools, json.RawMessage(args))
		if !errors.Is(err, ErrInvalidArgs) {
			t.Errorf("%s: err = %v, result %+v; want ErrInvalidArgs", args, err, res)
			continue
		}
		want := "ToolSearch: " + problem + "; tools.ToolSearch(args) expects args: " + expected
		if diff := cmp.Diff(want, err.Error()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", args, diff)
		}
	}
	if !strings.Contains(expected, "query: string") || !strings.Contains(expected, "max_results?: number") {
		t.Errorf("expected shape %q does not show the fields", expected)
	}
}

// SRCH-14: builtins and MCP tools render and rank the same way; ranking
// reads the tool's kind, never its name's prefix; non-identifier names use
// the bracket form.
func TestKindNotPrefix(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}`)
	tools := []pool.Tool{
		{Name: "mcp__fake__fetch", Description: "A builtin whose name looks like MCP.", InputSchema: schema},
		{Name: "fetch_real", Description: "An MCP tool without the prefix.", InputSchema: schema, Kind: pool.MCP, Server: "real", ServerTool: "fetch_real"},
		{Name: "put-item", Description: "A builtin that is not an identifier.", InputSchema: schema},
	}
	res := doSearch(t, tools, q("fetch"))
	if diff := cmp.Diff([]string{"fetch_real", "mcp__fake__fetch"}, names(res)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	a, b := res.Matches[0].Signature, res.Matches[1].Signature
	if diff := cmp.Diff(strings.ReplaceAll(a, "fetch_real", "X"), strings.ReplaceAll(b, "mcp__fake__fetch", "X")); diff != "" {
		t.Errorf("signatures differ beyond the name (-mcp +builtin):\n%s", diff)
	}
	sig := doSearch(t, tools, q("put-item")).Matches[0].Signature
	if !strings.HasSuffix(sig, "tools[\"put-item\"] = function(args) end\n") {
		t.Errorf("non-identifier builtin:\n%s", sig)
	}
}

// A tool whose schema does not render is still found, with a signature
// that says why and still names the call form.
func TestUnrenderableSchema(t *testing.T) {
	tools := []pool.Tool{
		{Name: "Broken", Description: "Has a bad schema.", InputSchema: json.RawMessage(`{"type":`)},
		{Name: "BrokenOut", Description: "Has a bad output schema.", InputSchema: json.RawMessage(`{"properties":{"id":{"type":"integer"}}}`), OutputSchema: json.RawMessage(`[`)},
	}
	for name, want := range map[string][]string{
		"Broken":    {"---input schema: invalid JSON", "---@param args? any\n", "function tools.Broken(args) end\n"},
		"BrokenOut": {"---output schema: invalid JSON", "---@param args? { id?: integer }\n", "function tools.BrokenOut(args) end\n"},
	} {
		res := doSearch(t, tools, q("select:"+name))
		if len(res.Matches) != 1 {
			t.Fatalf("got %+v", res)
		}
		sig := res.Matches[0].Signature
		for _, w := range want {
			if !strings.Contains(sig, w) {
				t.Errorf("%s: signature lacks %q:\n%s", name, w, sig)
			}
		}
	}
}

// Recall: plurals, -ing forms, camelCase, separators, prefixes and
// synonyms all reach the tool.
func TestRecall(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("gh", "list_issues", "Show open issues."),
		mcpTool("db", "query_entries", "Return rows."),
		mcpTool("fs", "delete_file", "Unlink a path."),
		builtinTool("NotebookEdit", "Change a cell in a notebook."),
		mcpTool("web", "render", "Draw the page of a repository site."),
		mcpTool("js", "evaluate", "Run JavaScript in the page."),
	}
	wantFirst(t, tools, map[string]string{
		"issue":         "mcp__gh__list_issues",
		"listing":       "mcp__gh__list_issues",
		"listIssues":    "mcp__gh__list_issues",
		"list-issues":   "mcp__gh__list_issues",
		"issues_list":   "mcp__gh__list_issues",
		"entry":         "mcp__db__query_entries",
		"remove file":   "mcp__fs__delete_file",
		"notebook edit": "NotebookEdit",
		"notebook_edit": "NotebookEdit",
		"repo":          "mcp__web__render",
		"javascript":    "mcp__js__evaluate",
		"java script":   "mcp__js__evaluate",
	})
}

// SRCH-2 (the host side): a hit carries the name, the description in full
// and the signature from render; the result marshals to
// {"matches":[...],"total":N}, with an empty list rather than null.
func TestResultJSON(t *testing.T) {
	desc := "Read a file.\n\nLong, multi-line: nothing is trimmed ]] --[[ or escaped here."
	schema := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"Where.\nReally."}},"required":["path"]}`)
	tools := []pool.Tool{{Name: "Read", Description: desc, InputSchema: schema}}
	sig, err := render.Signature("Read", schema, nil)
	if err != nil {
		t.Fatal(err)
	}
	for query, want := range map[string]Result{
		"read":          {Matches: []Match{{Name: "Read", Description: desc, Signature: sig}}, Total: 1},
		"zebra giraffe": {Matches: []Match{}, Total: 0},
	} {
		got, err := json.Marshal(doSearch(t, tools, q(query)))
		if err != nil {
			t.Fatal(err)
		}
		wantJSON, _ := json.Marshal(map[string]any{"matches": want.Matches, "total": want.Total})
		if diff := cmp.Diff(string(wantJSON), string(got)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", query, diff)
		}
	}
}

// bigPool repeats the evaluation pool under numbered servers up to n
// tools.
func bigPool(b testing.TB, n int) []pool.Tool {
	base := loadPool(b, "../testdata/search/eval/pool.json")
	tools := make([]pool.Tool, 0, n)
	for i := 0; len(tools) < n; i++ {
		t := base[i%len(base)]
		suffix := strconv.Itoa(i / len(base))
		if t.Kind == pool.MCP {
			t.Server += suffix
			t.Name = "mcp__" + t.Server + "__" + t.ServerTool
		} else {
			t.Name += suffix
		}
		tools = append(tools, t)
	}
	return tools
}

// Search over 10,000 tools with a prepared Index (the ToolSearch path),
// one sub-benchmark per kind of query.
func BenchmarkSearch10k(b *testing.B) {
	x := NewIndex(bigPool(b, 10000))
	for _, bq := range []struct{ name, args string }{
		{"words", q("list issues")},
		{"phrase", q("take a screenshot of the page")},
		{"sentence", q(`what columns does the orders table have in postgres, for "acme" id 7f9c`)},
		{"typo", q("screenshoot kubernets")},
		{"exact", q("mcp__github7__create_pull_request")},
		{"substring", q("sql")},
		{"common", q("get")},
		{"empty", q("")},
		{"select", q("select:Read3,mcp__slack2__slack_post_message")},
	} {
		b.Run(bq.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := x.Search(json.RawMessage(bq.args)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The latency of every query of the evaluation set (dev, test and test2:
// 496 queries) over 10,000 tools. Each query runs once per iteration; a
// query's cost is the median of its runs (the machine is shared: a single
// run may wait for the CPU), and p50, p95 and the worst are taken over the
// queries. raw-p95 is over every single run.
func BenchmarkQueryLatency10k(b *testing.B) {
	latencies(b, NewIndex(bigPool(b, 10000)), evalArgs(b))
}

// evalArgs are the queries of the evaluation set (dev, test and test2) as
// ToolSearch arguments.
func evalArgs(b *testing.B) []json.RawMessage {
	var args []json.RawMessage
	for _, path := range []string{"../testdata/search/eval/dev.json", "../testdata/search/eval/test.json", "../testdata/search/eval/test2.json"} {
		for _, qq := range loadQueries(b, path) {
			args = append(args, json.RawMessage(q(qq.Query)))
		}
	}
	return args
}

// latencies runs each of args once per iteration and reports p50, p95 and
// the worst over the queries, a query's cost being the median of its runs
// (the machine is shared: a single run may wait for the CPU), and raw-p95
// over every single run.
func latencies(b *testing.B, x *Index, args []json.RawMessage) {
	took := make([][]time.Duration, len(args))
	var all []time.Duration
	for b.Loop() {
		for i, a := range args {
			start := time.Now()
			if _, err := x.Search(a); err != nil {
				b.Fatal(err)
			}
			d := time.Since(start)
			took[i] = append(took[i], d)
			all = append(all, d)
		}
	}
	medians := make([]time.Duration, len(args))
	for i, ds := range took {
		slices.Sort(ds)
		medians[i] = ds[len(ds)/2]
	}
	at := func(ds []time.Duration, p float64) float64 {
		slices.Sort(ds)
		return float64(ds[int(p*float64(len(ds)-1))].Nanoseconds())
	}
	b.ReportMetric(at(medians, 0.5), "p50-ns/query")
	b.ReportMetric(at(medians, 0.95), "p95-ns/query")
	b.ReportMetric(at(medians, 1), "max-ns/query")
	b.ReportMetric(at(all, 0.95), "raw-p95-ns/query")
}

// cpuTime is the process's CPU time (user and system): on a shared
// machine it says what a benchmark cost better than the wall clock does.
func cpuTime(b *testing.B) time.Duration {
	d, err := cputime.Process()
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// loopCPU runs f in b.Loop and reports its CPU time per iteration and
// the CPUs it had (procs). That may not be the -N of the benchmark's name:
// with a list of -cpu values, the first of -count runs of a b.Loop
// benchmark is measured with GOMAXPROCS as the test or benchmark before
// it left it (golang/go#49980), so under -cpu 2,1 a run named -2 may
// have built on one CPU. Run one -cpu value per invocation to compare.
func loopCPU(b *testing.B, f func()) {
	start := cpuTime(b)
	n := 0
	for b.Loop() {
		f()
		n++
	}
	b.ReportMetric(float64((cpuTime(b)-start).Nanoseconds())/float64(n), "cpu-ns/op")
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "procs")
}

// Building the Index for 10,000 tools (once per pool).
func BenchmarkNewIndex10k(b *testing.B) {
	tools := bigPool(b, 10000)
	loopCPU(b, func() { NewIndex(tools) })
}

// One server of 20 tools connecting to, and leaving, an index of 10,000:
// the cost is the server's, not the pool's.
func BenchmarkServer20Of10k(b *testing.B) {
	x := NewIndex(bigPool(b, 10000))
	var server []pool.Tool
	for i := range 20 {
		server = append(server, mcpTool("newcomer", "tool_"+strconv.Itoa(i), "Does thing number "+strconv.Itoa(i)+" to a widget in the newcomer service."))
	}
	with := x.WithServer("newcomer", server)
	b.Run("add", func(b *testing.B) {
		loopCPU(b, func() { x.WithServer("newcomer", server) })
	})
	b.Run("remove", func(b *testing.B) {
		loopCPU(b, func() { with.WithoutServer("newcomer") })
	})
	b.Run("update-unchanged", func(b *testing.B) {
		tools := bigPool(b, 10000)
		loopCPU(b, func() { x.Update(tools) })
	})
}

// realTools maps real tools/list entries (package realpool) to pool tools
// the way a host registers them: name, description, schemas, search hint
// and the read-only and destructive hints.
func realTools(tb testing.TB, listings []realpool.Listing) []pool.Tool {
	tb.Helper()
	tools := make([]pool.Tool, len(listings))
	for i, l := range listings {
		var e struct {
			Description  string
			InputSchema  json.RawMessage
			OutputSchema json.RawMessage
			Annotations  struct{ ReadOnlyHint, DestructiveHint *bool }
			Meta         struct {
				SearchHint string `json:"anthropic/searchHint"`
			} `json:"_meta"`
		}
		if err := json.Unmarshal(l.Entry, &e); err != nil {
			tb.Fatalf("%s/%s: %v", l.Server, l.Name, err)
		}
		tools[i] = pool.Tool{
			Name: pool.MCPName(l.Server, l.Name), Description: e.Description, Kind: pool.MCP,
			Server: l.Server, ServerTool: l.Name, SearchHint: e.Meta.SearchHint,
			InputSchema: e.InputSchema, OutputSchema: e.OutputSchema,
			Annotations: pool.Annotations{ReadOnlyHint: e.Annotations.ReadOnlyHint, DestructiveHint: e.Annotations.DestructiveHint},
		}
	}
	return tools
}

// Building the Index for 10,000 real tools: descriptions of about 270
// characters and input schemas of about 1,000 (target at most 50 ms).
func BenchmarkNewIndexReal10k(b *testing.B) {
	benchmarkNewIndex(b, realTools(b, realpool.Pool(10_000)))
}

// The same with every description of each copy its own
// (realpool.DistinctPool): what no cost shared by identical texts helps.
func BenchmarkNewIndexRealDistinct10k(b *testing.B) {
	benchmarkNewIndex(b, realTools(b, realpool.DistinctPool(10_000)))
}

// benchmarkNewIndex reports the CPU time and allocations of building the
// Index of tools, and the heap the Index keeps (retained-B).
func benchmarkNewIndex(b *testing.B, tools []pool.Tool) {
	b.ReportAllocs()
	loopCPU(b, func() { NewIndex(tools) })
	b.ReportMetric(float64(retained(func() any { return NewIndex(tools) })), "retained-B")
}

// retained is how much the heap grows by keeping what build returns.
func retained(build func() any) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	return after.HeapAlloc - before.HeapAlloc
}

// realQueries are queries of every kind over the real pool's servers:
// keywords, sentences with values, questions, typos, names.
var realQueries = []string{
	"list issues", "create pull request", "send message", "search code", "take screenshot",
	"query database", "list files", "get weather", "navigate", "commit",
	"open a pull request from my feature branch into main",
	"post a message to the #general channel saying the deploy is done",
	"what tables are in the postgres database",
	"how do I click a button on the page",
	"which files changed in the last commit",
	"read the contents of config.yaml in the repo acme/widgets",
	"find the Notion page about the Q3 roadmap",
	"is there an open issue about the login timeout?",
	"screenshoot the page", "serch repositoreis", "kubernets pods", "craete issue",
	"mcp__github-03__create_pull_request", "sql", "get",
}

// The latency of a query over 10,000 real tools, as
// BenchmarkQueryLatency10k measures it, for realQueries and the
// evaluation set's queries (target p95 at most 1 ms).
func BenchmarkQueryLatencyReal10k(b *testing.B) {
	latencies(b, NewIndex(realTools(b, realpool.Pool(10_000))), realArgs(b))
}

// The same over realpool.DistinctPool.
func BenchmarkQueryLatencyRealDistinct10k(b *testing.B) {
	latencies(b, NewIndex(realTools(b, realpool.DistinctPool(10_000))), realArgs(b))
}

// realArgs are the evaluation set's queries and realQueries.
func realArgs(b *testing.B) []json.RawMessage {
	args := evalArgs(b)
	for _, qq := range realQueries {
		args = append(args, json.RawMessage(q(qq)))
	}
	return args
}

// A 20-tool real server joining an index of 10,000 real tools, and
// leaving it (target at most 1 ms each).
func BenchmarkServerReal10k(b *testing.B) {
	x := NewIndex(realTools(b, realpool.Pool(10_000)))
	server := realTools(b, realpool.Server("notion", "late"))[:20]
	with := x.WithServer("late", server)
	b.Run("join", func(b *testing.B) {
		b.ReportAllocs()
		loopCPU(b, func() { x.WithServer("late", server) })
	})
	b.Run("leave", func(b *testing.B) {
		b.ReportAllocs()
		loopCPU(b, func() { with.WithoutServer("late") })
	})
}
