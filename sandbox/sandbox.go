package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"github.com/execlua/execlua/internal/luavm"
	glua "github.com/yuin/gopher-lua"

	"github.com/execlua/execlua/internal/toolname"
)

// Call is one nested call as the host's funnel receives it.
type Call struct {
	Name string
	// Args is the script's argument table as a JSON object, field by field
	// as written: no renaming, no defaults, no validation.
	Args json.RawMessage
}

// Output is what a tool returned.
type Output struct {
	// Structured is the tool's structuredContent; nil when it sent none.
	Structured json.RawMessage
	// Decoded is the structuredContent already decoded into Go values, as
	// encoding/json decodes into an any (map[string]any, []any, float64,
	// string, bool, nil; json.Number and Go's integer types are numbers
	// too). When not nil it is used instead of Structured and converted to
	// Lua without being encoded again: a host whose MCP client hands the
	// content decoded saves a round trip through JSON. The script gets the
	// same value either way.
	Decoded any
	// Text holds the tool's text blocks, in order.
	Text   []string
	Images []Image
}

// Image is one image block of a tool's output.
type Image struct {
	MIMEType string
	// Data is the image, base64-encoded as MCP carries it.
	Data string
}

// Funnel performs a nested call the way the host performs a direct one:
// permission check, PreToolUse hook, execution, PostToolUse hook. An error
// reaches the script as the call's error (catchable with pcall). It should
// return promptly once ctx is cancelled; one that does not is left behind
// and named in Outcome.Abandoned, never waited for.
type Funnel interface {
	Call(ctx context.Context, call Call) (Output, error)
}

// FunnelFunc adapts a function to Funnel.
type FunnelFunc func(ctx context.Context, call Call) (Output, error)

// Call calls f.
func (f FunnelFunc) Call(ctx context.Context, call Call) (Output, error) { return f(ctx, call) }

// SearchFunc answers tools.ToolSearch: it receives the script's argument
// table as JSON and returns the result as JSON, or an error for the script.
// It runs in the host on the script's time, so it must bound what it does
// with the arguments and return once ctx is done (the run was stopped).
type SearchFunc func(ctx context.Context, args json.RawMessage) (json.RawMessage, error)

// Tool is one member of the reachable set.
type Tool struct {
	Name        string
	InputSchema json.RawMessage
}

// SearchName is the fixed entry of the tools table that ToolSearch answers.
const SearchName = toolname.ToolSearch

// Request is one script and what it may reach.
type Request struct {
	Code string
	// Tools is the reachable set: the pool as it is at this run, prepared
	// once for all the runs that reach it (nil: no tools).
	Tools *Toolset
	// Denied names tools the host's permission filter left out of the
	// pool, with who denied each ("the deny rule ... in ..."): a script
	// calling one is told that, not ORCH-4's pointer to ToolSearch.
	Denied map[string]string
	// Funnel performs the calls; nil makes every call fail with
	// ErrNoFunnel (a run that only computes).
	Funnel Funnel
	// Search answers tools.ToolSearch; nil makes it fail.
	Search SearchFunc
	// SearchSchema is ToolSearch's input schema, for argument encoding.
	SearchSchema json.RawMessage
	// OnCall, when set, is told the name of each nested call as it is made
	// (refused ones included), for a live summary.
	OnCall func(name string)
	// OnPrint, when set, is told after each print what the outcome's Log,
	// Lines and LogChars hold so far, so that a host can keep them should
	// the run never return (a worker process killed). The string and the
	// slice are the run's own: read them during the call only.
	OnPrint func(log string, lines []string, logChars int)
}

// Outcome is everything a run produced. Err is nil on success; a failed
// run keeps what it printed and which calls it made.
type Outcome struct {
	// Result is the script's return value as the model should read it: one
	// string verbatim, any other single value as JSON, several values as a
	// JSON array, cut at MaxResultChars. HasResult is false when the script
	// returned nothing; ResultChars is the full length in characters.
	Result      string
	HasResult   bool
	ResultChars int
	// StringResult says the script returned one string, which Result
	// holds verbatim; any other Result is JSON.
	StringResult bool
	// LeftOutKeys counts the keys of returned tables that Result leaves
	// out because another key of their table has the same JSON name: a
	// string key keeps its name ({[1] = "a", ["1"] = "b"} is {"1":"b"}),
	// and of other keys of one name the first is kept, so that Result is
	// always valid JSON.
	LeftOutKeys int
	// Log is what the script printed, one line per print, cut at
	// MaxLogChars; LogChars is how many characters were printed in all.
	// Lines holds the same text line by line.
	Log      string
	LogChars int
	Lines    []string
	// Calls names every nested call in order, repeats and refused calls
	// included.
	Calls []string
	// Abandoned names the calls whose funnel had not returned when the
	// run ended (its context was cancelled and the funnel ignored it):
	// the run did not wait for them, and what they do is unknown.
	Abandoned []string
	// Images are the images of nested calls' outputs, at most MaxImages;
	// DroppedImages counts the rest.
	Images        []Image
	DroppedImages int
	Timings       Timings
	Err           error
}

