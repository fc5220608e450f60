package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/hooks"
	"github.com/execlua/execlua/host/permission"
	"github.com/execlua/execlua/host/servers"
	"github.com/google/go-cmp/cmp"
)

// hooksJSON renders a settings file with one hook per event and matcher.
func hooksJSON(extra string, entries ...[3]string) string {
	events := map[string][]string{}
	for _, e := range entries {
		events[e[0]] = append(events[e[0]], fmt.Sprintf(`{"matcher": %q, "hooks": [{"type": "command", "command": %q, "timeout": 10}]}`, e[1], e[2]))
	}
	var parts []string
	for _, ev := range []string{hooks.PreToolUse, hooks.PermissionRequest, hooks.PostToolUse, hooks.PostToolUseFailure} {
		if len(events[ev]) > 0 {
			parts = append(parts, fmt.Sprintf("%q: [%s]", ev, strings.Join(events[ev], ",")))
		}
	}
	s := `{"hooks": {` + strings.Join(parts, ",") + `}`
	if extra != "" {
		s += ", " + extra
	}
	return s + "}"
}

// TestPERM1_NestedCallAsksLikeAFlatCall: with no rule, a nested call asks
// the user the question a flat call of the same tool asks; "yes, don't
// ask again" saves a rule for the leaf's full name in the local file, and
// the next call asks nothing.
func TestPERM1_NestedCallAsksLikeAFlatCall(t *testing.T) {
	e := setup(t, map[string]string{"local": `{"permissions": {"deny": ["WebSearch"]}, "other": {"kept": true}}`}, nil)
	e.prompts.answer = host.AllowOnce
	args := json.RawMessage(`{"id":7}`)
	if _, err := e.h.Call(context.Background(), execlua.Call{Name: "mcp__fx__echo", Args: args}); err != nil {
		t.Fatal(err)
	}
	res := e.run(`return tools.mcp__fx__echo{ id = 7 }`)
	if res.IsError || res.Text != `{"id":7}` {
		t.Fatalf("nested: %+v", res)
	}
	q := e.prompts.asked()
	if len(q) != 2 {
		t.Fatalf("%d questions, want one per call", len(q))
	}
	for _, q := range q {
		q.Tool.InputSchema, q.Tool.OutputSchema = nil, nil
	}
	if diff := cmp.Diff(q[0], q[1]); diff != "" {
		t.Errorf("flat and nested questions differ (-flat +nested):\n%s", diff)
	}
	if q[1].Tool.Name != "mcp__fx__echo" || q[1].Rule != "mcp__fx__echo" || string(q[1].Args) != `{"id":7}` {
		t.Errorf("question: %+v", q[1])
	}

	e.prompts.answer = host.AllowAlways
	if res := e.run(`return tools.mcp__fx__text()`); res.IsError {
		t.Fatal(res.Text)
	}
	data, _ := os.ReadFile(e.paths.Local)
	var local map[string]any
	if err := json.Unmarshal(data, &local); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"permissions": map[string]any{"deny": []any{"WebSearch"}, "allow": []any{"mcp__fx__text"}},
		"other":       map[string]any{"kept": true},
	}
	if diff := cmp.Diff(want, local); diff != "" {
		t.Errorf("local settings (-want +got):\n%s", diff)
	}
	n := len(e.prompts.asked())
	if res := e.run(`tools.mcp__fx__text(); return tools.mcp__fx__text()`); res.IsError {
		t.Fatal(res.Text)
	}
	if got := len(e.prompts.asked()); got != n {
		t.Errorf("asked %d more times after allow always", got-n)
	}
}

// TestPERM2_AllowRuleForTheLeaf: an allow rule for the leaf lets nested
// calls through without asking; an allow rule for Exec does not.
func TestPERM2_AllowRuleForTheLeaf(t *testing.T) {
	e := setup(t, map[string]string{"project": `{"permissions": {"allow": ["mcp__fx__text", "Exec"]}}`}, nil)
	if res := e.run(`return tools.mcp__fx__text()`); res.IsError || res.Text != "line one\nline two" {
		t.Errorf("allowed leaf: %+v", res)
	}
	res := e.run(`local ok, err = pcall(tools.mcp__fx__structured); return err`)
	if res.IsError || res.Text != "The user refused permission to use mcp__fx__structured." {
		t.Errorf("a leaf with no rule, Exec allowed: %q", res.Text)
	}
	if q := e.prompts.asked(); len(q) != 1 || q[0].Tool.Name != "mcp__fx__structured" {
		t.Errorf("questions: %+v", q)
	}
	// Every tool of a server.
	e = setup(t, map[string]string{"user": `{"permissions": {"allow": ["mcp__fx"]}}`}, nil)
	if res := e.run(`return tools.mcp__fx__structured().value`); res.IsError || res.Text != "42" {
		t.Errorf("server rule: %+v", res)
	}
	if len(e.prompts.asked()) != 0 {
		t.Error("asked despite the server rule")
	}
}

