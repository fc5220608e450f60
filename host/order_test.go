package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/hooks"
)

// answerHook writes a hook that prints answer and returns its path.
func (e *env) answerHook(name, answer string) string {
	return e.hookScript(name, "cat >/dev/null; cat <<'EOF'\n"+answer+"\nEOF\n")
}

const (
	hookAllow = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"vetted"}}`
	hookAsk   = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"check the note"}}`
)

// TestHookOrder: PreToolUse hooks run before the rules, and their
// decisions combine with the rules as Claude Code documents: a hook's
// allow lets through a call no rule names, but not one a deny rule
// refuses, and an ask rule still asks; a hook's ask asks, with the hook
// named.
func TestHookOrder(t *testing.T) {
	for _, tc := range []struct {
		name, answer, perms string
		refusedBy           string // "" when the call goes through
		cause               host.AskCause
		asked               bool
	}{
		{"allow without a rule", hookAllow, ``, "", 0, false},
		{"allow under a deny rule", hookAllow, `"deny": ["mcp__fx__echo"]`, `denied by the rule "mcp__fx__echo"`, 0, false},
		{"allow under an ask rule", hookAllow, `"ask": ["mcp__fx__echo"]`, "The user refused", host.AskRuleMatched, true},
		{"ask under an allow rule", hookAsk, `"allow": ["mcp__fx__echo"]`, "The user refused", host.HookAsked, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := setup(t, nil, nil)
			hook := e.answerHook("answer.sh", tc.answer)
			e.write("project", hooksJSON(`"permissions": {`+tc.perms+`}`, [3]string{hooks.PreToolUse, "mcp__fx__echo", hook}))
			e.until("the hooks to load", func() bool { return e.h.SettingsFiles().Hooks(hooks.PreToolUse) != nil })
			_, err := e.h.Call(context.Background(), execlua.Call{Name: "mcp__fx__echo", Args: json.RawMessage(`{"note":"x"}`)})
			switch {
			case tc.refusedBy == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.refusedBy != "" && (err == nil || !strings.Contains(err.Error(), tc.refusedBy)):
				t.Fatalf("got %v, want a refusal by %q", err, tc.refusedBy)
			}
			q := e.prompts.asked()
			if (len(q) > 0) != tc.asked {
				t.Fatalf("asked %d times, want asked %v", len(q), tc.asked)
			}
			if tc.asked && q[0].Cause != tc.cause {
				t.Errorf("cause %v, want %v (why: %s)", q[0].Cause, tc.cause, q[0].Why)
			}
			if tc.cause == host.HookAsked && !strings.Contains(q[0].Why, hook) || tc.cause == host.HookAsked && !strings.Contains(q[0].Why, "check the note") {
				t.Errorf("the question must name the hook and its reason: %s", q[0].Why)
			}
		})
	}
}