// Timings say where a run's time went.
type Timings struct {
	// Compile is the time spent compiling the script.
	Compile time.Duration
	// Script is the script's own time, the one the budget counts:
	// compiling is part of it, so Script includes Compile.
	Script time.Duration
	// ToolWait is the time spent waiting for nested calls.
	ToolWait time.Duration
}

// run is the state of one Run.
type run struct {
	opts   Options
	req    Request
	st     *luavm.State
	script *luavm.Script
	ctx    context.Context // the caller's
	budget context.Context // cancelled when the run must stop
	stop   context.CancelCauseFunc
	clock  *clock
	memory *memoryGuard
	main   *glua.LState // the thread running the script
	// searchSchema is ToolSearch's input schema, parsed at its first call.
	searchSchema *luavm.Schema

	// phase is the VM goroutine's (vmRunning...), left is closed once
	// Run's goroutine has returned without it (leave), and calling names
	// the single call in the funnel during vmCalling, which began at
	// callStart.
	phase     atomic.Int32
	left      chan struct{}
	calling   string
	callStart time.Time

	// pending holds the calls submitted and not collected yet, but for
	// the latest (keep).
	pending  map[int]*pending
	latest   *pending
	latestID int
	nextID   int
	ids      []int      // of the last yield, reused
	todo     []*pending // of the last perform, reused
	spare    []*pending // collected, for reuse
	// calls are the calls made, as indexes into names (record).
	calls     []int32
	names     []string
	nameIndex map[string]int32
	lastName  int32
	abandoned []string
	callErrs  []error
	waited    time.Duration

	log      strings.Builder
	logChars int
	lines    []string
	printed  int           // lines
	compiled time.Duration // time spent compiling
	// compileStart is when compiling began.
	compileStart time.Time
	images       []Image
	dropped      int
}

// Run executes one script in a fresh Lua state. It never panics and never
// returns an error of its own: every failure is in Outcome.Err.
//
// The VM runs on a goroutine of its own, which also compiles the script and
// performs single nested calls inline; Run's goroutine waits for its
// outcome, or for the run's stop (cancellation, budget, crash, the
// nested-wait cap). A stopped VM ends at its next instruction and Run
// waits for that; a VM held in the compiler or in a funnel that ignores
// its context is left behind (see leave).
func Run(ctx context.Context, req Request, opts *Options) Outcome {
	r := &run{opts: opts.withDefaults(), req: req, ctx: ctx}
	if err := ctx.Err(); err != nil {
		return r.outcome(canceled(ctx))
	}
	if len(req.Code) > r.opts.MaxScriptBytes {
		return r.outcome(&ScriptError{Message: fmt.Sprintf("the script is %d bytes; the limit is %d", len(req.Code), r.opts.MaxScriptBytes)})
	}
	if req.Funnel == nil {
		r.req.Funnel = FunnelFunc(func(context.Context, Call) (Output, error) { return Output{}, ErrNoFunnel })
	}
	r.budget, r.stop = context.WithCancelCause(ctx)
	defer r.stop(nil)
	r.memory = newMemoryGuard(uint64(r.opts.MaxMemory))
	r.clock = newClock(r.opts.Budget, func() { r.stop(r.budgetError()) }, r.memory)
	r.left = make(chan struct{})
	r.phase.Store(vmCompiling)
	r.compileStart = time.Now()
	r.clock.start()
	done := make(chan Outcome, 1)
	go func() { done <- r.execute() }()
	select {
	case out := <-done:
		return out
	case <-r.budget.Done():
		return r.leave(done)
	}
}

// The phases of the VM goroutine that Run's goroutine tells apart once the
// run is stopped. Only the VM goroutine moves out of vmCompiling and
// vmCalling (to vmRunning), and only Run's goroutine moves into vmClosed
// and vmLeft, so whoever swaps the phase first decides.
const (
	// vmRunning: the VM runs Go or Lua code of the run's own, which ends
	// at its next look at the stop; Run waits for its outcome.
	vmRunning int32 = iota
	// vmCompiling: the compiler, which stops reading the source soon.
	vmCompiling
	// vmCalling: a single call in the funnel (r.calling), which may
	// ignore its context.
	vmCalling
	// vmClosed: the run is stopped and Run waits for the VM's outcome; no
	// call is started any more.
	vmClosed
	// vmLeft: Run returned while the VM was compiling or calling; the VM
	// goroutine waits for r.left and then unwinds, building nothing Run's
	// caller sees.
	vmLeft
)

