package execlua

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/execlua/execlua/sandbox"
	"github.com/google/go-cmp/cmp"
)

// ruleRefusal is a refusal as a host's permission check returns it.
type ruleRefusal struct{}

func (ruleRefusal) Error() string     { return "Permission to use TaskCreate has been denied." }
func (ruleRefusal) RefusedBy() string { return `the deny rule "TaskCreate" in the project settings` }

// TestCallRecords (SUM-7, SUM-9): every nested call has a record with its
// arguments, server and outcome, refused calls included: by the funnel
// (and who), by the call limit, a name outside the pool; OnCallDone sees
// each as its outcome is known.
func TestCallRecords(t *testing.T) {
	f := &fakeFunnel{tools: map[string]toolFunc{
		"TaskCreate":                func(context.Context, map[string]any) (sandbox.Output, error) { return sandbox.Output{}, ruleRefusal{} },
		"mcp__github__create_issue": refusing("the server is down"),
	}}
	s := newSession(t, f, &Options{Tools: with(builtins(), githubTools()), Limits: Limits{MaxCalls: 5}})
	var done []string
	res := s.Run(context.Background(), input(`
		tools.WebFetch{ url = "x" }
		pcall(tools.TaskCreate, {})
		pcall(tools.mcp__github__create_issue, { id = 1 })
		pcall(tools.mcp__gone__x, {})
		tools.ToolSearch{ query = "issue" }
		pcall(tools.WebFetch, {})
		return "done"`), &RunOptions{OnCallDone: func(r CallRecord) { done = append(done, r.Name+":"+r.Outcome) }})
	if res.IsError {
		t.Fatal(res.Text)
	}
	type rec struct{ Name, Args, Server, Outcome, RefusedBy string }
	var got []rec
	for _, r := range res.Records {
		got = append(got, rec{r.Name, string(r.Args), r.Server, r.Outcome, r.RefusedBy})
		if (r.Outcome == CallOK) != (r.Err == nil) {
			t.Errorf("%s: outcome %s with err %v", r.Name, r.Outcome, r.Err)
		}
	}
	want := []rec{
		{"WebFetch", `{"url":"x"}`, "", CallOK, ""},
		{"TaskCreate", `{}`, "", CallRefused, `the deny rule "TaskCreate" in the project settings`},
		{"mcp__github__create_issue", `{"id":1}`, "github", CallError, ""},
		{"mcp__gone__x", "", "", CallRefused, "the pool (no tool of that name can be called from Exec)"},
		{"ToolSearch", "", "", CallOK, ""},
		{"WebFetch", "", "", CallRefused, "the call limit (5 calls a run)"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	if len(done) != len(want) {
		t.Errorf("OnCallDone saw %v", done)
	}
	if !errors.Is(res.Records[5].Err, ErrCallLimit) || !errors.Is(res.Records[3].Err, ErrUnknownTool) {
		t.Errorf("errors: %v, %v", res.Records[5].Err, res.Records[3].Err)
	}
	if len(res.Calls) != len(want) {
		t.Errorf("Calls %q must list every call", res.Calls)
	}
}

// A tool the permission filter left out is refused as denied, naming who
// denied it (Settings.DeniedBy), not as a name outside the pool.
func TestDeniedToolSaysWhy(t *testing.T) {
	s := newSession(t, &fakeFunnel{}, &Options{Tools: with(builtins(), githubTools()), Settings: Settings{
		Denied: func(name string) bool { return name == "mcp__github__create_issue" },
		DeniedBy: func(string) string {
			return `the deny rule "mcp__github__create_issue" in the project settings (/p/settings.json)`
		},
	}})
	res := run(s, `return tools.mcp__github__create_issue{}`)
	want := `Permission to use mcp__github__create_issue has been denied by the deny rule "mcp__github__create_issue" in the project settings (/p/settings.json), so it is not among the tools scripts can call.`
	if !res.IsError || !strings.Contains(res.Text, want) || !errors.Is(res.Err, ErrUnknownTool) {
		t.Errorf("result: %s", res.Text)
	}
	if len(res.Records) != 1 || res.Records[0].RefusedBy != `the deny rule "mcp__github__create_issue" in the project settings (/p/settings.json)` {
		t.Errorf("records: %+v", res.Records)
	}
}