// TestPermissionRequestHook: a PermissionRequest hook answers for the
// user before the Prompter is asked.
func TestPermissionRequestHook(t *testing.T) {
	e := setup(t, nil, nil)
	allow := e.answerHook("allow.sh", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`)
	e.write("project", hooksJSON("", [3]string{hooks.PermissionRequest, "mcp__fx__echo", allow}))
	e.until("the hooks to load", func() bool { return e.h.SettingsFiles().Hooks(hooks.PermissionRequest) != nil })
	if res := e.run(`return tools.mcp__fx__echo{ id = 1 }`); res.IsError {
		t.Fatalf("allowed by the hook: %s", res.Text)
	}
	if len(e.prompts.asked()) != 0 {
		t.Error("the user was asked although a PermissionRequest hook answered")
	}
}

// TestHOOK8_SessionAndIDs (HOOK-8): nested calls tell their hooks the
// host's session id, stable across calls, and an id of their own;
// WithSession gives a conversation its own.
func TestHOOK8_SessionAndIDs(t *testing.T) {
	e := setup(t, map[string]string{"local": `{"permissions": {"allow": ["mcp__fx"]}}`}, nil)
	log := filepath.Join(e.dir, "inputs.log")
	rec := e.hookScript("rec.sh", `cat >> "`+log+`"; echo >> "`+log+`"`+"\n")
	e.write("project", hooksJSON("", [3]string{hooks.PreToolUse, "mcp__fx__echo", rec}))
	e.until("the hooks to load", func() bool { return e.h.SettingsFiles().Hooks(hooks.PreToolUse) != nil })
	if res := e.run(`tools.mcp__fx__echo{ id = 1 }; tools.mcp__fx__echo{ id = 2 }`); res.IsError {
		t.Fatal(res.Text)
	}
	input, _ := json.Marshal(map[string]string{"code": `return tools.mcp__fx__echo{ id = 3 }`})
	ctx := host.WithToolUseID(host.WithSession(context.Background(), "conv-9", "/t/conv-9.jsonl"), "toolu_exec")
	e.h.RunExec(ctx, e.s, input, nil)
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]string
	for line := range strings.Lines(strings.TrimSpace(string(data))) {
		var in map[string]any
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		got = append(got, map[string]string{"session": in["session_id"].(string), "transcript": in["transcript_path"].(string), "id": in["tool_use_id"].(string)})
	}
	if len(got) != 3 || got[0]["session"] != "sess-1" || got[1]["session"] != "sess-1" || got[2]["session"] != "conv-9" || got[2]["transcript"] != "/t/conv-9.jsonl" {
		t.Fatalf("sessions: %+v", got)
	}
	// Exec's own id (WithToolUseID) is not its nested calls'.
	if got[0]["id"] == got[1]["id"] || !strings.HasPrefix(got[0]["id"], "toolu_") || got[2]["id"] == "toolu_exec" {
		t.Errorf("each call needs an id of its own: %+v", got)
	}
}

// TestHOOK5_ReportedAndPostFailure: a failing hook is reported, never
// silent (HOOK-5), and a call that fails raises PostToolUseFailure, whose
// blocking answer reaches the model.
func TestHOOK5_ReportedAndPostFailure(t *testing.T) {
	e := setup(t, map[string]string{"local": `{"permissions": {"allow": ["mcp__fx"]}}`}, nil)
	crash := e.hookScript("crash.sh", "cat >/dev/null; echo boom >&2; exit 3\n")
	after := e.hookScript("after.sh", "cat >/dev/null; echo 'the server is flaky' >&2; exit 2\n")
	e.write("project", hooksJSON("", [3]string{hooks.PreToolUse, "mcp__fx__.*", crash}, [3]string{hooks.PostToolUseFailure, "mcp__fx__fail", after}))
	e.until("the hooks to load", func() bool { return e.h.SettingsFiles().Hooks(hooks.PreToolUse) != nil })
	if _, err := e.h.Call(context.Background(), execlua.Call{Name: "mcp__fx__fail", Args: json.RawMessage(`{}`)}); err == nil {
		t.Fatal("mcp__fx__fail must fail")
	}
	var reported bool
	for _, r := range e.h.Reports() {
		var f hooks.Failure
		if r.Source == "hooks" && errors.As(r.Err, &f) && f.Command == crash && f.Stderr == "boom" {
			reported = true
		}
	}
	if !reported {
		t.Errorf("the failing hook was not reported: %v", e.h.Reports())
	}
	want := `PostToolUseFailure:mcp__fx__fail hook blocking error from command: "` + after + `": the server is flaky`
	if msgs := e.messagesSoFar(); len(msgs) != 1 || msgs[0] != want {
		t.Errorf("messages %q, want %q", msgs, want)
	}
}

// TestRefusedBy: every refusal says who refused, so that a host (the CLI)
// can tell the user how to change it.
func TestRefusedBy(t *testing.T) {
	e := setup(t, map[string]string{"project": `{"permissions": {"deny": ["mcp__fx__echo(*secret*)", "mcp__fx__image"], "ask": ["mcp__fx__text"]}}`}, nil)
	block := e.hookScript("block.sh", "cat >/dev/null; echo no >&2; exit 2\n")
	e.write("local", hooksJSON("", [3]string{hooks.PreToolUse, "mcp__fx__structured", block}))
	e.until("the hooks to load", func() bool { return e.h.SettingsFiles().Hooks(hooks.PreToolUse) != nil })
	for name, want := range map[string]string{
		`mcp__fx__echo{ note = "secret" }`: `the deny rule "mcp__fx__echo(*secret*)" in the project settings (` + e.paths.Project + `)`,
		`mcp__fx__text{}`:                  `the user (asked because the rule "mcp__fx__text" in the project settings (` + e.paths.Project + `) asks for confirmation)`,
		`mcp__fx__structured{}`:            `the PreToolUse hook "` + block + `"`,
		// A tool a deny rule keeps out of the pool is denied by that rule.
		`mcp__fx__image{}`: `the deny rule "mcp__fx__image" in the project settings (` + e.paths.Project + `)`,
	} {
		res := e.run(`pcall(tools.` + name + `) return 1`)
		if len(res.Records) != 1 || res.Records[0].Outcome != execlua.CallRefused || res.Records[0].RefusedBy != want {
			t.Errorf("%s: %+v, want refused by %s", name, res.Records, want)
		}
	}
}

// TestHOOK6_ExecFailure: Exec's own PostToolUseFailure hooks fire when
// its run fails, as a flat tool's do.
func TestHOOK6_ExecFailure(t *testing.T) {
	e := setup(t, nil, nil)
	after := e.hookScript("after.sh", "cat >/dev/null; echo 'the script broke' >&2; exit 2\n")
	e.write("project", hooksJSON("", [3]string{hooks.PostToolUseFailure, "Exec", after}))
	e.until("the hooks to load", func() bool { return e.h.SettingsFiles().Hooks(hooks.PostToolUseFailure) != nil })
	if res := e.run(`error("boom")`); !res.IsError {
		t.Fatal("the script must fail")
	}
	want := `PostToolUseFailure:Exec hook blocking error from command: "` + after + `": the script broke`
	if msgs := e.messagesSoFar(); len(msgs) != 1 || msgs[0] != want {
		t.Errorf("messages %q, want %q", msgs, want)
	}
}
