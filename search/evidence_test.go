package search

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/execlua/execlua/pool"
	"github.com/google/go-cmp/cmp"
)

func TestDeprecated(t *testing.T) {
	for desc, want := range map[string]bool{
		"Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.": true,
		"Deprecated: use list_v2.":                             true,
		"[Deprecated] Lists the widgets.":                      true,
		"Lists the widgets. This tool is deprecated.":          true,
		"Lists widgets. It has been obsolete since v3.":        true,
		"Legacy: reads the old API.":                           true,
		"Sends a message. Use post_message instead.":           true,
		"Sends a message. Use the `post_message` tool instead": true,
		// Not deprecation: advice under a condition, a legacy thing the
		// tool reads, an argument that is deprecated, a word inside another.
		"List pull requests. If the user specifies an author, then DO NOT use this tool and use the search_pull_requests tool instead.": false,
		"Get legacy User Reports or crash-report feedback attached to a Sentry issue.":                                                  false,
		"Returns actual log content instead of URLs":                                                                                    false,
		"Lists deprecated API versions of a cluster.":                                                                                   false,
		"Upload a video (legacy multipart upload).":                                                                                     false,
		"": false,
	} {
		if got := deprecated(desc); got != want {
			t.Errorf("deprecated(%q) = %v, want %v", desc, got, want)
		}
	}
}

// A deprecated tool ranks below its replacement that matches alike, and
// still first when asked by name.
func TestDeprecatedRanksBelowReplacement(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("fs", "read_file", "Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead."),
		mcpTool("fs", "read_text_file", "Read the complete contents of a file as text."),
	}
	if got := names(doSearch(t, tools, q("read the file as text"))); len(got) < 2 || got[0] != "mcp__fs__read_text_file" {
		t.Errorf("read the file as text: got %v, want read_text_file first", got)
	}
	if got := names(doSearch(t, tools, q("read_file"))); len(got) == 0 || got[0] != "mcp__fs__read_file" {
		t.Errorf("read_file by name: got %v", got)
	}
}

func TestNamedValues(t *testing.T) {
	for query, want := range map[string][]string{
		"make a new private repo called infra-notes":                {"infra-notes"},
		"open a PR titled Fix login redirect":                       {"Fix", "login", "redirect"},
		"open an incident called Checkout down with severity major": {"Checkout", "down"},
		"create a page named 'Sprint 12'":                           {"'Sprint", "12'"},
		"who called":                                                nil, // nothing follows: no name
	} {
		var got []string
		for _, tok := range tokens(query) {
			if namingWords[tok.text] && want != nil {
				t.Errorf("%q: the naming word %q stays", query, tok.text)
			}
			if tok.value {
				got = append(got, tok.text)
			}
		}
		if query == "who called" && !slices.ContainsFunc(tokens(query), func(tok token) bool { return tok.text == "called" }) {
			t.Errorf("%q: a naming word with nothing after it is dropped", query)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q: values (-want +got):\n%s", query, diff)
		}
	}
}

// The name after a naming word is no topic: a repo called infra-notes is
// no request about notes.
func TestNamedValueIsNoTopic(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("gh", "create_repository", "Create a new repository in your account."),
		mcpTool("notes", "create_note", "Create a new note in the notes app."),
	}
	if got := names(doSearch(t, tools, q("make a new private repo called infra-notes"))); len(got) == 0 || got[0] != "mcp__gh__create_repository" {
		t.Errorf("got %v, want create_repository first", got)
	}
}

// Tools of one server that nothing else tells apart come in the server's
// order; of different servers and builtins, by name (SRCH-5).
func TestTwinOrder(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("fs", "read_text", "Reads a file."),
		mcpTool("fs", "read_media", "Reads a file."),
		mcpTool("alpha", "read_blob", "Reads a file."),
		builtinTool("ReadZeta", "Reads a file."),
		builtinTool("ReadBeta", "Reads a file."),
	}
	want := []string{"mcp__alpha__read_blob", "mcp__fs__read_text", "mcp__fs__read_media", "ReadBeta", "ReadZeta"}
	if diff := cmp.Diff(want, names(doSearch(t, tools, `{"query":"reads file"}`))); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestDescNorm(t *testing.T) {
	if got := descNorm(descRefWords); got != 1 {
		t.Errorf("descNorm(%d) = %v, want 1", descRefWords, got)
	}
	if short, long := descNorm(10), descNorm(300); short != 1 || !(long < 1 && long > 0) {
		t.Errorf("descNorm(10) = %v, descNorm(300) = %v: want 1 and below 1", short, long)
	}
	// The index counts a description's words as it reads them
	// : 60 words weigh as descNorm(60).
	x := NewIndex([]pool.Tool{mcpTool("s", "t", strings.Repeat("read the file ", 20))})
	if got, want := x.meta(0).descNorm, descNorm(60); got != want {
		t.Errorf("descNorm of a 60-word description = %v, want %v", got, want)
	}
}

