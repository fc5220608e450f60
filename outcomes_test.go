package execlua

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/execlua/execlua/pool"
	"github.com/execlua/execlua/sandbox"
	"github.com/execlua/execlua/search"
)

// errRefused is a funnel's own error, which the script's error unwraps to.
var errRefused = errors.New("denied by a PreToolUse hook")

// ending is one way a run can end: the script, the limits it runs with,
// and what its error matches.
type ending struct {
	name   string
	code   string
	limits Limits
	want   []error // what res.Err matches; none: the run succeeds
	// text, when set, is the model's text in full, but for what the
	// script printed before a failure.
	text string
	// killed: in a worker process the host may end the run by a kill,
	// before the worker has even printed, when the machine is busy.
	killed bool
	// before, when set, is the run's context, done before the run starts.
	before func() context.Context
}

// endings are every way a run ends. The funnel's tools: ok answers, deny
// refuses with errRefused, boom panics, block waits for its context, and
// the ones named by endRun end the run's context (endRun).
func endings() []ending {
	budget := Limits{Budget: 20 * time.Second}
	withBudget := func(l Limits) Limits { l.Budget = budget.Budget; return l }
	const cancelled = "The run was cancelled before the script finished (the user interrupted it or the session ended). Tool calls it completed still apply."
	return []ending{
		{name: "result", code: `return tools.ok{}`, limits: budget, text: "Printed output:\nbefore\n\nReturn value:\nfine"},
		{name: "nothing returned", code: `local x = 1`, limits: budget, text: "before"},
		{name: "script error", code: `error("boom")`, limits: budget, want: []error{sandbox.ErrScript},
			text: "The script failed with an error: script:1: boom"},
		{name: "syntax error", code: `return +`, limits: budget, want: []error{sandbox.ErrScript}},
		{name: "refused call", code: `tools.deny{}`, limits: budget, want: []error{sandbox.ErrScript, errRefused},
			text: "The script failed with an error: script:1: denied by a PreToolUse hook"},
		{name: "unknown tool", code: `tools.mcp__nowhere__x{}`, limits: budget, want: []error{sandbox.ErrScript, sandbox.ErrUnknownTool}},
		{name: "call limit", code: `tools.ok{} tools.ok{}`, limits: withBudget(Limits{MaxCalls: 1}), want: []error{sandbox.ErrScript, sandbox.ErrCallLimit},
			text: "The script failed with an error: script:1: nested call limit reached: a script may make at most 1 tool calls, so this call was not made"},
		{name: "search limit", code: `tools.ToolSearch{ query = ("x"):rep(10000) }`, limits: budget, want: []error{sandbox.ErrScript, search.ErrQueryLimit, search.ErrInvalidArgs}},
		{name: "string limit", code: `local s = ("x"):rep(5 * 1024 * 1024)`, limits: budget, want: []error{sandbox.ErrScript}},
		{name: "script size", code: `return "` + strings.Repeat("x", 2000) + `"`, limits: withBudget(Limits{MaxScriptBytes: 1000}), want: []error{sandbox.ErrScript},
			text: "The script failed with an error: the script is 2025 bytes; the limit is 1000"},
		{name: "budget", code: `while true do end`, limits: Limits{Budget: 50 * time.Millisecond}, want: []error{sandbox.ErrBudgetExceeded}, killed: true,
			text: "The script ran over its execution budget (50ms of script time; waiting for tool calls does not count) and was stopped; tool calls it completed still apply."},
		{name: "memory", code: `local t = {} while true do t[#t + 1] = { #t } end`, limits: withBudget(Limits{MaxMemory: 32 << 20}), want: []error{sandbox.ErrMemoryExceeded}, killed: true,
			text: "The script used more than 32 MiB of memory and was stopped; tool calls it completed still apply."},
		{name: "max wait", code: `tools.block{}`, limits: withBudget(Limits{MaxNestedWait: 20 * time.Millisecond}), want: []error{sandbox.ErrNestedWaitExceeded},
			text: "The script waited for tool calls longer than the cap of 20ms and was stopped; tool calls it completed still apply."},
		{name: "crash", code: `tools.boom{}`, limits: budget, want: []error{sandbox.ErrCrashed},
			text: "The sandbox crashed while running the script and the run was ended. Tool calls it completed still apply."},
		{name: "cancel", code: `tools.cancel{} while true do end`, limits: budget, want: []error{sandbox.ErrCanceled, context.Canceled}, text: cancelled},
		{name: "cancel with a cause", code: `tools.cause{} while true do end`, limits: budget, want: []error{sandbox.ErrCanceled, errRefused}, text: cancelled},
		{name: "deadline", code: `tools.expire{} while true do end`, limits: budget, want: []error{sandbox.ErrCanceled, context.DeadlineExceeded}, text: cancelled},
		{name: "deadline in a call", code: `tools.expire{ wait = true }`, limits: budget, want: []error{sandbox.ErrCanceled, context.DeadlineExceeded}, text: cancelled},
		{name: "cancelled before", code: `return 1`, limits: budget, want: []error{sandbox.ErrCanceled, context.Canceled}, text: cancelled,
			before: func() context.Context {
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				return ctx
			}},
		{name: "past its deadline before", code: `return 1`, limits: budget, want: []error{sandbox.ErrCanceled, context.DeadlineExceeded}, text: cancelled,
			before: func() context.Context {
				ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
				_ = cancel // done already; released with the test
				return ctx
			}},
	}
}

