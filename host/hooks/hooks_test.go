package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/execlua/execlua/host/settings"
	"github.com/google/go-cmp/cmp"
)

// script writes an executable sh script into dir and returns its path.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// runner builds a Runner for hooks given as event -> matcher -> commands.
func runner(t *testing.T, dir string, hooks map[string][]settings.HookMatcher) (*Runner, *[]Failure) {
	t.Helper()
	var mu sync.Mutex
	failures := &[]Failure{}
	st := settings.Open(settings.Paths{}, &settings.Options{Remote: &settings.File{Hooks: hooks}})
	r, errs := New(st.Current(), &Options{Cwd: dir, SessionID: "sess-1", OnFailure: func(f Failure) {
		mu.Lock()
		*failures = append(*failures, f)
		mu.Unlock()
	}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return r, failures
}

func cmd(command string, timeout float64) settings.HookCommand {
	return settings.HookCommand{Type: "command", Command: command, Timeout: timeout}
}

const tool = "mcp__srv__get"

var input = json.RawMessage(`{"id":7}`)

func TestPass(t *testing.T) {
	dir := t.TempDir()
	pass := script(t, dir, "pass.sh", "cat >/dev/null; exit 0\n")
	r, failures := runner(t, dir, map[string][]settings.HookMatcher{PreToolUse: {{Matcher: "mcp__srv__.*", Hooks: []settings.HookCommand{cmd(pass, 0)}}}})
	if res := r.Pre(context.Background(), tool, input); res.Blocked != nil || res.Ask {
		t.Errorf("pass: %+v", res)
	}
	if len(*failures) != 0 {
		t.Errorf("failures: %v", *failures)
	}
}

// TestHOOK2_Block: exit 2 blocks with stderr as the reason, in the exact
// text the script or the model reads.
func TestHOOK2_Block(t *testing.T) {
	dir := t.TempDir()
	block := script(t, dir, "block.sh", "cat >/dev/null; echo 'ids above 5 are off limits' >&2; exit 2\n")
	r, _ := runner(t, dir, map[string][]settings.HookMatcher{PreToolUse: {{Matcher: tool, Hooks: []settings.HookCommand{cmd(block, 0)}}}})
	res := r.Pre(context.Background(), tool, input)
	if !errors.Is(res.Blocked, ErrBlocked) || res.Blocked.Error() != "PreToolUse:mcp__srv__get hook error: ids above 5 are off limits" {
		t.Errorf("blocked: %v", res.Blocked)
	}
	// The matcher is anchored: "get" does not match mcp__srv__get.
	r, _ = runner(t, dir, map[string][]settings.HookMatcher{PreToolUse: {{Matcher: "get", Hooks: []settings.HookCommand{cmd(block, 0)}}}})
	if res := r.Pre(context.Background(), tool, input); res.Blocked != nil || r.Has(PreToolUse, tool) {
		t.Errorf("an unanchored match: %v", res.Blocked)
	}
	for _, m := range []string{"", "*", "mcp__srv__get|Bash", "mcp__.*"} {
		r, _ = runner(t, dir, map[string][]settings.HookMatcher{PreToolUse: {{Matcher: m, Hooks: []settings.HookCommand{cmd(block, 0)}}}})
		if !r.Has(PreToolUse, tool) {
			t.Errorf("matcher %q must match %s", m, tool)
		}
	}
}

// TestHOOK3_PostBlock: a PostToolUse exit 2 yields the isMeta message.
func TestHOOK3_PostBlock(t *testing.T) {
	dir := t.TempDir()
	post := script(t, dir, "post.sh", "cat >/dev/null; echo 'result looks wrong' >&2; exit 2\n")
	r, _ := runner(t, dir, map[string][]settings.HookMatcher{PostToolUse: {{Matcher: tool, Hooks: []settings.HookCommand{cmd(post+" --strict", 0)}}}})
	msgs := r.Post(context.Background(), tool, input, json.RawMessage(`{"content":[]}`))
	want := []string{`PostToolUse:mcp__srv__get hook blocking error from command: "` + post + ` --strict": result looks wrong`}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}

// TestHOOK5_FailOpen (HOOK-5): a hook that crashes, cannot start or times out lets
// the call through and is reported; a timed-out hook's children die with
// it.
func TestHOOK5_FailOpen(t *testing.T) {
	dir := t.TempDir()
	crash := script(t, dir, "crash.sh", "cat >/dev/null; echo 'segfault, sort of' >&2; exit 1\n")
	slow := script(t, dir, "slow.sh", "sleep 30\n")
	r, failures := runner(t, dir, map[string][]settings.HookMatcher{PreToolUse: {{Hooks: []settings.HookCommand{
		cmd(crash, 0), cmd(slow, 0.3), cmd(filepath.Join(dir, "missing.sh"), 0),
	}}}})
	start := time.Now()
	if res := r.Pre(context.Background(), tool, input); res.Blocked != nil || res.Ask {
		t.Errorf("fail-open: %+v", res)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the timed-out hook held the call for %v", d)
	}
	got := map[string]string{}
	for _, f := range *failures {
		got[filepath.Base(strings.Fields(f.Command)[0])] = f.Err.Error() + "|" + f.Stderr
	}
	if !strings.Contains(got["crash.sh"], "exit status 1|segfault, sort of") {
		t.Errorf("crash: %q", got["crash.sh"])
	}
	if !strings.Contains(got["slow.sh"], "timed out after 300ms") {
		t.Errorf("slow: %q", got["slow.sh"])
	}
	if !strings.Contains(got["missing.sh"], "exit status 127") {
		t.Errorf("missing: %q", got["missing.sh"])
	}
}

// TestJSONAnswers: a hook that exits 0 may decide with a JSON answer.
func TestJSONAnswers(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		answer  string
		blocked string
		ask     bool
	}{
		{`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not on Fridays"}}`, "not on Fridays", false},
		{`{"decision":"block","reason":"old style"}`, "old style", false},
		{`{"continue":false,"stopReason":"stop everything"}`, "stop everything", false},
		{`{"hookSpecificOutput":{"permissionDecision":"ask"}}`, "", true},
		{`{"hookSpecificOutput":{"permissionDecision":"allow"}}`, "", false},
		{`{"decision":"approve"}`, "", false},
		{`not json at all`, "", false},
	} {
		h := script(t, dir, "json.sh", "cat >/dev/null; echo '"+tc.answer+"'\n")
		r, _ := runner(t, dir, map[string][]settings.HookMatcher{PreToolUse: {{Hooks: []settings.HookCommand{cmd(h, 0)}}}})
		res := r.Pre(context.Background(), tool, input)
		got := ""
		if res.Blocked != nil {
			got = strings.TrimPrefix(res.Blocked.Error(), "PreToolUse:mcp__srv__get hook error: ")
		}
		if got != tc.blocked || res.Ask != tc.ask {
			t.Errorf("%s: blocked %q ask %v", tc.answer, got, res.Ask)
		}
	}
}

// TestStdin: hooks read the call as JSON on stdin and assert on it
// themselves; the working directory and CLAUDE_PROJECT_DIR are the host's.
func TestStdin(t *testing.T) {
	dir := t.TempDir()
	check := script(t, dir, "check.sh", `in=$(cat)
printf '%s' "$in" > "$CLAUDE_PROJECT_DIR/stdin-$1.json"
[ "$(pwd)" = "$CLAUDE_PROJECT_DIR" ] || { echo "cwd $(pwd)" >&2; exit 2; }
case "$in" in
  *'"hook_event_name":"'$1'"'*'"tool_input":{"id":7}'*) ;;
  *) echo "unexpected stdin: $in" >&2; exit 2 ;;
esac
`)
	r, failures := runner(t, dir, map[string][]settings.HookMatcher{
		PreToolUse:  {{Matcher: tool, Hooks: []settings.HookCommand{cmd(check+" PreToolUse", 0)}}},
		PostToolUse: {{Matcher: tool, Hooks: []settings.HookCommand{cmd(check+" PostToolUse", 0)}}},
	})
	if res := r.Pre(context.Background(), tool, input); res.Blocked != nil {
		t.Fatalf("pre: %v", res.Blocked)
	}
	if msgs := r.Post(context.Background(), tool, input, json.RawMessage(`{"content":[{"type":"text","text":"ok"}]}`)); len(msgs) > 0 {
		t.Fatalf("post: %v", msgs)
	}
	if len(*failures) > 0 {
		t.Fatal(*failures)
	}
	for event, extra := range map[string]map[string]any{
		PreToolUse:  {},
		PostToolUse: {"tool_response": map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}}},
	} {
		data, err := os.ReadFile(filepath.Join(dir, "stdin-"+event+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatalf("%s stdin is not JSON: %s", event, data)
		}
		want := map[string]any{"session_id": "sess-1", "cwd": dir, "hook_event_name": event, "tool_name": tool, "tool_input": map[string]any{"id": float64(7)}}
		for k, v := range extra {
			want[k] = v
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s stdin (-want +got):\n%s", event, diff)
		}
	}
}