// leave is how Run's goroutine ends a stopped run: it waits for the VM's
// outcome unless the VM is held in the compiler or a funnel, and then
// returns at once, naming the call as abandoned.
func (r *run) leave(done <-chan Outcome) Outcome {
	for {
		switch phase := r.phase.Load(); phase {
		case vmRunning:
			if r.phase.CompareAndSwap(vmRunning, vmClosed) {
				return <-done
			}
		case vmCompiling, vmCalling:
			if !r.phase.CompareAndSwap(phase, vmLeft) {
				continue
			}
			// The VM goroutine touches nothing of the run until r.left
			// is closed.
			defer close(r.left)
			if phase == vmCalling {
				r.abandoned = append(r.abandoned, r.calling)
				r.waited += time.Since(r.callStart)
			} else {
				r.compiled = time.Since(r.compileStart)
			}
			return r.outcome(r.stopReason())
		default:
			return <-done
		}
	}
}

// back moves the VM goroutine from phase (compiling, calling) back to
// running. False means Run's goroutine has left: the VM goroutine waits
// until Run's goroutine is done with the run, and must then only unwind.
func (r *run) back(phase int32) bool {
	if r.phase.CompareAndSwap(phase, vmRunning) {
		return true
	}
	<-r.left
	return false
}

// execute is the VM goroutine: it compiles the script, runs it, carries
// its calls and renders its outcome.
func (r *run) execute() (out Outcome) {
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		// A Lua error raised outside the VM (installing the prelude, a
		// check of the context) because the run was stopped is that stop,
		// not a crash.
		if _, lua := p.(*glua.ApiError); lua {
			if stop := r.stopReason(); stop != nil {
				out = r.outcome(stop)
				return
			}
		}
		out = r.outcome(fmt.Errorf("%w: %v\n%s", ErrCrashed, p, debug.Stack()))
	}()
	defer r.clock.halt()
	script, err := r.compile()
	if !r.back(vmCompiling) {
		return Outcome{}
	}
	r.compiled = time.Since(r.compileStart)
	if err != nil {
		if stop := r.stopReason(); stop != nil {
			return r.outcome(stop)
		}
		return r.outcome(err)
	}

	r.st = prepared.take()
	defer r.st.Close()
	r.st.Bind(&luavm.Options{
		MaxStringBytes: r.opts.MaxStringBytes,
		MaxCoroutines:  r.opts.MaxCoroutines,
		Print:          r.print,
		PrintRoom:      r.printRoom,
		OnCrash:        func(err error) { r.stop(fmt.Errorf("%w: %w", ErrCrashed, err)) },
	}, luavm.Host{
		Known:   r.known,
		Suggest: r.suggest,
		Submit:  r.submit,
		Perform: r.performNow,
		Collect: r.collect,
	})
	// The context goes on before any coroutine exists: gopher-lua gives
	// each new thread a child of its creator's context.
	watched := newWatchedContext(r)
	r.st.L.SetContext(watched)
	r.script = script
	fn, args := r.st.Load(script)
	th, cancel := r.st.L.NewThread()
	cancel()
	th.SetContext(watched)
	r.main = th
	r.st.SetMain(th)
	return r.outcome(r.drive(th, fn, args))
}

// compile compiles the script on the budget clock, in the vmCompiling
// phase: a run stopped meanwhile (budget, cancellation) returns at once,
// and the compilation, which stops reading the source then and which
// Compile's limits keep short, ends on its own and is dropped.
func (r *run) compile() (script *luavm.Script, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: compiling panicked: %v\n%s", ErrCrashed, p, debug.Stack())
		}
	}()
	script, err = luavm.CompileContext(r.budget, r.req.Code)
	if err != nil {
		err = &ScriptError{Message: err.Error()}
	}
	return script, err
}

