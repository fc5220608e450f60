package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/execlua/execlua/host/settings"
	"github.com/execlua/execlua/internal/leaktest"
	"github.com/google/go-cmp/cmp"
)

// The conformance tests of this file are written from Claude Code's hooks
// reference (docs/hooks.md cites the parts used); each runs against a real
// hook subprocess, an HTTP endpoint on loopback, or both.

// script writes an executable sh script into dir and returns its path.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// failures collects what OnFailure is told.
type failures struct {
	mu   sync.Mutex
	list []Failure
}

func (f *failures) add(x Failure) { f.mu.Lock(); f.list = append(f.list, x); f.mu.Unlock() }
func (f *failures) all() []Failure {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Failure(nil), f.list...)
}

// runner builds a Runner for hooks given as event -> matchers.
func runner(t *testing.T, dir string, hooks map[string][]settings.HookMatcher) (*Runner, *failures) {
	t.Helper()
	fails := &failures{}
	st := settings.Open(settings.Paths{}, &settings.Options{Managed: &settings.File{Hooks: hooks}})
	r, errs := New(st.Current(), &Options{Cwd: dir, OnFailure: fails.add,
		LookupEnv: func(name string) (string, bool) { return "secret-" + name, true }})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return r, fails
}

// on lists hooks under one event for every tool.
func on(event string, hooks ...settings.HookCommand) map[string][]settings.HookMatcher {
	return map[string][]settings.HookMatcher{event: {{Hooks: hooks}}}
}

func cmd(command string, timeout float64) settings.HookCommand {
	return settings.HookCommand{Type: "command", Command: command, Timeout: timeout}
}

func httpHook(url string) settings.HookCommand { return settings.HookCommand{Type: "http", URL: url} }

// endpoint is an HTTP hook endpoint on loopback that answers every POST
// with status and body, and keeps the requests it got.
type endpoint struct {
	*httptest.Server
	mu       sync.Mutex
	bodies   [][]byte
	requests []*http.Request
}

func newEndpoint(t *testing.T, status int, body string) *endpoint {
	e := &endpoint{}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		e.mu.Lock()
		e.bodies, e.requests = append(e.bodies, data), append(e.requests, r)
		e.mu.Unlock()
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(e.Close)
	return e
}

// answering is a command hook and an HTTP hook that both print answer.
func answering(t *testing.T, dir, answer string) map[string]settings.HookCommand {
	h := script(t, dir, "answer.sh", "cat >/dev/null; cat <<'EOF'\n"+answer+"\nEOF\n")
	return map[string]settings.HookCommand{"command": cmd(h, 0), "http": httpHook(newEndpoint(t, 200, answer).URL)}
}

const tool = "mcp__srv__get"

var args = json.RawMessage(`{"id":7}`)

func call() Call {
	return Call{SessionID: "sess-1", TranscriptPath: "/tmp/t.jsonl", PermissionMode: "acceptEdits", Tool: tool, Input: args, ID: "toolu_1"}
}

// keys returns the top-level keys of a JSON object in the order written.
func keys(t *testing.T, data []byte) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(data)))
	var out []string
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", data)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestHOOK8_Input: every event's input has the documented fields, in the
// documented order, from a command hook's stdin and an HTTP hook's body;
// the command runs in the host's directory with CLAUDE_PROJECT_DIR set.
func TestHOOK8_Input(t *testing.T) {
	dir := t.TempDir()
	common := []string{"session_id", "transcript_path", "cwd", "permission_mode", "hook_event_name"}
	for _, tc := range []struct {
		event string
		keys  []string
		fire  func(r *Runner)
	}{
		{PreToolUse, []string{"tool_name", "tool_input", "tool_use_id"}, func(r *Runner) { r.Pre(context.Background(), call()) }},
		{PermissionRequest, []string{"tool_name", "tool_input", "tool_use_id"}, func(r *Runner) { r.Permission(context.Background(), call()) }},
		{PostToolUse, []string{"tool_name", "tool_input", "tool_response", "tool_use_id"}, func(r *Runner) {
			r.Post(context.Background(), call(), json.RawMessage(`{"content":[]}`))
		}},
		{PostToolUseFailure, []string{"tool_name", "tool_input", "tool_use_id", "error", "is_interrupt"}, func(r *Runner) {
			r.PostFailure(context.Background(), call(), errors.New("server down"), false)
		}},
	} {
		out := filepath.Join(dir, tc.event+".json")
		env := filepath.Join(dir, tc.event+".env")
		rec := script(t, dir, "rec.sh", `cat > "$1"; printf '%s|%s' "$CLAUDE_PROJECT_DIR" "$(pwd)" > "$2"`+"\n")
		ep := newEndpoint(t, 200, "")
		r, fails := runner(t, dir, on(tc.event, cmd(rec+" "+out+" "+env, 0), httpHook(ep.URL)))
		tc.fire(r)
		if f := fails.all(); len(f) > 0 {
			t.Fatalf("%s: %v", tc.event, f)
		}
		stdin, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		want := append(append([]string(nil), common...), tc.keys...)
		for via, data := range map[string][]byte{"command": stdin, "http": ep.bodies[0]} {
			if diff := cmp.Diff(want, keys(t, data)); diff != "" {
				t.Errorf("%s via %s: keys (-want +got):\n%s", tc.event, via, diff)
			}
			var got map[string]any
			json.Unmarshal(data, &got)
			for k, v := range map[string]any{"session_id": "sess-1", "transcript_path": "/tmp/t.jsonl", "cwd": dir,
				"permission_mode": "acceptEdits", "hook_event_name": tc.event, "tool_name": tool, "tool_use_id": "toolu_1"} {
				if got[k] != v {
					t.Errorf("%s via %s: %s = %v, want %v", tc.event, via, k, got[k], v)
				}
			}
			if diff := cmp.Diff(map[string]any{"id": float64(7)}, got["tool_input"]); diff != "" {
				t.Errorf("%s via %s: tool_input (-want +got):\n%s", tc.event, via, diff)
			}
		}
		if e, _ := os.ReadFile(env); string(e) != dir+"|"+dir {
			t.Errorf("%s: CLAUDE_PROJECT_DIR|pwd = %q, want %s", tc.event, e, dir)
		}
		if ct := ep.requests[0].Header.Get("Content-Type"); ct != "application/json" || ep.requests[0].Method != http.MethodPost {
			t.Errorf("http hook: %s with Content-Type %q", ep.requests[0].Method, ct)
		}
	}
}

