package lua

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/preflight"
	"github.com/execlua/execlua/sandbox"
	"github.com/execlua/execlua/sandbox/worker"
)

// ErrTimeout is what a run stopped by RunnerOptions.Timeout matches.
var ErrTimeout = errors.New("wall-clock limit reached")

// TimeoutError is a run stopped by its wall-clock limit, whatever it was
// doing: running, or waiting for a tool.
type TimeoutError struct{ Limit time.Duration }

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("the script was stopped after %v of wall-clock time; tool calls it completed still apply", e.Limit)
}

func (e *TimeoutError) Unwrap() error { return ErrTimeout }

// RunnerOptions configure a Runner. The zero value (and nil) runs scripts
// in this process with the sandbox's default limits, no wall-clock limit,
// printed lines kept in the Result only, and preflight on.
type RunnerOptions struct {
	// Limits bound every run as they bound Exec's: the script-time budget
	// (which stops while a tool call is in flight), the call cap, the
	// log, result, string, memory and coroutine limits.
	Limits execlua.Limits
	// Timeout, when positive, stops a run after this much wall-clock time,
	// waiting for tools included (TimeoutError).
	Timeout time.Duration
	// Print receives each line the script prints, as it prints it, as far
	// as Limits.MaxLogChars keeps them. It runs on the script's goroutine.
	Print func(line string)
	// OnCall is told the name of each tool call as the script makes it.
	OnCall func(name string)
	// Isolation and Workers say where scripts run, as for a Session:
	// execlua.Process runs each in a worker process (see
	// execlua.ServeWorker), which a hard kill and a memory cap bound.
	Isolation execlua.Isolation
	Workers   *execlua.WorkerPool
	// NoPreflight turns off the check of literal calls before a run.
	NoPreflight bool
}

// Runner runs operators' scripts against a fixed set of tools: each run
// gets a fresh state whose tools table holds them, and every call goes
// through the funnel. Its methods are safe for concurrent use.
type Runner struct {
	funnel  execlua.Funnel
	tools   *sandbox.Toolset
	checker *preflight.Checker
	opts    RunnerOptions
	run     func(context.Context, sandbox.Request, *sandbox.Options) sandbox.Outcome
}

// NewRunner prepares tools, performed by funnel, for scripts. For Go
// functions: NewRunner(goTools.Tools(), goTools, nil).
func NewRunner(tools []execlua.Tool, funnel execlua.Funnel, opts *RunnerOptions) (*Runner, error) {
	if funnel == nil {
		return nil, errors.New("lua: NewRunner needs a funnel to perform the tools' calls")
	}
	r := &Runner{funnel: funnel}
	if opts != nil {
		r.opts = *opts
	}
	reach := make([]sandbox.Tool, len(tools))
	for i, t := range tools {
		if t.Name == "" {
			return nil, fmt.Errorf("lua: tool %d: %w", i+1, execlua.ErrEmptyName)
		}
		reach[i] = sandbox.Tool{Name: t.Name, InputSchema: t.InputSchema}
	}
	r.tools = sandbox.NewToolset(reach)
	r.checker = preflight.New(tools, &preflight.Options{Operator: true, MaxBytes: r.opts.Limits.MaxScriptBytes})
	if _, err := execlua.ParseIsolation(string(r.opts.Isolation)); r.opts.Isolation != "" && err != nil {
		return nil, err
	}
	r.run = worker.RunIn(r.opts.Isolation == execlua.Process, r.opts.Workers)
	return r, nil
}

// Result is what a run produced; a failed run keeps what it printed and
// which calls it made.
type Result struct {
	// Value is the script's return value as JSON: one value as itself,
	// several as an array; nil when it returned nothing, or when the value
	// was longer than Limits.MaxResultChars.
	Value json.RawMessage
	// Printed are the lines the script printed, as far as the log limit
	// kept them.
	Printed []string
	// Calls names the tool calls made, in order.
	Calls []string
	// Abandoned names the calls whose funnel had not returned when the
	// run ended.
	Abandoned []string
	Timings   execlua.Timings
}

// Run runs code. A script with a literal call the tools cannot take is
// refused before anything runs, every such call named (a
// *preflight.Error). Other failures are the sandbox's errors, worded for
// the operator: a *ScriptError-like error that matches execlua.ErrScript,
// execlua.ErrBudgetExceeded, ErrTimeout, execlua.ErrCanceled and the
// rest. Run never panics.
func (r *Runner) Run(ctx context.Context, code string) (Result, error) {
	if !r.opts.NoPreflight {
		if err := r.checker.CheckWithin(ctx, code, cmp.Or(r.opts.Limits.Budget, sandbox.DefaultBudget)); err != nil {
			return Result{}, err
		}
	}
	if r.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, r.opts.Timeout, &TimeoutError{Limit: r.opts.Timeout})
		defer cancel()
	}
	printed := 0
	out := r.run(ctx, sandbox.Request{
		Code:   code,
		Tools:  r.tools,
		Funnel: r.funnel,
		OnCall: r.opts.OnCall,
		OnPrint: func(_ string, lines []string, _ int) {
			for ; printed < len(lines); printed++ {
				if r.opts.Print != nil {
					r.opts.Print(lines[printed])
				}
			}
		},
	}, &r.opts.Limits)
	res := Result{Printed: out.Lines, Calls: out.Calls, Abandoned: out.Abandoned, Timings: out.Timings}
	if out.Err != nil {
		return res, operatorError(out.Err)
	}
	res.Value = out.Value()
	return res, nil
}

// operatorWords turns the sandbox's model-facing phrases into an
// operator's: no pointer to ToolSearch, no Exec, no session.
var operatorWords = strings.NewReplacer(
	"only this session's catalogued tools can be called from Exec; find them with tools.ToolSearch{ query = \"...\" }", "no tool of that name is registered",
	"no tool of that name in this session; find tools with tools.ToolSearch{ query = \"...\" }", "no tool of that name is registered",
	"no tool of that name in this session", "no tool of that name is registered",
	" inside Exec", "",
)

// operatorError rewords err's text for an operator and keeps what it
// matches with errors.Is and errors.As.
func operatorError(err error) error {
	var timeout *TimeoutError
	if errors.As(err, &timeout) {
		return timeout
	}
	text := operatorWords.Replace(err.Error())
	if text == err.Error() {
		return err
	}
	return &operatorErr{text: text, err: err}
}

type operatorErr struct {
	text string
	err  error
}

func (e *operatorErr) Error() string { return e.text }
func (e *operatorErr) Unwrap() error { return e.err }