// TestPERM3_DenyReasonReachesTheScript: a deny rule for the leaf refuses
// the nested call, and the script reads why; a whole-tool deny takes the
// tool out of the pool (POOL-9).
func TestPERM3_DenyReasonReachesTheScript(t *testing.T) {
	e := setup(t, map[string]string{"managed": `{"permissions": {"allow": ["mcp__fx"], "deny": ["mcp__fx__echo(*secret*)", "mcp__fx__fail"]}}`}, nil)
	res := e.run(`
local ok, err = pcall(tools.mcp__fx__echo, { note = "the secret plan" })
print(ok, err)
return tools.mcp__fx__echo{ note = "fine" }`)
	want := "Printed output:\nfalse\tPermission to use mcp__fx__echo has been denied by the rule \"mcp__fx__echo(*secret*)\" in the managed settings (" + e.paths.Managed + ").\n\nReturn value:\n{\"note\":\"fine\"}"
	if res.IsError || res.Text != want {
		t.Errorf("result:\n%s\nwant:\n%s", res.Text, want)
	}
	if slices.Contains(e.pooled(), "mcp__fx__fail") || slices.Contains(e.declared(), "mcp__fx__fail") {
		t.Error("a denied tool is still offered (POOL-9)")
	}
	_, err := e.h.Call(context.Background(), execlua.Call{Name: "mcp__fx__echo", Args: json.RawMessage(`{"x":"secret"}`)})
	if !errors.Is(err, permission.ErrDenied) {
		t.Errorf("flat call: %v", err)
	}
	// PERM-4: a refusal the script does not catch fails the Exec with it.
	res = e.run(`return tools.mcp__fx__echo{ note = "secret" }`)
	if !res.IsError || !strings.Contains(res.Text, `denied by the rule "mcp__fx__echo(*secret*)"`) {
		t.Errorf("uncaught: %+v", res)
	}
}

