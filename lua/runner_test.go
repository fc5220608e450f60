package lua_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/internal/cputime"
	"github.com/execlua/execlua/internal/leaktest"
	"github.com/execlua/execlua/lua"
	"github.com/execlua/execlua/preflight"
)

type serviceIn struct {
	Service string `json:"service" enum:"api,web,db"`
}

type healthOut struct {
	Service string `json:"service"`
	Healthy bool   `json:"healthy"`
}

// events records what the tools and the print callback saw, in order.
type events struct {
	mu   sync.Mutex
	list []string
}

func (e *events) add(s string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.list = append(e.list, s)
}

func (e *events) get() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.list...)
}

func opsTools(t *testing.T, ev *events, restart func(context.Context, serviceIn) (string, error)) *execlua.GoTools {
	t.Helper()
	if restart == nil {
		restart = func(_ context.Context, in serviceIn) (string, error) {
			ev.add("restart " + in.Service)
			return "restarted " + in.Service, nil
		}
	}
	g, err := execlua.NewGoTools(
		execlua.Func("restart", "Restart a service.", restart),
		execlua.Func("health", "Read a service's health.", func(_ context.Context, in serviceIn) (healthOut, error) {
			ev.add("health " + in.Service)
			return healthOut{Service: in.Service, Healthy: in.Service != "db"}, nil
		}),
	)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func newRunner(t *testing.T, g *execlua.GoTools, opts *lua.RunnerOptions) *lua.Runner {
	t.Helper()
	r, err := lua.NewRunner(g.Tools(), g, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Calls reach Go functions as the script makes them; printed lines reach
// the callback as they are printed, before the next call; the value comes
// back as JSON (ORCH-6).
func TestRunnerCallsGoToolsAndPrintsLive(t *testing.T) {
	defer leaktest.Check(t)()
	ev := &events{}
	var called []string
	r := newRunner(t, opsTools(t, ev, nil), &lua.RunnerOptions{
		Print:  func(line string) { ev.add("print " + line) },
		OnCall: func(name string) { called = append(called, name) },
	})
	res, err := r.Run(context.Background(), `
for _, s in ipairs({ "api", "db" }) do
  print("restarting", s)
  tools.restart{ service = s }
  local h = tools.health{ service = s }
  print(s, h.healthy)
end
return { done = true }`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"print restarting\tapi", "restart api", "health api", "print api\ttrue",
		"print restarting\tdb", "restart db", "health db", "print db\tfalse"}
	if diff := cmp.Diff(want, ev.get()); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if string(res.Value) != `{"done":true}` || len(res.Printed) != 4 {
		t.Errorf("value %s, printed %q", res.Value, res.Printed)
	}
	if diff := cmp.Diff([]string{"restart", "health", "restart", "health"}, called); diff != "" {
		t.Errorf("OnCall (-want +got):\n%s", diff)
	}
}

// tools.parallel puts its branches' calls in flight together: each
// restart waits until all three have started (BUD-5).
func TestRunnerParallel(t *testing.T) {
	defer leaktest.Check(t)()
	var started sync.WaitGroup
	started.Add(3)
	all := make(chan struct{})
	go func() { started.Wait(); close(all) }()
	ev := &events{}
	g := opsTools(t, ev, func(ctx context.Context, in serviceIn) (string, error) {
		started.Done()
		select {
		case <-all:
		case <-time.After(10 * time.Second): // hang guard only
			return "", errors.New("the calls were not in flight together")
		}
		return in.Service, nil
	})
	res, err := newRunner(t, g, nil).Run(context.Background(), `
return { tools.parallel(
  function() return tools.restart{ service = "api" } end,
  function() return tools.restart{ service = "web" } end,
  function() return tools.restart{ service = "db" } end) }`)
	if err != nil || string(res.Value) != `["api","web","db"]` {
		t.Errorf("value %s, err %v", res.Value, err)
	}
}

// The budget counts the script's own time only: a call that takes ten
// times the budget does not use it up; the wall-clock limit stops a run
// whatever it waits on (BUD-4).
func TestRunnerBudgetAndWallClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ev := &events{}
		slow := opsTools(t, ev, func(ctx context.Context, in serviceIn) (string, error) {
			select {
			case <-time.After(time.Second):
				return "slow " + in.Service, nil
			case <-ctx.Done():
				return "", context.Cause(ctx)
			}
		})
		r := newRunner(t, slow, &lua.RunnerOptions{Limits: execlua.Limits{Budget: 100 * time.Millisecond}})
		res, err := r.Run(context.Background(), `return tools.restart{ service = "api" }`)
		if err != nil || string(res.Value) != `"slow api"` || res.Timings.ToolWait < time.Second {
			t.Errorf("a call longer than the budget: value %s, err %v, tool wait %v", res.Value, err, res.Timings.ToolWait)
		}
		r = newRunner(t, slow, &lua.RunnerOptions{Timeout: 1500 * time.Millisecond})
		res, err = r.Run(context.Background(), `
tools.restart{ service = "api" }
tools.restart{ service = "web" }
return "not reached"`)
		var timeout *lua.TimeoutError
		if !errors.Is(err, lua.ErrTimeout) || !errors.As(err, &timeout) || timeout.Limit != 1500*time.Millisecond {
			t.Fatalf("err %v, want the wall-clock limit", err)
		}
		if diff := cmp.Diff([]string{"restart", "restart"}, res.Calls); diff != "" || res.Value != nil {
			t.Errorf("calls (-want +got):\n%s\nvalue %s", diff, res.Value)
		}
	})
}