// TestHOOK8_FailureFields: PostToolUseFailure tells the error and whether
// the call was interrupted.
func TestHOOK8_FailureFields(t *testing.T) {
	ep := newEndpoint(t, 200, "")
	r, _ := runner(t, t.TempDir(), on(PostToolUseFailure, httpHook(ep.URL)))
	r.PostFailure(context.Background(), call(), errors.New("server down"), true)
	var got struct {
		Error       string `json:"error"`
		IsInterrupt bool   `json:"is_interrupt"`
	}
	if err := json.Unmarshal(ep.bodies[0], &got); err != nil || got.Error != "server down" || !got.IsInterrupt {
		t.Errorf("%s", ep.bodies[0])
	}
}

// TestMatchers: "" and "*" match all; names and | lists match exactly;
// anything else is a regular expression searched in the name.
func TestMatchers(t *testing.T) {
	for _, tc := range []struct {
		matcher, tool string
		want          bool
	}{
		{"", tool, true}, {"*", tool, true},
		{"mcp__srv__get", tool, true}, {"get", tool, false}, {"mcp__srv__ge", tool, false},
		{"Bash|mcp__srv__get", tool, true}, {"Edit|Write", "Write", true}, {"Edit|Write", "WriteFile", false},
		{"mcp__srv__.*", tool, true}, {"mcp__other__.*", tool, false}, {"mcp__.*", tool, true},
		{"^Notebook", "NotebookEdit", true}, {"Output$", "BashOutput", true}, {"Output$", "Bash", false},
	} {
		m, err := compileMatcher(tc.matcher)
		if err != nil {
			t.Fatal(err)
		}
		if got := m(tc.tool); got != tc.want {
			t.Errorf("matcher %q on %s: %v, want %v", tc.matcher, tc.tool, got, tc.want)
		}
	}
	st := settings.Open(settings.Paths{}, &settings.Options{Managed: &settings.File{Hooks: map[string][]settings.HookMatcher{PreToolUse: {{Matcher: "(", Hooks: []settings.HookCommand{cmd("true", 0)}}}}}})
	if r, errs := New(st.Current(), nil); len(errs) != 1 || r.Has(PreToolUse, "(") {
		t.Errorf("a bad matcher must be reported and left out: %v", errs)
	}
}

// TestHOOK2_Block: exit 2 denies with stderr as the reason, in the exact
// text the script or the model reads, and names the hook that refused.
func TestHOOK2_Block(t *testing.T) {
	dir := t.TempDir()
	block := script(t, dir, "block.sh", "cat >/dev/null; echo 'ids above 5 are off limits' >&2; exit 2\n")
	r, _ := runner(t, dir, on(PreToolUse, cmd(block, 0)))
	res := r.Pre(context.Background(), call())
	var be *BlockedError
	if !errors.As(res.Blocked, &be) || res.Blocked.Error() != "PreToolUse:mcp__srv__get hook error: ids above 5 are off limits" || be.Command != block || res.Decision != Deny {
		t.Errorf("blocked: %+v", res)
	}
}