// Only a description that says so is deprecated, whatever its case, and
// the key words alone are not enough (the index looks for them first).
func TestDeprecatedNeedsTheNotice(t *testing.T) {
	for text, want := range map[string]bool{
		"DEPRECATED: use read_text_file instead.":                   true,
		"This tool is Obsolete.":                                    true,
		"Read a file.":                                              false,
		"Get legacy User Reports.":                                  false,
		"Use search_code instead of grep if the user names a repo.": false,
	} {
		x := NewIndex([]pool.Tool{mcpTool("s", "t", text)})
		if got := x.meta(0).deprecated; got != want {
			t.Errorf("%q: deprecated %v, want %v", text, got, want)
		}
	}
}

// A description match in a long description weighs less than one in a
// short description: it is more likely to be in passing.
func TestLongDescriptionWeighsLess(t *testing.T) {
	long := "Search events."
	for range 40 {
		long += " Supports filters, fields, sorting, datasets, pagination and more."
	}
	long += " Mentions users in passing."
	tools := []pool.Tool{
		mcpTool("a", "search_events", long),
		mcpTool("b", "list_members", "Lists users of the workspace."),
	}
	if got := names(doSearch(t, tools, q("users"))); len(got) < 2 || got[0] != "mcp__b__list_members" {
		t.Errorf("got %v, want list_members first", got)
	}
}

func TestSingularAcronym(t *testing.T) {
	for in, want := range map[string]string{
		"PRs": "PR", "VMs?": "VM?", "URLs,": "URL,", "PR": "PR", "Prs": "Prs", "prs": "prs", "Ss": "Ss", "status": "status",
	} {
		if got := singularAcronym(in); got != want {
			t.Errorf("singularAcronym(%q) = %q, want %q", in, got, want)
		}
	}
	// PRs reaches what PR does (pull requests), not words its case
	// splits it into.
	tools := []pool.Tool{
		mcpTool("gh", "list_pull_requests", "List pull requests in a repository."),
		mcpTool("gh", "list_projects", "List projects."),
	}
	if got := names(doSearch(t, tools, q("open PRs"))); len(got) == 0 || got[0] != "mcp__gh__list_pull_requests" {
		t.Errorf("open PRs: got %v", got)
	}
}