// TestHOOK1_HooksFireForNestedCalls (HOOK-1): hooks whose matcher names a pool tool
// (an MCP tool, a deferred builtin) fire for nested calls, matched and fed
// with the leaf.
func TestHOOK1_HooksFireForNestedCalls(t *testing.T) {
	dir := t.TempDir()
	logger := filepath.Join(dir, "log.sh")
	os.WriteFile(logger, []byte("#!/bin/sh\ncat >> "+filepath.Join(dir, "log")+"\necho >> "+filepath.Join(dir, "log")+"\n"), 0o755)
	e := setup(t, map[string]string{"project": hooksJSON(`"permissions": {"allow": ["mcp__fx", "TaskList"]}`,
		[3]string{hooks.PreToolUse, "mcp__fx__echo|TaskList", logger},
		[3]string{hooks.PostToolUse, "mcp__fx__echo", logger})}, nil)
	if !slices.Contains(e.pooled(), "TaskList") {
		t.Fatalf("TaskList is not in the pool: %v", e.pooled())
	}
	res := e.run(`tools.TaskList(); tools.mcp__fx__text(); return tools.mcp__fx__echo{ a = 1 }`)
	if res.IsError {
		t.Fatal(res.Text)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "log"))
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var in map[string]any
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			t.Fatalf("hook stdin %q: %v", line, err)
		}
		resp, _ := json.Marshal(in["tool_response"])
		input, _ := json.Marshal(in["tool_input"])
		got = append(got, fmt.Sprintf("%s %s %s %s", in["hook_event_name"], in["tool_name"], input, resp))
	}
	want := []string{
		`PreToolUse TaskList {} null`,
		`PreToolUse mcp__fx__echo {"a":1} null`,
		`PostToolUse mcp__fx__echo {"a":1} {"content":[{"text":"{\"a\":1}","type":"text"}],"structuredContent":{"a":1}}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hook calls (-want +got):\n%s", diff)
	}
}

// TestHOOK2_PreToolUseBlocks: exit 2 rejects the nested call with
// "PreToolUse:<leaf> hook error: <stderr>": catchable, and uncaught it
// fails the Exec with that text. The blocked call still counts (HOOK-4).
func TestHOOK2_PreToolUseBlocks(t *testing.T) {
	e := setup(t, nil, nil)
	block := e.hookScript("block.sh", "cat >/dev/null; echo 'not today' >&2; exit 2\n")
	e.write("local", hooksJSON(`"permissions": {"allow": ["mcp__fx"]}`, [3]string{hooks.PreToolUse, "mcp__fx__text", block}))
	e.until("the hook to load", func() bool {
		_, err := e.h.Call(context.Background(), execlua.Call{Name: "mcp__fx__text"})
		return err != nil && strings.Contains(err.Error(), "hook error")
	})
	res := e.run(`local ok, err = pcall(tools.mcp__fx__text); return err`)
	if res.IsError || res.Text != "PreToolUse:mcp__fx__text hook error: not today" {
		t.Errorf("caught: %q", res.Text)
	}
	res = e.run(`return tools.mcp__fx__text()`)
	if !res.IsError || !strings.Contains(res.Text, "PreToolUse:mcp__fx__text hook error: not today") {
		t.Errorf("uncaught: %q", res.Text)
	}
	if !slices.Equal(res.Calls, []string{"mcp__fx__text"}) {
		t.Errorf("calls: %v", res.Calls)
	}
	// HOOK-7: a flat call reads the same text.
	_, err := e.h.Call(context.Background(), execlua.Call{Name: "mcp__fx__text"})
	if err == nil || err.Error() != "PreToolUse:mcp__fx__text hook error: not today" {
		t.Errorf("flat: %v", err)
	}
}

// TestHOOK3_PostToolUseMessage: a PostToolUse exit 2 after a successful
// nested call appends the isMeta message and the script goes on; a flat
// call produces the same message (HOOK-7).
func TestHOOK3_PostToolUseMessage(t *testing.T) {
	e := setup(t, nil, nil)
	post := e.hookScript("post.sh", "cat >/dev/null; echo 'check the output' >&2; exit 2\n")
	e.write("project", hooksJSON(`"permissions": {"allow": ["mcp__fx"]}`, [3]string{hooks.PostToolUse, "mcp__fx__.*", post}))
	e.until("the hook to load", func() bool {
		e.h.Call(context.Background(), execlua.Call{Name: "mcp__fx__text"})
		return len(e.messagesSoFar()) > 0
	})
	flat := e.messagesSoFar()[0]
	want := `PostToolUse:mcp__fx__text hook blocking error from command: "` + post + `": check the output`
	if flat != want {
		t.Errorf("flat message %q, want %q", flat, want)
	}
	var own []string
	ctx := host.WithMessages(context.Background(), func(m string) { own = append(own, m) })
	input, _ := json.Marshal(map[string]string{"code": `local a = tools.mcp__fx__text(); return a .. "!"`})
	res := e.h.RunExec(ctx, e.s, input, nil)
	if res.IsError || res.Text != "line one\nline two!" {
		t.Errorf("the script must go on: %+v", res)
	}
	if !slices.Equal(own, []string{want}) {
		t.Errorf("nested messages %q, want the flat one", own)
	}
}

// TestHOOK5_FailOpen (HOOK-5): a hook that fails or times out lets the call
// through and is reported.
func TestHOOK5_FailOpen(t *testing.T) {
	e := setup(t, nil, nil)
	crash := e.hookScript("crash.sh", "cat >/dev/null; echo oops >&2; exit 3\n")
	slow := e.hookScript("slow.sh", "sleep 30\n")
	e.write("local", `{"permissions": {"allow": ["mcp__fx"]}, "hooks": {"PreToolUse": [{"matcher": "mcp__fx__text", "hooks": [
		{"type": "command", "command": "`+crash+`"},
		{"type": "command", "command": "`+slow+`", "timeout": 0.2}]}]}}`)
	e.until("the hooks to load", func() bool { return e.h.SettingsFiles().Hooks(hooks.PreToolUse) != nil })
	res := e.run(`return tools.mcp__fx__text()`)
	if res.IsError || res.Text != "line one\nline two" {
		t.Errorf("fail-open: %+v", res)
	}
	var got []string
	for _, r := range e.h.Reports() {
		if r.Source == "hooks" {
			got = append(got, r.String())
		}
	}
	if len(got) != 2 || !strings.Contains(strings.Join(got, "\n"), "exit status 3") || !strings.Contains(strings.Join(got, "\n"), "timed out after 200ms") {
		t.Errorf("reports: %q", got)
	}
}

// TestHOOK6_ExecHooksFireAsAFlatTools: Exec's own PreToolUse and
// PostToolUse hooks fire as for any flat tool, with Exec's input and
// result; a blocking one stops Exec before a sandbox starts; ToolSearch
// inside the script fires no hook.
func TestHOOK6_ExecHooksFireAsAFlatTools(t *testing.T) {
	dir := t.TempDir()
	logFile := filepath.Join(dir, "log")
	logger := filepath.Join(dir, "log.sh")
	os.WriteFile(logger, []byte("#!/bin/sh\ncat >> "+logFile+"\necho >> "+logFile+"\n"), 0o755)
	e := setup(t, map[string]string{"user": hooksJSON(`"permissions": {"allow": ["mcp__fx"]}`,
		[3]string{hooks.PreToolUse, "*", logger}, [3]string{hooks.PostToolUse, "*", logger})}, nil)
	res := e.run(`local found = tools.ToolSearch{ query = "text" }; return #found.matches > 0`)
	if res.IsError || res.Text != "true" {
		t.Fatalf("run: %+v", res)
	}
	data, _ := os.ReadFile(logFile)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 {
		t.Fatalf("hook calls: %q; want Exec's two and none for ToolSearch", lines)
	}
	var pre, post map[string]any
	json.Unmarshal([]byte(lines[0]), &pre)
	json.Unmarshal([]byte(lines[1]), &post)
	if pre["hook_event_name"] != "PreToolUse" || pre["tool_name"] != "Exec" || !strings.Contains(fmt.Sprint(pre["tool_input"]), "ToolSearch") {
		t.Errorf("pre: %v", pre)
	}
	if post["tool_name"] != "Exec" || fmt.Sprint(post["tool_response"]) != "map[content:[map[text:true type:text]]]" {
		t.Errorf("post: %v", post)
	}

	block := e.hookScript("block.sh", "cat >/dev/null; echo 'no scripts today' >&2; exit 2\n")
	e.write("local", hooksJSON("", [3]string{hooks.PreToolUse, "Exec", block}))
	e.until("the hook to load", func() bool { return len(e.h.SettingsFiles().Layer(2).Hooks) > 0 })
	res = e.run(`tools.mcp__fx__text(); return 1`)
	if !res.IsError || res.Text != "PreToolUse:Exec hook error: no scripts today" || len(res.Calls) != 0 {
		t.Errorf("blocked Exec: %+v", res)
	}
}