// TestPreDecisions: each documented PreToolUse answer, from a command hook
// and from an HTTP hook alike.
func TestPreDecisions(t *testing.T) {
	t.Cleanup(leaktest.Check(t)) // registered first, run last: after the endpoints close
	dir := t.TempDir()
	for _, tc := range []struct {
		answer   string
		decision Decision
		reason   string
		input    string
	}{
		{`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not on Fridays"}}`, Deny, "not on Fridays", ""},
		{`{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"check the id"}}`, Ask, "check the id", ""},
		{`{"hookSpecificOutput":{"permissionDecision":"allow","permissionDecisionReason":"safe","updatedInput":{"id":8}}}`, Allow, "safe", `{"id":8}`},
		{`{"hookSpecificOutput":{"updatedInput":{"id":9},"additionalContext":"ids are 1-based"}}`, NoDecision, "", `{"id":9}`},
		{`{"hookSpecificOutput":{"updatedInput":[1]}}`, NoDecision, "", ""},
		{`{"hookSpecificOutput":{"permissionDecision":"deny","updatedInput":{"id":8}}}`, Deny, "denied by the hook", ""},
		{`{"decision":"block","reason":"old style"}`, Deny, "old style", ""},
		{`{"decision":"approve","reason":"old allow"}`, Allow, "old allow", ""},
		{`{"continue":false,"stopReason":"stop everything"}`, Deny, "stop everything", ""},
		{`not json at all`, NoDecision, "", ""},
	} {
		for via, h := range answering(t, dir, tc.answer) {
			r, _ := runner(t, dir, on(PreToolUse, h))
			res := r.Pre(context.Background(), call())
			if res.Decision != tc.decision || res.Reason != tc.reason || string(res.Input) != tc.input {
				t.Errorf("%s via %s: %v %q input %s", tc.answer, via, res.Decision, res.Reason, res.Input)
			}
			if strings.Contains(tc.answer, "additionalContext") != (len(res.Context) == 1) {
				t.Errorf("%s via %s: context %q", tc.answer, via, res.Context)
			}
			if (res.Blocked != nil) != (tc.decision == Deny) {
				t.Errorf("%s via %s: blocked %v", tc.answer, via, res.Blocked)
			}
		}
	}
	// Of several hooks, deny beats ask beats allow.
	allow := answering(t, dir, `{"hookSpecificOutput":{"permissionDecision":"allow"}}`)["http"]
	ask := answering(t, dir, `{"hookSpecificOutput":{"permissionDecision":"ask"}}`)["http"]
	deny := answering(t, dir, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`)["http"]
	r, _ := runner(t, dir, on(PreToolUse, allow, ask))
	if d := r.Pre(context.Background(), call()).Decision; d != Ask {
		t.Errorf("allow and ask: %v", d)
	}
	r, _ = runner(t, dir, on(PreToolUse, deny, allow, ask))
	if d := r.Pre(context.Background(), call()).Decision; d != Deny {
		t.Errorf("deny, allow and ask: %v", d)
	}
}

// TestPermissionRequest: a PermissionRequest hook answers for the user.
func TestPermissionRequest(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		answer   string
		decision Decision
		text     string
		input    string
	}{
		{`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"id":1}}}}`, Allow, "", `{"id":1}`},
		{`{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"ask the admin"}}}`, Deny, "PermissionRequest:mcp__srv__get hook error: ask the admin", ""},
		{`{}`, NoDecision, "", ""},
	} {
		for via, h := range answering(t, dir, tc.answer) {
			r, _ := runner(t, dir, on(PermissionRequest, h))
			res := r.Permission(context.Background(), call())
			text := ""
			if res.Blocked != nil {
				text = res.Blocked.Error()
			}
			if res.Decision != tc.decision || text != tc.text || string(res.Input) != tc.input {
				t.Errorf("%s via %s: %+v", tc.answer, via, res)
			}
		}
	}
	block := script(t, dir, "block.sh", "cat >/dev/null; echo nope >&2; exit 2\n")
	r, _ := runner(t, dir, on(PermissionRequest, cmd(block, 0)))
	if res := r.Permission(context.Background(), call()); res.Decision != Deny || !strings.HasSuffix(res.Blocked.Error(), "hook error: nope") {
		t.Errorf("exit 2: %+v", res)
	}
}

// TestHOOK3_After: after the call, exit 2, decision "block" and
// additionalContext reach the model as messages; the call stands.
func TestHOOK3_After(t *testing.T) {
	dir := t.TempDir()
	post := script(t, dir, "post.sh", "cat >/dev/null; echo 'result looks wrong' >&2; exit 2\n")
	ctxHook := answering(t, dir, `{"decision":"block","reason":"recheck","hookSpecificOutput":{"additionalContext":"the id was 7"}}`)["http"]
	r, _ := runner(t, dir, map[string][]settings.HookMatcher{
		PostToolUse:        {{Matcher: tool, Hooks: []settings.HookCommand{cmd(post+" --strict", 0), ctxHook}}},
		PostToolUseFailure: {{Matcher: "mcp__srv__.*", Hooks: []settings.HookCommand{cmd(post, 0)}}},
	})
	want := []string{
		`PostToolUse:mcp__srv__get hook blocking error from command: "` + post + ` --strict": result looks wrong`,
		`PostToolUse:mcp__srv__get hook blocking error from command: "` + ctxHook.URL + `": recheck`,
		"the id was 7",
	}
	if diff := cmp.Diff(want, r.Post(context.Background(), call(), json.RawMessage(`{"content":[]}`))); diff != "" {
		t.Errorf("PostToolUse (-want +got):\n%s", diff)
	}
	want = []string{`PostToolUseFailure:mcp__srv__get hook blocking error from command: "` + post + `": result looks wrong`}
	if diff := cmp.Diff(want, r.PostFailure(context.Background(), call(), errors.New("x"), false)); diff != "" {
		t.Errorf("PostToolUseFailure (-want +got):\n%s", diff)
	}
}

// TestHOOK5_FailOpen (HOOK-5): a hook that crashes, cannot start, times
// out, or an endpoint that answers 500 or not at all, lets the call
// through and is reported; a timed-out hook's children die with it.
func TestHOOK5_FailOpen(t *testing.T) {
	t.Cleanup(leaktest.Check(t))
	dir := t.TempDir()
	crash := script(t, dir, "crash.sh", "cat >/dev/null; echo 'segfault, sort of' >&2; exit 1\n")
	slow := script(t, dir, "slow.sh", "sleep 30\n")
	down := newEndpoint(t, 200, "")
	down.Close()
	broken := newEndpoint(t, 500, "database locked")
	r, fails := runner(t, dir, on(PreToolUse,
		cmd(crash, 0), cmd(slow, 0.3), cmd(filepath.Join(dir, "missing.sh"), 0), httpHook(broken.URL), httpHook(down.URL)))
	start := time.Now()
	if res := r.Pre(context.Background(), call()); res.Decision != NoDecision {
		t.Errorf("fail-open: %+v", res)
	}
	if d := time.Since(start); d > 20*time.Second { // a hang guard: the hook sleeps 30 s
		t.Errorf("the timed-out hook held the call for %v", d)
	}
	got := map[string]string{}
	for _, f := range fails.all() {
		if f.Blocked {
			t.Errorf("%s blocked", f.Command)
		}
		got[f.Command] = f.Err.Error() + "|" + f.Stderr
	}
	for hook, want := range map[string]string{
		crash: "exit status 1|segfault, sort of", slow: "timed out after 300ms",
		filepath.Join(dir, "missing.sh"): "exit status 127 (the command was not found)",
		broken.URL:                       "500 Internal Server Error: database locked",
		down.URL:                         "connection refused",
	} {
		if !strings.Contains(got[hook], want) {
			t.Errorf("%s: %q, want %q in it", hook, got[hook], want)
		}
	}
}

// TestHOOK5_FailClosed: with "onFailure": "block", a failing guard hook
// refuses the call and says why.
func TestHOOK5_FailClosed(t *testing.T) {
	dir := t.TempDir()
	h := cmd(filepath.Join(dir, "missing.sh"), 0)
	h.OnFailure = "block"
	r, fails := runner(t, dir, on(PreToolUse, h))
	res := r.Pre(context.Background(), call())
	if res.Decision != Deny || !strings.Contains(res.Blocked.Error(), `failed and blocked the call (onFailure is "block")`) {
		t.Errorf("fail-closed: %+v", res)
	}
	if f := fails.all(); len(f) != 1 || !f[0].Blocked {
		t.Errorf("the failure must be reported as blocking: %v", f)
	}
}

// TestHTTPHeaders: header variables are expanded only when
// allowedEnvVars lists them.
func TestHTTPHeaders(t *testing.T) {
	ep := newEndpoint(t, 200, "")
	h := httpHook(ep.URL)
	h.Headers = map[string]string{"Authorization": "Bearer ${TOKEN}", "X-Other": "a$OTHER-b", "X-Plain": "$TOKEN"}
	h.AllowedEnvVars = []string{"TOKEN"}
	r, _ := runner(t, t.TempDir(), on(PreToolUse, h))
	r.Pre(context.Background(), call())
	req := ep.requests[0]
	for k, want := range map[string]string{"Authorization": "Bearer secret-TOKEN", "X-Other": "a-b", "X-Plain": "secret-TOKEN"} {
		if got := req.Header.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
}
