package host_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/hooks"
)

// A Go host's own hooks (Options.Hooks) sit in the same chain as the
// command hooks, right after them, with the same decisions: a Deny refuses
// with a command hook's text (HOOK-2), an Input replaces the arguments the
// rules and the tool see, an Ask puts the question to the Prompter even
// where an allow rule matches, and a Post hook's blocking message reaches
// the model (HOOK-3).
func TestGoHooksInTheHostsChain(t *testing.T) {
	var hooked host.Options
	hooked.Hooks = &execlua.Hooks{
		Pre: []func(context.Context, execlua.Call) execlua.PreDecision{
			func(_ context.Context, call execlua.Call) execlua.PreDecision {
				switch string(call.Args) {
				case `{"id":13}`:
					return execlua.PreDecision{Deny: "13 is unlucky"}
				case `{"id":1}`:
					return execlua.PreDecision{Input: json.RawMessage(`{"id":100}`)}
				case `{"id":7}`:
					return execlua.PreDecision{Ask: true}
				}
				return execlua.PreDecision{}
			},
		},
		Post: []func(context.Context, execlua.Call, execlua.Output) execlua.PostDecision{
			func(_ context.Context, call execlua.Call, _ execlua.Output) execlua.PostDecision {
				if call.Name == "mcp__fx__echo" {
					return execlua.PostDecision{Block: "seen " + string(call.Args)}
				}
				return execlua.PostDecision{}
			},
		},
	}
	e := setup(t, nil, &hooked)
	seen := filepath.Join(e.dir, "seen.jsonl")
	logHook := e.hookScript("log.sh", "cat >> "+seen+"; echo >> "+seen+"\n")
	e.write("local", hooksJSON(`"permissions": {"allow": ["mcp__fx__echo"]}`, [3]string{hooks.PreToolUse, "mcp__fx__echo", logHook}))
	e.until("the rule and the command hook to load", func() bool {
		_, err := e.h.Call(context.Background(), execlua.Call{Name: "mcp__fx__echo", Args: json.RawMessage(`{"id":2}`)})
		b, _ := os.ReadFile(seen)
		return err == nil && len(b) > 0
	})

	res := e.run(`
		local a = tools.mcp__fx__echo{ id = 1 }
		local ok13, e13 = pcall(tools.mcp__fx__echo, { id = 13 })
		local ok7, e7 = pcall(tools.mcp__fx__echo, { id = 7 })
		return { a, e13, e7 }`)
	if res.IsError {
		t.Fatalf("run failed: %s", res.Text)
	}
	for _, want := range []string{`{"id":100}`, "PreToolUse:mcp__fx__echo hook error: 13 is unlucky", "refused permission to use mcp__fx__echo"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("result lacks %s:\n%s", want, res.Text)
		}
	}
	// Questions asked while the rule was loading are about id 2; the
	// script's calls bring one, about id 7.
	var q []host.PermissionQuestion
	for _, one := range e.prompts.asked() {
		if string(one.Args) != `{"id":2}` {
			q = append(q, one)
		}
	}
	if len(q) != 1 || string(q[0].Args) != `{"id":7}` || q[0].Cause != host.HookAsked || !strings.Contains(q[0].Why, "Go PreToolUse hook") {
		t.Errorf("%d questions (%v), want one for id 7, asked by the Go hook", len(q), q)
	}
	e.mu.Lock()
	messages := slices.Clone(e.messages)
	e.mu.Unlock()
	if !slices.Contains(messages, `PostToolUse:mcp__fx__echo hook blocking error: seen {"id":100}`) {
		t.Errorf("messages = %q, want the Post hook's, with the replaced input", messages)
	}
	// The command hook ran first: it saw the call as the script made it.
	raw, err := os.ReadFile(seen)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"tool_input":{"id":1}`) {
		t.Errorf("the command hook saw:\n%s\nwant the script's own arguments, {\"id\":1}", raw)
	}
}