// TestPOOL5_AlwaysLoad: a tool's _meta alwaysLoad keeps it flat; the
// server entry's alwaysLoad keeps all its tools flat.
func TestPOOL5_AlwaysLoad(t *testing.T) {
	e := setup(t, nil, nil)
	if !slices.Contains(e.declared(), "mcp__fx__meta") || slices.Contains(e.pooled(), "mcp__fx__meta") || !slices.Contains(e.pooled(), "mcp__fx__text") {
		t.Errorf("declared %v pooled %v", e.declared(), e.pooled())
	}
	cfg := stdioConfig(t)
	cfg.AlwaysLoad = true
	e = setup(t, nil, &host.Options{Servers: map[string]host.ServerConfig{"fx": cfg}})
	if slices.ContainsFunc(e.pooled(), func(n string) bool { return strings.HasPrefix(n, "mcp__fx__") }) {
		t.Errorf("pooled %v", e.pooled())
	}
}

// TestPOOL10_ReachableFollowsConnections: each run reaches the pool as it
// is then. A server that crashed keeps its tools in the pool while it
// restarts (no flapping); a call made meanwhile waits for it, and its
// tools work again once it is back.
func TestPOOL10_ReachableFollowsConnections(t *testing.T) {
	e := setup(t, map[string]string{"local": `{"permissions": {"allow": ["mcp__fx"]}}`}, nil)
	pooled := e.pooled()
	res := e.run(`local ok, err = pcall(tools.mcp__fx__crash); return err`)
	if res.IsError || !strings.Contains(res.Text, "fixture: crashing now") {
		t.Fatalf("crash: %+v", res)
	}
	if !slices.Equal(e.pooled(), pooled) || !slices.Contains(e.declared(), execlua.Name) {
		t.Errorf("the pool changed with the crash: %v, declared %v", e.pooled(), e.declared())
	}
	if res := e.run(`return tools.mcp__fx__text()`); res.IsError {
		t.Errorf("after the crash: %+v, want the call to wait for the restart", res)
	}
	if st := e.h.Servers()[0]; st.State != servers.Ready || st.Restarts != 1 {
		t.Errorf("status: %+v", st)
	}
}

