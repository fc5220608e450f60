package host_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/hooks"
)

// Go tools as the reference host's builtins: the host's permission rules
// and command hooks wrap them unchanged, and a hook's updatedInput is
// checked against the Go tool's schema before the function runs (PERM-3,
// HOOK-2). A denied Go tool is not reachable at all (FLAG-6).
func TestGoToolsUnderTheHostsRulesAndHooks(t *testing.T) {
	type restartIn struct {
		Service string `json:"service" enum:"api,web,db"`
	}
	var mu sync.Mutex
	var restarted []string
	g, err := execlua.NewGoTools(
		execlua.Func("restart", "Restart a service.", func(_ context.Context, in restartIn) (string, error) {
			mu.Lock()
			defer mu.Unlock()
			restarted = append(restarted, in.Service)
			return "restarted " + in.Service, nil
		}),
		execlua.Func("wipe", "Wipe a service's data.", func(context.Context, restartIn) (string, error) {
			t.Error("wipe ran, though a rule denies it")
			return "", nil
		}),
	)
	if err != nil {
		t.Fatal(err)
	}
	builtins := g.Tools()
	for i := range builtins {
		builtins[i].ShouldDefer = true
	}
	e := setup(t, nil, &host.Options{
		Builtins: builtins,
		Execute: func(next host.Executor) host.Executor {
			return func(ctx context.Context, tool execlua.Tool, call execlua.Call) (execlua.Output, error) {
				if g.Has(tool.Name) {
					return g.Call(ctx, call)
				}
				return next(ctx, tool, call)
			}
		},
	})
	rewrite := e.hookScript("rewrite.sh", `if grep -q '"db"'; then echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"service":"cache"}}}'; fi`+"\n")
	e.write("local", hooksJSON(`"permissions": {"allow": ["restart"], "deny": ["wipe"]}`, [3]string{hooks.PreToolUse, "restart", rewrite}))
	e.until("the rules and the hook to load", func() bool {
		_, err := e.h.Call(context.Background(), execlua.Call{Name: "restart", Args: []byte(`{"service":"db"}`)})
		return err != nil && strings.Contains(err.Error(), "cache")
	})
	res := e.run(`
local a = tools.restart{ service = "api" }
local ok1, denied = pcall(tools.wipe, { service = "api" })
local ok2, rewritten = pcall(tools.restart, { service = "db" })
return { a, denied, rewritten }`)
	if res.IsError {
		t.Fatalf("run failed: %s", res.Text)
	}
	for _, want := range []string{`"restarted api"`, "attempt to call a nil value (field 'wipe')", `restart was not called, its arguments are not valid: args.service: want one of \"api\", \"web\", \"db\", got \"cache\"`} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("result lacks %s:\n%s", want, res.Text)
		}
	}
	if _, err := e.h.Call(context.Background(), execlua.Call{Name: "wipe", Args: []byte(`{"service":"api"}`)}); err == nil || !strings.Contains(err.Error(), "wipe") {
		t.Errorf("a flat call of the denied Go tool: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(restarted) != 1 || restarted[0] != "api" {
		t.Errorf("restarted %v, want only api", restarted)
	}
}
