package execlua

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/execlua/execlua/sandbox"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The test binary serves as its own worker for Process isolation.
func TestMain(m *testing.M) {
	if IsWorker() {
		os.Exit(ServeWorker())
	}
	os.Exit(m.Run())
}

func TestParseIsolation(t *testing.T) {
	for _, s := range []string{"inprocess", "process"} {
		if i, err := ParseIsolation(s); err != nil || string(i) != s {
			t.Errorf("ParseIsolation(%q) = %q, %v", s, i, err)
		}
	}
	_, err := ParseIsolation("vm")
	if err == nil || err.Error() != `unknown isolation "vm": expected "inprocess" or "process"` {
		t.Errorf("ParseIsolation(vm) = %v", err)
	}
	if _, err := New(&fakeFunnel{}, &Options{Isolation: "vm"}); err == nil {
		t.Error("New accepted an unknown isolation")
	}
}

// workerPool is a pool of this test binary, closed at the end of the test.
func workerPool(t *testing.T, opts *WorkerOptions) *WorkerPool {
	p := NewWorkerPool(opts)
	t.Cleanup(func() { p.Close() })
	return p
}

// A Session in Process isolation gives the same results as one in-process:
// nested calls through the host's funnel, ToolSearch over the host's pool,
// the summary and record, printed lines, values, and failures.
func TestProcessIsolationSameResults(t *testing.T) {
	p := workerPool(t, nil)
	f := &fakeFunnel{tools: map[string]toolFunc{"mcp__github__create_issue": refusing("denied by a PreToolUse hook")}}
	opts := func(i Isolation) *Options {
		return &Options{Tools: with(builtins(), githubTools()), Isolation: i, Workers: p, Limits: Limits{Budget: 200 * time.Millisecond}}
	}
	inProcess, isolated := newSession(t, f, opts(InProcess)), newSession(t, f, opts(Process))
	for _, code := range []string{
		`print("hi") return tools.WebFetch{ x = "a" }`,
		`local found = tools.ToolSearch{ query = "create issue" } return found.matches[1].name`,
		`local ok, err = pcall(tools.mcp__github__create_issue, { id = 1 }) return ok, err`,
		`tools.mcp__github__create_issue{ id = 2 }`,
		`while true do end`,
		`return tools.mcp__nowhere__x{}`,
	} {
		want, got := run(inProcess, code), run(isolated, code)
		if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Result{}, "Timings", "Err")); diff != "" {
			t.Errorf("%s: result (-in-process +process):\n%s", code, diff)
		}
		if (want.Err == nil) != (got.Err == nil) || want.Err != nil && want.Err.Error() != got.Err.Error() {
			t.Errorf("%s: err = %v, want %v", code, got.Err, want.Err)
		}
	}
}

// Non-functional: 200 Exec runs at once, each with nested calls (one of
// them in a parallel pair), each with its own correct result, in both
// modes; run under -race. The worker pool caps the live processes, so the
// runs queue for workers.
func TestConcurrentRuns(t *testing.T) {
	p := workerPool(t, &WorkerOptions{MaxWorkers: 8})
	for _, isolation := range []Isolation{InProcess, Process} {
		t.Run(string(isolation), func(t *testing.T) {
			f := &fakeFunnel{}
			s := newSession(t, f, &Options{Tools: with(builtins(), githubTools()), Isolation: isolation, Workers: p})
			var wg sync.WaitGroup
			for i := range 200 {
				wg.Go(func() {
					res := s.Run(context.Background(), input(fmt.Sprintf(`
local a, b = tools.parallel(
  function() return tools.WebFetch{ n = %d } end,
  function() return tools.TaskCreate{ n = %d } end)
return a .. "|" .. b .. "|" .. tools.mcp__github__create_issue{ id = %d }`, i, i, i)), nil)
					want := fmt.Sprintf(`WebFetch {"n":%d}|TaskCreate {"n":%d}|mcp__github__create_issue {"id":%d}`, i, i, i)
					if res.IsError || res.Text != want {
						t.Errorf("run %d: %s (%v), want %s", i, res.Text, res.Err, want)
					}
				})
			}
			wg.Wait()
			if n := len(f.reached()); n != 600 {
				t.Errorf("%d calls reached the funnel, want 600", n)
			}
		})
	}
}

// The memory cap and the budget (BUD-1) in Process isolation read as
// in-process failures.
func TestProcessIsolationLimits(t *testing.T) {
	p := workerPool(t, nil)
	s := newSession(t, &fakeFunnel{}, &Options{Tools: with(builtins(), githubTools()), Isolation: Process, Workers: p,
		Limits: Limits{Budget: 5 * time.Minute, MaxMemory: 32 << 20}}) // the memory cap first, however loaded the machine
	res := run(s, `local t = {} while true do t[#t + 1] = { #t } end`)
	if !errors.Is(res.Err, sandbox.ErrMemoryExceeded) || res.Text != "The script used more than 32 MiB of memory and was stopped; tool calls it completed still apply." {
		t.Errorf("result %q (%v), want the memory cap", res.Text, res.Err)
	}
	res = s.Run(context.Background(), input(`while true do end`), &RunOptions{Budget: 50 * time.Millisecond})
	if !errors.Is(res.Err, sandbox.ErrBudgetExceeded) {
		t.Errorf("result %q (%v), want the budget", res.Text, res.Err)
	}
}