// TestPOOL12_NonDeferredReload: a non-deferred list written into the
// local or managed file while running moves the builtin out of the pool.
func TestPOOL12_NonDeferredReload(t *testing.T) {
	for _, layer := range []string{"local", "managed"} {
		t.Run(layer, func(t *testing.T) {
			e := setup(t, nil, nil)
			if !slices.Contains(e.pooled(), "TaskList") {
				t.Fatalf("pooled: %v", e.pooled())
			}
			e.write(layer, `{"nonDeferredTools": ["TaskList", "NoSuchTool"]}`)
			e.until("TaskList to be declared", func() bool { return slices.Contains(e.declared(), "TaskList") })
			if slices.Contains(e.pooled(), "TaskList") || !slices.Contains(e.declared(), execlua.Name) {
				t.Errorf("declared %v pooled %v", e.declared(), e.pooled())
			}
		})
	}
}

// TestFLAG4_RemoteBeatsLocal, TestFLAG5 and FLAG-6 at the host: the
// managed layer's enableExec beats the local file's, a change while
// running takes effect at once, and a deny rule for Exec switches it off.
func TestFLAG4_RemoteBeatsLocal(t *testing.T) {
	e := setup(t, map[string]string{"local": `{"enableExec": false}`, "managed": `{"enableExec": true}`}, nil)
	if !e.h.Settings().ExecEnabled() || !slices.Contains(e.declared(), execlua.Name) {
		t.Error("the managed layer must win")
	}
	// FLAG-5: the managed value goes; the local false applies at once.
	e.write("managed", `{}`)
	e.until("Exec to go", func() bool { return !slices.Contains(e.declared(), execlua.Name) })
	if !slices.Contains(e.declared(), "mcp__fx__text") {
		t.Errorf("pool tools must be declared flat: %v", e.declared())
	}
	e.write("local", `{"enableExec": true}`)
	e.until("Exec to return", func() bool { return slices.Contains(e.declared(), execlua.Name) })
	// FLAG-6: a deny rule for Exec.
	e.write("project", `{"permissions": {"deny": ["Exec"]}}`)
	e.until("Exec to be denied", func() bool { return !slices.Contains(e.declared(), execlua.Name) })
	if res := e.run(`return 1`); !res.IsError || !errors.Is(res.Err, execlua.ErrUnavailable) && !errors.Is(res.Err, permission.ErrDenied) {
		t.Errorf("a denied Exec ran: %+v", res)
	}
}

// TestInvalidSettingsKeepLastGood: a broken file is reported with file,
// line and column and the last good settings stay.
func TestInvalidSettingsKeepLastGood(t *testing.T) {
	e := setup(t, map[string]string{"local": `{"nonDeferredTools": ["TaskList"]}`}, nil)
	e.write("local", "{\n  \"nonDeferredTools\": [\"TaskList\",]\n}")
	e.until("the report", func() bool {
		for _, r := range e.h.Reports() {
			if r.Source == "settings" && strings.Contains(r.Err.Error(), e.paths.Local+":2:") {
				return true
			}
		}
		return false
	})
	if !slices.Contains(e.declared(), "TaskList") {
		t.Error("the last good settings were dropped")
	}
}

// TestListChangedReachesSessions: a server's new tool reaches the pool.
func TestListChangedReachesSessions(t *testing.T) {
	e := setup(t, map[string]string{"local": `{"permissions": {"allow": ["mcp__fx"]}}`}, nil)
	if res := e.run(`return tools.mcp__fx__add_tool()`); res.IsError {
		t.Fatal(res.Text)
	}
	e.until("the new tool", func() bool { return slices.Contains(e.pooled(), "mcp__fx__late") })
	if res := e.run(`return tools.mcp__fx__late()`); res.Text != "late" {
		t.Errorf("late: %+v", res)
	}
}