func TestBadMatcher(t *testing.T) {
	st := settings.Open(settings.Paths{}, &settings.Options{Remote: &settings.File{Hooks: map[string][]settings.HookMatcher{PreToolUse: {{Matcher: "(", Hooks: []settings.HookCommand{cmd("true", 0)}}}}}})
	r, errs := New(st.Current(), nil)
	if len(errs) != 1 || r.Has(PreToolUse, "(") {
		t.Errorf("errs %v", errs)
	}
}

// TestUpdatedInput: a PreToolUse hook's updatedInput replaces the call's
// input when it is a JSON object; a block wins over a replacement.
func TestUpdatedInput(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ answer, input string }{
		{`{"hookSpecificOutput":{"updatedInput":{"id":8}}}`, `{"id":8}`},
		{`{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{ }}}`, `{ }`},
		{`{"hookSpecificOutput":{"updatedInput":[1]}}`, ``},
		{`{"hookSpecificOutput":{"updatedInput":"id=8"}}`, ``},
		{`{"hookSpecificOutput":{"updatedInput":null}}`, ``},
		{`{"hookSpecificOutput":{"permissionDecision":"deny","updatedInput":{"id":8}}}`, ``},
	} {
		h := script(t, dir, "json.sh", "cat >/dev/null; echo '"+tc.answer+"'\n")
		r, _ := runner(t, dir, map[string][]settings.HookMatcher{PreToolUse: {{Hooks: []settings.HookCommand{cmd(h, 0)}}}})
		if got := r.Pre(context.Background(), tool, input); string(got.Input) != tc.input {
			t.Errorf("%s: input %s, want %s", tc.answer, got.Input, tc.input)
		}
	}
}