// endRun is a run's context that its tools end, each in its own way:
// cancel cancels it, cause cancels it with errRefused, and expire makes
// it pass its deadline and, given wait, waits for its call's context to
// end. Its deadline is no clock's, so that the run has made its call in
// both modes when it passes: Err says context.DeadlineExceeded, as a
// deadline's context does, and so does its cause.
type endRun struct {
	context.Context
	cancel  context.CancelCauseFunc
	expired atomic.Bool
}

func newEndRun() *endRun {
	base, cancel := context.WithCancelCause(context.Background())
	return &endRun{Context: base, cancel: cancel}
}

func (c *endRun) Err() error {
	if c.expired.Load() {
		return context.DeadlineExceeded
	}
	return c.Context.Err()
}

func (c *endRun) tools() map[string]toolFunc {
	answer := sandbox.Output{Text: []string{"done"}}
	return map[string]toolFunc{
		"cancel": func(context.Context, map[string]any) (sandbox.Output, error) { c.cancel(nil); return answer, nil },
		"cause": func(context.Context, map[string]any) (sandbox.Output, error) {
			c.cancel(errRefused)
			return answer, nil
		},
		"expire": func(ctx context.Context, args map[string]any) (sandbox.Output, error) {
			c.expired.Store(true)
			c.cancel(context.DeadlineExceeded)
			if args["wait"] == true {
				<-ctx.Done()
			}
			return answer, nil
		},
	}
}

// BUD-1, BUD-6, BUD-10, BUD-11, BUD-12 and ORCH-4 in both modes: every
// way a run can end gives the same outcome in both isolation modes:
// the same sentinels (errors.Is), the same text for the model and the same
// error text, and the same printed lines and calls. A run whose context
// ends, cancelled or past its deadline, is ErrCanceled with the context's
// cause in both, in one sentence.
func TestEveryEndingSameInBothModes(t *testing.T) {
	p := workerPool(t, nil)
	tools := map[string]toolFunc{
		"ok":   text("fine"),
		"deny": func(context.Context, map[string]any) (sandbox.Output, error) { return sandbox.Output{}, errRefused },
		"boom": func(context.Context, map[string]any) (sandbox.Output, error) { panic("the funnel broke") },
		"block": func(ctx context.Context, _ map[string]any) (sandbox.Output, error) {
			<-ctx.Done()
			return sandbox.Output{}, ctx.Err()
		},
	}
	var pool []pool.Tool
	for _, name := range []string{"ok", "deny", "boom", "block", "cancel", "cause", "expire"} {
		pool = append(pool, builtin(name, true))
	}
	for _, e := range endings() {
		t.Run(e.name, func(t *testing.T) {
			var results [2]Result
			for i, isolation := range []Isolation{InProcess, Process} {
				var ctx context.Context
				f := &fakeFunnel{tools: maps.Clone(tools)}
				if e.before != nil {
					ctx = e.before()
				} else {
					end := newEndRun()
					maps.Copy(f.tools, end.tools())
					ctx = end
				}
				s := newSession(t, f, &Options{Tools: with(builtins(), pool), Isolation: isolation, Workers: p, Limits: e.limits})
				res := s.Run(ctx, input("print('before') "+e.code), nil)
				results[i] = res
				if len(e.want) == 0 && res.IsError {
					t.Errorf("%s: %s (%v), want success", isolation, res.Text, res.Err)
				}
				for _, want := range e.want {
					if !errors.Is(res.Err, want) {
						t.Errorf("%s: err %v does not match %v", isolation, res.Err, want)
					}
				}
				if head, _, _ := strings.Cut(res.Text, "\n\nPrinted output before"); e.text != "" && head != e.text {
					t.Errorf("%s: text %q, want %q", isolation, head, e.text)
				}
			}
			in, proc := results[0], results[1]
			inText, procText := in.Text, proc.Text
			if e.killed {
				inText, _, _ = strings.Cut(inText, "\n\nPrinted output before")
				procText, _, _ = strings.Cut(procText, "\n\nPrinted output before")
			}
			if inText != procText || in.IsError != proc.IsError || in.Summary != proc.Summary || !slices.Equal(in.Calls, proc.Calls) {
				t.Errorf("outcomes differ:\nin-process %q (%v, %q, %q)\nprocess    %q (%v, %q, %q)", in.Text, in.IsError, in.Summary, in.Calls, proc.Text, proc.IsError, proc.Summary, proc.Calls)
			}
			// A crash's error carries its own stack, which differs.
			if (in.Err == nil) != (proc.Err == nil) || in.Err != nil && !errors.Is(in.Err, sandbox.ErrCrashed) && in.Err.Error() != proc.Err.Error() {
				t.Errorf("errors differ:\nin-process %v\nprocess    %v", in.Err, proc.Err)
			}
		})
	}
}