// TestExecuteMiddleware: Options.Execute wraps execution after the
// permission check and the PreToolUse hooks.
func TestExecuteMiddleware(t *testing.T) {
	var seen []string
	e := setup(t, map[string]string{"local": `{"permissions": {"allow": ["mcp__fx"], "deny": ["mcp__fx__echo(*x*)"]}}`}, &host.Options{
		Execute: func(next host.Executor) host.Executor {
			return func(ctx context.Context, tool execlua.Tool, call execlua.Call) (execlua.Output, error) {
				seen = append(seen, tool.Name)
				if tool.Annotations.ReadOnly() {
					return next(ctx, tool, call)
				}
				return execlua.Output{Text: []string{"dry run: " + tool.Name}}, nil
			}
		},
	})
	res := e.run(`pcall(tools.mcp__fx__echo, { a = "x" }); return tools.mcp__fx__crash()`)
	if res.IsError || res.Text != "dry run: mcp__fx__crash" || !slices.Equal(seen, []string{"mcp__fx__crash"}) {
		t.Errorf("%+v, seen %v", res, seen)
	}
}

// TestNoPrompter: without a prompter, a call no rule allows is refused
// with a reason that says how to allow it.
func TestNoPrompter(t *testing.T) {
	e := setup(t, nil, &host.Options{Prompter: host.PrompterFunc(func(context.Context, host.PermissionQuestion) (host.PermissionAnswer, error) {
		return host.Deny, errors.New("the terminal is gone")
	})})
	_, err := e.h.Call(context.Background(), execlua.Call{Name: "mcp__fx__text"})
	if err == nil || err.Error() != "Permission to use mcp__fx__text was not granted: the terminal is gone" {
		t.Errorf("%v", err)
	}
	if _, err := e.h.Call(context.Background(), execlua.Call{Name: "NoSuchTool"}); !errors.Is(err, host.ErrUnknownTool) {
		t.Errorf("unknown: %v", err)
	}
}

// TestPreToolUseUpdatedInput: a PreToolUse hook that answers with
// hookSpecificOutput.updatedInput replaces a nested call's input, as it
// does a flat call's; the PostToolUse hooks see the replaced input; a
// replacement that a deny rule refuses is refused; the first hook in
// listed order wins. Settings kept for Claude Code carry such hooks: one
// that sanitises an input must not be ignored.
func TestPreToolUseUpdatedInput(t *testing.T) {
	dir := t.TempDir()
	logFile := filepath.Join(dir, "post.log")
	e := setup(t, nil, nil)
	rewrite := e.hookScript("rewrite.sh", `in=$(cat)
case "$in" in
  *'"id":1'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"id":2,"by":"hook"}}}';;
  *'"id":3'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"secret":"x"}}}';;
esac
`)
	second := e.hookScript("second.sh", `cat >/dev/null; echo '{"hookSpecificOutput":{"updatedInput":{"id":99}}}'`+"\n")
	post := e.hookScript("post.sh", "cat >> "+logFile+"; echo >> "+logFile+"\n")
	e.write("local", `{"permissions": {"allow": ["mcp__fx"], "deny": ["mcp__fx__echo(*x*)"]}, "hooks": {
		"PreToolUse": [{"matcher": "mcp__fx__echo", "hooks": [{"type": "command", "command": "`+rewrite+`"}]},
		               {"matcher": "mcp__fx__echo", "hooks": [{"type": "command", "command": "`+second+`"}]}],
		"PostToolUse": [{"matcher": "mcp__fx__echo", "hooks": [{"type": "command", "command": "`+post+`"}]}]}}`)
	e.until("the hooks to load", func() bool { return e.h.SettingsFiles().Hooks(hooks.PreToolUse) != nil })

	res := e.run(`return tools.mcp__fx__echo{ id = 1 }`)
	if res.IsError || res.Text != `{"by":"hook","id":2}` {
		t.Errorf("nested: %+v", res)
	}
	out, err := e.h.Call(context.Background(), execlua.Call{Name: "mcp__fx__echo", Args: json.RawMessage(`{"id":1}`)})
	if err != nil || string(out.Structured) != `{"by":"hook","id":2}` {
		t.Errorf("flat: %s %v", out.Structured, err)
	}
	data, _ := os.ReadFile(logFile)
	var seen map[string]any
	if err := json.Unmarshal([]byte(strings.SplitN(string(data), "\n", 2)[0]), &seen); err != nil || fmt.Sprint(seen["tool_input"]) != "map[by:hook id:2]" {
		t.Errorf("PostToolUse saw %v (%v)", seen["tool_input"], err)
	}
	res = e.run(`local ok, err = pcall(tools.mcp__fx__echo, { id = 3 }); return err`)
	if res.IsError || !strings.Contains(res.Text, `denied by the rule "mcp__fx__echo(*x*)"`) {
		t.Errorf("a replacement a rule denies: %+v", res)
	}
	// Only the second hook answers for id 5: its input is used.
	res = e.run(`return tools.mcp__fx__echo{ id = 5 }`)
	if res.IsError || res.Text != `{"id":99}` {
		t.Errorf("second hook: %+v", res)
	}
}