// Builtins rank on the same evidence as MCP tools: a builtin and an MCP
// tool with the same name words and description score alike, and the MCP
// tool comes first only as the tie-break (SRCH-5); a builtin with more
// evidence ranks above an MCP tool with less.
func TestBuiltinsRankOnTheSameEvidence(t *testing.T) {
	tools := []pool.Tool{
		builtinTool("ClosePlan", "Closes the plan."),
		mcpTool("planner", "close_plan", "Closes the plan."),
		mcpTool("tracker", "close_issue", "Closes an issue."),
	}
	x := NewIndex(tools)
	s := x.score("close the plan now", nil)
	defer s.release()
	byName := map[string]int32{}
	for _, id := range s.hits {
		byName[x.entry(id).tool.Name] = id
	}
	s.best(3)
	if b, m := s.score[byName["ClosePlan"]], s.score[byName["mcp__planner__close_plan"]]; b != m {
		t.Errorf("builtin scores %v, the same MCP tool %v: want equal", b, m)
	}
	want := []string{"mcp__planner__close_plan", "ClosePlan", "mcp__tracker__close_issue"}
	if diff := cmp.Diff(want, names(doSearch(t, tools, q("close the plan now")))); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A name word said twice earns its bonuses once: the name that says a
// query word twice scores no more than the one that says it once.
func TestRepeatedNameWord(t *testing.T) {
	x := NewIndex([]pool.Tool{
		mcpTool("tf", "create_variable_in_variable_set", "Create a new variable in a variable set."),
		mcpTool("tf", "create_variable_set", "Create a new variable in a variable set."),
	})
	s := x.score("variable set create", nil)
	defer s.release()
	s.best(2)
	if twice, once := s.score[0], s.score[1]; twice > once {
		t.Errorf("create_variable_in_variable_set scores %v, create_variable_set %v: want no more", twice, once)
	}
	own := []nameWord{{word: "variable", stem: "variabl"}, {word: "in", stem: "in"}, {word: "variable", stem: "variabl"}}
	if repeatedNameWord(own, 0) || repeatedNameWord(own, 1) || !repeatedNameWord(own, 2) {
		t.Error("repeatedNameWord: want only the second variable repeated")
	}
}

// Keywords in any order: a verb that changes or destroys, anywhere in a
// query with no verb first and no question, gives the query its intent.
func TestKeywordsIntent(t *testing.T) {
	tools := []pool.Tool{
		annotated(mcpTool("tf", "list_workspace_policy_sets", "Read all policy sets attached to a workspace."), true, false),
		annotated(mcpTool("tf", "attach_policy_set_to_workspaces", "Attach a policy set to one or more workspaces."), false, true),
	}
	x := NewIndex(tools)
	for query, want := range map[string]intent{
		"policy set attach workspace": acts,
		"policy sets workspace":       reads,
		"which policy set attach":     reads, // a question reads
	} {
		if got := x.plan(query, nil).intent; got != want {
			t.Errorf("%q: intent %d, want %d", query, got, want)
		}
	}
	if got := names(doSearch(t, tools, q("policy set attach workspace"))); len(got) == 0 || got[0] != "mcp__tf__attach_policy_set_to_workspaces" {
		t.Errorf("got %v, want attach_policy_set_to_workspaces first", got)
	}
}

// A pair of words the pool also writes as one (task list, TaskList) is
// read two ways, and a tool gets the better reading, not both: the joined
// word found in the field its parts were found in adds nothing beyond
// them, so the tool named for the pair does not outrank the tool that
// matches more of the query. Found elsewhere than its parts, the joined
// word is evidence of its own. With alike off, both readings add up.
func TestJoinedWordIsAnotherReading(t *testing.T) {
	tools := []pool.Tool{
		{Name: "TaskList", Description: "List the tasks with their status."},
		{Name: "TaskUpdate", Description: "Update a task.", SearchHint: "set a task's status"},
	}
	if got := names(doSearch(t, tools, q("task list update status"))); len(got) == 0 || got[0] != "TaskUpdate" {
		t.Errorf("task list update status: got %v, want TaskUpdate first", got)
	}
	off, err := NewIndexWith(tools, &Options{Disable: []string{"alike"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := off.Search(json.RawMessage(q("task list update status")))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) == 0 || res.Matches[0].Name != "TaskList" {
		t.Errorf("alike off: got %v, want TaskList first (task, list and tasklist all count)", res.Matches)
	}
	// rxcui in a name, rx and cui apart in the description: the name's
	// joined word counts in full, no alike taken away.
	rx := []pool.Tool{mcpTool("rxnorm", "findRxcuiByString", "Find the Rx CUI of a drug by its name.")}
	e, err := NewIndex(rx).Explain(json.RawMessage(q("RxCUI")))
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Results) != 1 || slices.ContainsFunc(e.Results[0].Signals, func(sp SignalPoints) bool { return sp.Signal == "alike" }) {
		t.Errorf("RxCUI: want findRxcuiByString without alike:\n%s", e)
	}
}

// A plural keyword whose singular is a name's word weighs against a tool
// that reads one (get_label for labels), not against one named to list or
// search, which returns many whatever its name's number (list_label).
func TestOneSparesListingNames(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("gh", "get_label", "Get a label."),
		mcpTool("gh", "list_label", "List the labels of a repository."),
	}
	e, err := NewIndex(tools).Explain(json.RawMessage(q("labels")))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range e.Results {
		hasOne := slices.ContainsFunc(r.Signals, func(sp SignalPoints) bool { return sp.Signal == "one" })
		if want := r.Name == "mcp__gh__get_label"; hasOne != want {
			t.Errorf("%s: signal one shown %v, want %v:\n%s", r.Name, hasOne, want, e)
		}
	}
}
