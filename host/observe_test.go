package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/hooks"
)

// An observer sees every nested call of a run when it ends, with the
// arguments performed and who decided (a rule, a hook, the user, the
// permission mode), and then Exec itself.
func TestObserverSeesWhoDecided(t *testing.T) {
	block := filepath.Join(t.TempDir(), "block.sh")
	if err := os.WriteFile(block, []byte("#!/bin/sh\ncat >/dev/null; echo 'not this one' >&2; exit 2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := setup(t, map[string]string{"project": hooksJSON(`"permissions": {"allow": ["mcp__fx__text", "mcp__fx__fail"], "deny": ["mcp__fx__echo(*secret*)"]}`,
		[3]string{hooks.PreToolUse, "mcp__fx__fail", block})}, nil)
	var mu sync.Mutex
	var got []host.CallRecord
	ctx := host.WithObserver(context.Background(), func(rec host.CallRecord) {
		mu.Lock()
		got = append(got, rec)
		mu.Unlock()
	})
	input, _ := json.Marshal(map[string]string{"code": `
tools.mcp__fx__text()
pcall(tools.mcp__fx__echo, { note = "secret" })
pcall(tools.mcp__fx__fail)
pcall(tools.mcp__fx__structured)
return "done"`})
	if res := e.h.RunExec(ctx, e.s, input, nil); res.IsError {
		t.Fatalf("Exec: %s", res.Text)
	}
	type seen struct {
		Name     string
		Args     string
		Decision host.Decision
		Failed   bool
	}
	var calls []seen
	for _, rec := range got {
		calls = append(calls, seen{rec.Name, string(rec.Args), rec.Decision, rec.Err != nil})
		if rec.Duration <= 0 {
			t.Errorf("%s took no time", rec.Name)
		}
	}
	want := []seen{
		{"mcp__fx__text", "{}", host.Decision{Allowed: true, By: "rule", Rule: "mcp__fx__text"}, false},
		{"mcp__fx__echo", `{"note":"secret"}`, host.Decision{By: "rule", Rule: "mcp__fx__echo(*secret*)"}, true},
		{"mcp__fx__fail", "{}", host.Decision{By: "hook"}, true},
		{"mcp__fx__structured", "{}", host.Decision{By: "user"}, true}, // the prompter says no
		{execlua.Name, string(input), host.Decision{Allowed: true, By: "mode"}, false},
	}
	if d := cmp.Diff(want, calls); d != "" {
		t.Errorf("observed calls (-want +got):\n%s", d)
	}
	// A call of no tool is observed with nothing decided.
	got = nil
	if _, err := e.h.Call(ctx, execlua.Call{Name: "NoSuchTool"}); !errors.Is(err, host.ErrUnknownTool) {
		t.Errorf("unknown tool: %v", err)
	}
	if len(got) != 1 || got[0].Decision != (host.Decision{}) || !errors.Is(got[0].Err, host.ErrUnknownTool) {
		t.Errorf("unknown tool observed as %+v", got)
	}
}