// TestDontAskModeAppliesToTheLeaves (PERM-2, PERM-5): in the dontAsk mode
// Exec, which needs no permission of its own, runs; its nested calls are
// allowed by their rules and refused, without a question, where no rule
// allows them. Only a rule naming Exec refuses Exec.
func TestDontAskModeAppliesToTheLeaves(t *testing.T) {
	e := setup(t, map[string]string{"project": `{"permissions": {"defaultMode": "dontAsk", "allow": ["mcp__fx__text"]}}`}, nil)
	res := e.run(`local ok, err = pcall(tools.mcp__fx__structured); return { tools.mcp__fx__text(), err }`)
	want := `["line one\nline two","Permission to use mcp__fx__structured has been denied: no rule allows it and the permission mode is dontAsk (permissions.defaultMode)."]`
	if res.IsError || res.Text != want {
		t.Errorf("result: %q\nwant %q", res.Text, want)
	}
	if q := e.prompts.asked(); len(q) != 0 {
		t.Errorf("questions in the dontAsk mode: %+v", q)
	}
	e = setup(t, map[string]string{"project": `{"permissions": {"defaultMode": "dontAsk", "allow": ["mcp__fx__text"], "ask": ["Exec"]}}`}, nil)
	if res := e.run(`return tools.mcp__fx__text()`); !res.IsError || res.Text != "The user refused permission to use Exec." {
		t.Errorf("an ask rule for Exec: %+v", res)
	}
}

// TestArgumentsMustBeAnObject: a flat call whose arguments are not a JSON
// object is refused before any rule, hook or server, with a clear error;
// malformed JSON used to reach mcp-go, whose failure to encode it read as
// a transport error and took the server out of the pool.
func TestArgumentsMustBeAnObject(t *testing.T) {
	e := setup(t, map[string]string{"user": `{"permissions": {"allow": ["mcp__fx"]}}`}, nil)
	for _, args := range []string{`not json`, `[1]`, `"s"`, `{"a":1`} {
		_, err := e.h.Call(context.Background(), execlua.Call{Name: "mcp__fx__echo", Args: json.RawMessage(args)})
		if !errors.Is(err, host.ErrInvalidArguments) || !strings.Contains(err.Error(), "the arguments of mcp__fx__echo must be a JSON object") {
			t.Errorf("%s: %v", args, err)
		}
	}
	if !slices.Contains(e.pooled(), "mcp__fx__echo") {
		t.Fatalf("the server left the pool: %v", e.pooled())
	}
	if out, err := e.h.Call(context.Background(), execlua.Call{Name: "mcp__fx__echo", Args: json.RawMessage(` {"a":1}`)}); err != nil || string(out.Structured) != `{"a":1}` {
		t.Errorf("a good call after the bad ones: %s, %v", out.Structured, err)
	}
	// No arguments, as an MCP client may send them, are an empty object.
	if out, err := e.h.Call(context.Background(), execlua.Call{Name: "mcp__fx__echo", Args: json.RawMessage(`null`)}); err != nil || string(out.Structured) != `{}` {
		t.Errorf("null arguments: %s, %v", out.Structured, err)
	}
	if len(e.prompts.asked()) != 0 {
		t.Errorf("asked about a malformed call: %v", e.prompts.asked())
	}
}