// drive resumes the script until it ends. Each yield that carries tool
// calls is answered by performing them with the clock stopped. The clock
// is left running when the script ends: turning its error or its result
// into text is the script's time too.
func (r *run) drive(th *glua.LState, fn *glua.LFunction, args []glua.LValue) error {
	for {
		r.clock.start()
		state, err, values := r.st.L.Resume(th, fn, args...)
		switch state {
		case glua.ResumeOK:
			// The script finished; a budget or cancellation that lands
			// after its last instruction does not undo that, a crash does.
			if err := r.stopReason(); errors.Is(err, ErrCrashed) {
				return err
			}
			return nil
		case glua.ResumeError:
			if stop := r.stopReason(); stop != nil {
				return stop
			}
			return r.scriptError(err)
		}
		paused := r.clock.pause()
		args = nil
		ids, direct, calls := r.st.ToolYield(values, r.ids[:0])
		if calls {
			r.ids = ids
			r.perform(ids, paused)
			if direct {
				args = r.st.Answer(ids[0])
			}
			continue
		}
		// The script yielded from its main chunk, which C Lua refuses; the
		// prelude's yield turns this answer into that error.
		args = []glua.LValue{r.st.YieldError()}
	}
}

// stopReason is why the run was stopped from outside the VM, if it was.
// The caller's context ending (cancelled, or past its deadline) is
// ErrCanceled with the context's cause, as in a worker process.
func (r *run) stopReason() error {
	if r.budget.Err() == nil {
		return nil
	}
	cause := context.Cause(r.budget)
	if r.ctx.Err() != nil && errors.Is(cause, context.Cause(r.ctx)) {
		return canceled(r.ctx)
	}
	return cause
}

// canceled is a run ended by its caller's context: ErrCanceled, wrapping
// the context's cause (context.Canceled, context.DeadlineExceeded or the
// caller's own).
func canceled(ctx context.Context) error {
	return fmt.Errorf("%w: %w", ErrCanceled, context.Cause(ctx))
}

func (r *run) budgetError() error {
	return &BudgetError{Budget: r.opts.Budget}
}

// scriptError turns the error a script ended with into a ScriptError,
// linked to the nested call's Go error when the message came from one.
func (r *run) scriptError(err error) error {
	// An error value rendered as JSON is cut there already, marked with
	// "…"; a string (a message, a __tostring's) is cut here.
	keep := r.opts.MaxErrorChars()
	msg, err := r.st.ErrorMessage(r.main, err, keep-1)
	if err != nil {
		return r.stopReason()
	}
	se := &ScriptError{Message: CutMessage(r.script.Explain(msg), keep)}
	for i := len(r.callErrs) - 1; i >= 0; i-- {
		if strings.Contains(msg, r.callErrs[i].Error()) {
			se.Cause = r.callErrs[i]
			break
		}
	}
	return se
}

func (r *run) outcome(err error) Outcome {
	var out Outcome
	if err == nil && r.st != nil {
		err = r.result(&out)
	}
	out.Log, out.LogChars, out.Lines = r.log.String(), r.logChars, r.lines
	out.Calls, out.Abandoned, out.Images, out.DroppedImages = r.callNames(), r.abandoned, r.images, r.dropped
	out.Timings = Timings{Compile: r.compiled, ToolWait: r.waited}
	if r.clock != nil {
		r.clock.pause() // the run is over: rendering the result was its last step
		out.Timings.Script = r.opts.Budget - r.clock.remaining
	}
	out.Err = err
	return out
}

// result renders what the script returned, cut at MaxResultChars and
// counted in full, under the budget clock and the run's cancellation.
func (r *run) result(out *Outcome) error {
	values, returned := r.st.Results()
	if !returned || len(values) == 0 {
		return nil
	}
	rendered, err := r.st.RenderResult(values, r.opts.MaxResultChars)
	if err != nil {
		return r.stopReason()
	}
	_, str := values[0].(glua.LString)
	out.Result, out.ResultChars, out.HasResult = rendered.Text, rendered.Chars, true
	out.LeftOutKeys = rendered.LeftOut
	out.StringResult = str && len(values) == 1
	return nil
}

// printRoom is how many characters of the next printed line the log can
// still keep.
func (r *run) printRoom() int {
	room := r.opts.MaxLogChars - r.logChars
	if r.printed > 0 {
		room-- // the newline
	}
	return max(room, 0)
}

// print collects one printed line, already cut to printRoom; the newline
// between lines counts as a character of the log.
func (r *run) print(line string, chars int) {
	room := r.printRoom()
	if r.printed > 0 {
		chars++
		if r.logChars < r.opts.MaxLogChars {
			r.log.WriteByte('\n')
		}
	}
	r.printed++
	r.logChars += chars
	if room > 0 {
		r.log.WriteString(line)
		r.lines = append(r.lines, line)
	}
	if r.req.OnPrint != nil {
		r.req.OnPrint(r.log.String(), r.lines, r.logChars)
	}
}