// Preflight refuses a script with a literal mistake before the first call;
// with it off, the mistake fails at its call. Messages speak to an
// operator: no ToolSearch, no Exec, no session.
func TestRunnerPreflightAndOperatorMessages(t *testing.T) {
	ev := &events{}
	g := opsTools(t, ev, nil)
	code := `
tools.restart{ service = "api" }
tools.restart{ service = "mail" }
tools.helth{ service = "api" }`
	_, err := newRunner(t, g, nil).Run(context.Background(), code)
	var pe *preflight.Error
	if !errors.As(err, &pe) || len(pe.Problems) != 2 || len(ev.get()) != 0 {
		t.Fatalf("err %v, events %v: want two problems and no call", err, ev.get())
	}
	if !strings.Contains(err.Error(), "line 4: tools.helth: no tool of that name; did you mean tools.health?") {
		t.Errorf("report:\n%v", err)
	}
	loose := newRunner(t, g, &lua.RunnerOptions{NoPreflight: true})
	for code, want := range map[string]string{
		code:                `args.service: want one of "api", "web", "db", got "mail"`,
		`tools.health2{}`:   "attempt to call a nil value (field 'health2'): no tool of that name is registered",
		`tools.mcp__x__y{}`: "mcp__x__y is not reachable: no tool of that name is registered",
		`require("socket")`: "require is not available",
	} {
		_, err := loose.Run(context.Background(), code)
		if err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, execlua.ErrScript) {
			t.Errorf("%s: err %v, want a script error with %q", code, err, want)
			continue
		}
		for _, model := range []string{"ToolSearch", "Exec", "session"} {
			if strings.Contains(err.Error(), model) {
				t.Errorf("%s: the operator's message mentions %s: %v", code, model, err)
			}
		}
	}
}

// In worker processes the same script gets the same outcome, its calls
// still reaching the Go functions in this process.
func TestRunnerInWorkerProcesses(t *testing.T) {
	ev := &events{}
	g := opsTools(t, ev, nil)
	pool := execlua.NewWorkerPool(&execlua.WorkerOptions{Idle: 1, MaxWorkers: 2})
	defer pool.Close()
	var printed []string
	r := newRunner(t, g, &lua.RunnerOptions{Isolation: execlua.Process, Workers: pool, Print: func(l string) { printed = append(printed, l) }})
	res, err := r.Run(context.Background(), `
local h = tools.health{ service = "db" }
print("db healthy:", h.healthy)
return tools.restart{ service = "db" }`)
	if err != nil || string(res.Value) != `"restarted db"` {
		t.Fatalf("value %s, err %v", res.Value, err)
	}
	if diff := cmp.Diff([]string{"db healthy:\tfalse"}, printed); diff != "" {
		t.Errorf("printed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"health db", "restart db"}, ev.get()); diff != "" {
		t.Errorf("calls in this process (-want +got):\n%s", diff)
	}
}

// Preflight's parse, before the budget clock starts, is bounded by the
// budget: a script built to keep the parser busy costs about what the
// run without preflight costs (before: 0.66 s of CPU against a 20 ms
// budget).
func TestRunnerPreflightIsBoundedByTheBudget(t *testing.T) {
	code := "return " + strings.Repeat("2^", 100<<10) + "2"
	spent := map[bool]time.Duration{}
	for _, off := range []bool{true, false} {
		r := newRunner(t, opsTools(t, &events{}, nil), &lua.RunnerOptions{NoPreflight: off, Limits: execlua.Limits{Budget: 20 * time.Millisecond}})
		var err error
		spent[off] = cputime.Spent(t, func() { _, err = r.Run(context.Background(), code) })
		if !errors.Is(err, execlua.ErrBudgetExceeded) {
			t.Errorf("preflight off %v: err = %v, want the budget exceeded", off, err)
		}
	}
	if extra := spent[false] - spent[true]; extra > 250*time.Millisecond {
		t.Errorf("preflight added %v of CPU to a run with a 20 ms budget, want it bounded by about the budget", extra)
	}
}
