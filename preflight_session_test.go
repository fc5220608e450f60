package execlua_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/internal/cputime"
)

// With Options.Preflight, a script whose fourth call cannot work is
// refused before its first: no call is made, and every problem is named
// with its line. Without it, the first three calls run (ORCH-3).
func TestSessionPreflightRefusesBeforeAnyCall(t *testing.T) {
	type restartIn struct {
		Service string `json:"service" enum:"api,web"`
	}
	calls := 0
	g := newGoTools(t, execlua.Func("restart", "Restart a service.", func(_ context.Context, in restartIn) (string, error) {
		calls++
		return "ok " + in.Service, nil
	}))
	tools := g.Tools()
	tools[0].ShouldDefer = true
	code := `
tools.restart{ service = "api" }
tools.restart{ service = "web" }
tools.restart{ service = "api" }
tools.restart{ service = "mail" }
tools.restrat{ service = "web" }`
	in, _ := json.Marshal(map[string]string{"code": code})
	for _, preflight := range []bool{true, false} {
		calls = 0
		s, err := execlua.New(g, &execlua.Options{Tools: tools, Preflight: preflight})
		if err != nil {
			t.Fatal(err)
		}
		res := s.Run(context.Background(), in, nil)
		if !res.IsError {
			t.Fatalf("preflight %v: the script ran to its end: %s", preflight, res.Text)
		}
		if !preflight {
			if calls != 3 || errors.Is(res.Err, execlua.ErrPreflight) {
				t.Errorf("without preflight: %d calls, err %v; want 3 calls and a failure at the fourth", calls, res.Err)
			}
			continue
		}
		if calls != 0 || !errors.Is(res.Err, execlua.ErrPreflight) || len(res.Calls) != 0 {
			t.Errorf("with preflight: %d calls (%v), err %v; want none and ErrPreflight", calls, res.Calls, res.Err)
		}
		for _, want := range []string{
			`line 5: tools.restart{...}: args.service: want one of "api", "web", got "mail"`,
			"line 6: tools.restrat: no tool of that name is reachable from this script; did you mean tools.restart?",
			"Fix them and run the script again.",
		} {
			if !strings.Contains(res.Text, want) {
				t.Errorf("result lacks %q:\n%s", want, res.Text)
			}
		}
	}
}

// Preflight's parse runs before the run's budget clock starts, so it is
// bounded by the budget itself: a script built to keep gopher-lua's
// parser busy (a 200 KB chain of ^) costs the host about what the run
// without preflight costs, not the whole parse (before: 0.66 s of CPU,
// 1.9 s under the race detector, against a 20 ms budget). The run still
// ends on its budget (ISO-8).
func TestPreflightIsBoundedByTheBudget(t *testing.T) {
	code := "return " + strings.Repeat("2^", 100<<10) + "2"
	in, _ := json.Marshal(map[string]string{"code": code})
	g := newGoTools(t, execlua.Func("ping", "Answer pong.", func(context.Context, struct{}) (string, error) { return "pong", nil }))
	tools := g.Tools()
	tools[0].ShouldDefer = true
	spent := map[bool]time.Duration{}
	for _, preflight := range []bool{false, true} {
		s, err := execlua.New(g, &execlua.Options{Tools: tools, Preflight: preflight, Limits: execlua.Limits{Budget: 20 * time.Millisecond}})
		if err != nil {
			t.Fatal(err)
		}
		var res execlua.Result
		spent[preflight] = cputime.Spent(t, func() { res = s.Run(context.Background(), in, nil) })
		if !errors.Is(res.Err, execlua.ErrBudgetExceeded) {
			t.Errorf("preflight %v: err = %v, want the budget exceeded", preflight, res.Err)
		}
	}
	t.Logf("CPU of the run: %v with preflight, %v without", spent[true], spent[false])
	if extra := spent[true] - spent[false]; extra > 250*time.Millisecond {
		t.Errorf("preflight added %v of CPU to a run with a 20 ms budget, want it bounded by about the budget", extra)
	}
}
