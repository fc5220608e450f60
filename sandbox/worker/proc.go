package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/execlua/execlua/sandbox"
)

// WorkerError is a worker that failed outside its script: it could not
// start, spoke another protocol, or died for a reason other than a limit
// (a crash of the runtime, a signal from outside). It matches
// sandbox.ErrCrashed, so the run reads as a crash.
type WorkerError struct{ Detail string }

func (e *WorkerError) Error() string { return "worker process: " + e.Detail }
func (e *WorkerError) Unwrap() error { return sandbox.ErrCrashed }

// startTimeout bounds how long a worker may take to say hello: a guard
// against a binary that never speaks the protocol, not a target. A worker
// started on a machine busy with other work (a load average of 40 on two
// cores, many workers starting at once) has taken over 10 s.
const startTimeout = 60 * time.Second

// Why the host killed a worker.
const (
	killNone int32 = iota
	killBudget
	killCanceled
	killMemory
	killFunnel // the funnel panicked; the error is in hostRun.crash
	killEnd    // the run is over
)

// proc is one worker process as the host sees it.
type proc struct {
	cmd    *exec.Cmd
	pid    int
	c      *conn
	in     *os.File // the worker's stdin, our end
	out    *os.File // the worker's stdout, our end
	stderr *headBuffer
	base   uint64 // resident memory when it said hello

	exited  chan struct{}
	waitErr error
	killed  atomic.Int32
}

// start launches a worker and waits for its hello.
func start(path string, args, env []string) (*proc, error) {
	path, err := executable(path)
	if err != nil {
		return nil, &WorkerError{Detail: fmt.Sprintf("cannot find the worker binary: %v", err)}
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, &WorkerError{Detail: err.Error()}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, &WorkerError{Detail: err.Error()}
	}
	w := &proc{in: inW, out: outR, stderr: &headBuffer{max: 4 << 10}, exited: make(chan struct{})}
	w.cmd = exec.Command(path, args...)
	w.cmd.Env = env
	w.cmd.Stdin, w.cmd.Stdout, w.cmd.Stderr = inR, outW, w.stderr
	err = w.cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, &WorkerError{Detail: fmt.Sprintf("cannot start %s: %v", path, err)}
	}
	w.pid = w.cmd.Process.Pid
	go func() {
		w.waitErr = w.cmd.Wait()
		close(w.exited)
	}()
	w.c = newConn(newRawPipe(outR), newRawPipe(inW))

	timer := time.AfterFunc(startTimeout, func() { w.kill(killEnd) })
	hello, err := w.c.receive()
	timer.Stop()
	switch {
	case err != nil:
		w.end()
		return nil, &WorkerError{Detail: fmt.Sprintf("%s did not start as a worker: %s", path, w.died(err))}
	case hello.Type != msgHello || hello.Version != Version:
		w.end()
		return nil, &WorkerError{Detail: fmt.Sprintf("%s speaks worker protocol version %d (message %q); this host speaks %d", path, hello.Version, hello.Type, Version)}
	}
	w.base, _ = residentMemory(w.pid)
	return w, nil
}

// alive reports whether the process has not exited.
func (w *proc) alive() bool {
	select {
	case <-w.exited:
		return false
	default:
		return true
	}
}

// kill ends the process at once, remembering why (the first reason wins).
func (w *proc) kill(why int32) {
	w.killed.CompareAndSwap(killNone, why)
	_ = w.cmd.Process.Kill()
}

// end kills the process if it still runs, waits for it and closes the
// pipes.
func (w *proc) end() {
	w.kill(killEnd)
	<-w.exited
	w.in.Close()
	w.out.Close()
}

// died describes a worker, already killed, whose frames stopped: the
// frame that broke the protocol, or how the process ended and the start
// of what it wrote to stderr.
func (w *proc) died(readErr error) string {
	<-w.exited
	if !errors.Is(readErr, io.EOF) && !errors.Is(readErr, io.ErrUnexpectedEOF) {
		return fmt.Sprintf("it broke the protocol (%v)", readErr)
	}
	detail := fmt.Sprint(w.waitErr)
	if w.waitErr == nil {
		detail = "it exited"
	}
	if s := strings.TrimSpace(w.stderr.String()); s != "" {
		detail += ": " + s
	}
	return detail
}

// hostRun is the host's side of one run in a worker.
type hostRun struct {
	w      *proc
	req    sandbox.Request
	ctx    context.Context
	budget time.Duration

	mu       sync.Mutex
	inFlight map[int]inFlight
	callErrs map[int]error
	clock    *watchdog
	waited   time.Duration
	waitFrom time.Time
	calls    []string
	crash    error // the funnel's panic

	// The call the reading goroutine performs (its sequence number, 0 for
	// none), and the one that was out at the clock's last tick.
	inline, inlineSeq, watched uint64
	limit                      int    // the run's MaxMemory, for the clock
	threshold                  uint64 // the resident memory it kills at

	ended chan sandbox.Outcome // the reader's outcome, to run

	// What the worker printed so far, for an outcome that never arrives.
	log      strings.Builder
	lines    []string
	logChars int
	canceled sync.Once
}

// cancel tells the worker that the caller cancelled the run, once. It
// goes out before any answer sent after the cancellation, so that the
// worker sees a call cut short by it as the cancellation, as in-process.
func (r *hostRun) cancel() {
	r.canceled.Do(func() { _ = r.w.c.send(&message{Type: msgCancel}, true) })
}

// run sends the script to the worker and serves its calls until the
// outcome arrives or the worker dies.
func (w *proc) run(ctx context.Context, req sandbox.Request, opts sandbox.Options, grace time.Duration) sandbox.Outcome {
	budget := opts.Budget
	if budget <= 0 {
		budget = sandbox.DefaultBudget
	}
	limit := opts.MaxMemory
	if limit <= 0 {
		limit = sandbox.DefaultMaxMemory
	}
	r := &hostRun{w: w, req: req, ctx: ctx, budget: budget, inFlight: map[int]inFlight{}, callErrs: map[int]error{},
		ended: make(chan sandbox.Outcome, 1)}
	err := w.c.send(&message{Type: msgRun, Run: &runRequest{
		Code: req.Code, Tools: names(req.Tools), SearchSchema: req.SearchSchema,
		HasFunnel: req.Funnel != nil, HasSearch: req.Search != nil, Options: opts,
	}}, true)
	if err != nil {
		return r.failed(limit, err)
	}
	r.clock = newWatchdog(budget+grace, func() { w.kill(killBudget) })
	defer r.clock.stop()
	killLate := time.AfterFunc(grace, func() { w.kill(killCanceled) })
	killLate.Stop()
	defer killLate.Stop()
	stopCancel := context.AfterFunc(ctx, func() {
		r.cancel()
		killLate.Reset(grace)
	})
	defer stopCancel()
	stopClock := r.watch(limit)
	defer stopClock()
	defer r.abandonAll()
	// This goroutine reads the frames until the first call, which a
	// goroutine of its own performs and reads on: this one may then
	// leave a funnel that ignores its context.
	if out, ended := r.read(limit, nil, true); ended {
		return out
	}
	return <-r.ended
}

// serve reads the frames from m on, on a goroutine other than run's, and
// hands run the outcome if the run ends while it reads.
func (r *hostRun) serve(limit int, m *message) {
	if out, ended := r.read(limit, m, false); ended {
		r.ended <- out
	}
}

// read serves the worker's frames, from m (a call frame read already) if
// not nil, until the run ends (ended, with its outcome). It returns early,
// not ended, once another goroutine reads: on run's own goroutine (own)
// at the first call, elsewhere when the reading was handed over while
// this goroutine waited for a funnel (callInline).
func (r *hostRun) read(limit int, m *message, own bool) (out sandbox.Outcome, ended bool) {
	w, req := r.w, r.req
	for ; ; m = nil {
		if m == nil {
			var err error
			if m, err = w.c.receive(); err != nil {
				return r.failed(limit, err), true
			}
		}
		switch m.Type {
		case msgPrinted:
			r.log.WriteString(m.Name)
			r.lines = append(r.lines, m.Lines...)
			r.logChars = m.Chars
			if req.OnPrint != nil {
				req.OnPrint(r.log.String(), r.lines, r.logChars)
			}
		case msgCalled:
			r.calls = append(r.calls, m.Name)
			if req.OnCall != nil {
				req.OnCall(m.Name)
			}
		case msgCall:
			switch {
			case own:
				go r.serve(limit, m)
				return sandbox.Outcome{}, false
			case w.c.buffered():
				// More frames are here already: the calls of a
				// tools.parallel, each on its own goroutine.
				ctx, cancel := r.begin(m)
				go r.perform(m, ctx, cancel)
			case !r.callInline(m):
				return sandbox.Outcome{}, false
			}
		case msgSearch:
			r.search(m)
		case msgSchema:
			r.answer(m.ID, sandbox.Output{Structured: r.schema(m.Name)}, nil)
		case msgAbandon:
			r.abandon(m.ID)
		case msgOutcome:
			if m.Outcome == nil {
				return r.failed(limit, errors.New("an outcome frame without an outcome")), true
			}
			out := m.Outcome.decode(r.ctx, r.hostErr)
			out.Abandoned = r.abandoned()
			return out, true
		default:
			return r.failed(limit, fmt.Errorf("a frame of type %q from the worker", m.Type)), true
		}
	}
}

// failed is the outcome of a run whose worker stopped answering: killed by
// this host for a limit or a cancellation, or dead of something else.
func (r *hostRun) failed(limit int, readErr error) sandbox.Outcome {
	r.w.kill(killEnd)
	detail := r.w.died(readErr)
	out := sandbox.Outcome{Log: r.log.String(), LogChars: r.logChars, Lines: r.lines, Calls: r.calls, Abandoned: r.abandoned()}
	r.mu.Lock()
	out.Timings.ToolWait = r.waited
	r.mu.Unlock()
	if r.clock != nil {
		out.Timings.Script = r.clock.elapsed()
	}
	switch r.w.killed.Load() {
	case killBudget:
		out.Err = &sandbox.BudgetError{Budget: r.budget}
	case killCanceled:
		out.Err = canceled(r.ctx)
	case killMemory:
		out.Err = &sandbox.MemoryError{Limit: limit}
	case killFunnel:
		r.mu.Lock()
		out.Err = r.crash
		r.mu.Unlock()
	default:
		switch err := killedByLimit(r.w.cmd.ProcessState, r.budget); {
		case outOfMemory(r.w.cmd.ProcessState, r.w.stderr.String()):
			out.Err = &sandbox.MemoryError{Limit: limit}
		case err != nil:
			out.Err = err
		default:
			out.Err = &WorkerError{Detail: "the worker failed during the run: " + detail}
		}
	}
	return out
}

// outOfMemory reports whether a worker died of the Go runtime failing to
// get memory (a fatal error, exit status 2, saying so on stderr): the
// address-space limit refused an allocation.
func outOfMemory(st *os.ProcessState, stderr string) bool {
	return st.ExitCode() == 2 && (strings.Contains(stderr, "runtime: out of memory") || strings.Contains(stderr, "cannot allocate memory"))
}

// watch has the host's clock look after the run until the function it
// returns is called: each tick hands the reading over from a call
// performed inline that was already out at the previous tick
// (callInline), and every memoryEvery ticks the worker is killed if its
// resident memory grew past the limit plus the headroom (unless that
// cannot be read here).
func (r *hostRun) watch(limit int) (stop func()) {
	r.limit = limit
	r.threshold = r.w.base + raceMemoryFactor*(uint64(limit)+killHeadroom)
	runClock.add(r)
	return func() { runClock.remove(r) }
}

// callInline performs a call on the goroutine that read its frame,
// sparing a goroutine's start and the wake-up of another thread per
// call. If the funnel is still out at two ticks of the host's clock in
// a row (clockTick), another goroutine takes over the reading, so that the
// worker's next frames (another call, an abandon, the outcome) are still
// served. It reports whether this goroutine still reads.
func (r *hostRun) callInline(m *message) bool {
	ctx, cancel := r.begin(m)
	r.mu.Lock()
	r.inlineSeq++
	r.inline = r.inlineSeq
	r.mu.Unlock()
	r.perform(m, ctx, cancel)
	r.mu.Lock()
	still := r.inline != 0
	r.inline = 0
	r.mu.Unlock()
	return still
}

// tick is a tick of the host's clock: it hands the reading over to a new
// goroutine if the call performed inline now was out at the previous tick
// as well, and, if memory, looks at the worker's resident memory.
func (r *hostRun) tick(memory bool) {
	r.mu.Lock()
	take := r.inline != 0 && r.inline == r.watched
	if take {
		r.inline = 0
	}
	r.watched = r.inline
	r.mu.Unlock()
	if take {
		go r.serve(r.limit, nil)
	}
	w := r.w
	if memory && w.base != 0 && w.killed.Load() == killNone {
		if rss, err := residentMemory(w.pid); err == nil && rss > r.threshold {
			w.kill(killMemory)
		}
	}
}

// begin registers a call as in flight, with the budget's watchdog stopped
// while any call is.
func (r *hostRun) begin(m *message) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(r.ctx)
	r.mu.Lock()
	if len(r.inFlight) == 0 {
		r.clock.pause()
		r.waitFrom = time.Now()
	}
	r.inFlight[m.ID] = inFlight{name: m.Name, cancel: cancel}
	r.mu.Unlock()
	return ctx, cancel
}

// perform calls the funnel and sends the answer.
func (r *hostRun) perform(m *message, ctx context.Context, cancel context.CancelFunc) {
	defer cancel()
	out, err := r.call(ctx, sandbox.Call{Name: m.Name, Args: m.Args})
	r.mu.Lock()
	delete(r.inFlight, m.ID)
	if len(r.inFlight) == 0 {
		r.waited += time.Since(r.waitFrom)
		r.clock.resume()
	}
	r.mu.Unlock()
	r.answer(m.ID, out, err)
}

// call is the funnel's call; a panic there ends the run as a crash, as it
// does in-process.
func (r *hostRun) call(ctx context.Context, call sandbox.Call) (out sandbox.Output, err error) {
	defer func() {
		if v := recover(); v != nil {
			r.mu.Lock()
			r.crash = fmt.Errorf("%w: the funnel panicked on %s: %v", sandbox.ErrCrashed, call.Name, v)
			r.mu.Unlock()
			r.w.kill(killFunnel)
			err = sandbox.ErrCrashed
		}
	}()
	if r.req.Funnel == nil {
		return sandbox.Output{}, sandbox.ErrNoFunnel
	}
	out, err = r.req.Funnel.Call(ctx, call)
	if err != nil {
		return out, err
	}
	return encodeDecoded(call.Name, out)
}

// encodeDecoded encodes structured content the funnel handed over already
// decoded (Output.Decoded), once, since only bytes cross the pipe; the
// script gets the same value as in-process (encoding/json writes a map's
// keys sorted, as the conversion to Lua orders them). A value JSON cannot
// hold fails the call with the tool's name, as in-process.
func encodeDecoded(name string, out sandbox.Output) (sandbox.Output, error) {
	if out.Decoded == nil || len(out.Structured) > 0 {
		return out, nil
	}
	js, err := json.Marshal(out.Decoded)
	if err != nil {
		return sandbox.Output{}, fmt.Errorf("%s: tool output cannot be converted: %w", name, err)
	}
	out.Structured, out.Decoded = js, nil
	return out, nil
}

// search answers a ToolSearch on the reading goroutine: it is quick and
// the script waits for it.
func (r *hostRun) search(m *message) {
	if r.req.Search == nil {
		r.answer(m.ID, sandbox.Output{}, fmt.Errorf("tools.%s is not available in this session", sandbox.SearchName))
		return
	}
	res, err := r.req.Search(m.Args)
	r.answer(m.ID, sandbox.Output{Structured: res}, err)
}

// schema is a tool's input schema, for the worker's encoding of its
// arguments.
func (r *hostRun) schema(name string) json.RawMessage {
	for _, t := range r.req.Tools.Tools() {
		if t.Name == name {
			return t.InputSchema
		}
	}
	return nil
}

// names are the names of the reachable set's tools, all the worker learns
// of them up front.
func names(ts *sandbox.Toolset) []string {
	tools := ts.Tools()
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return names
}

// answer sends a call's result; an error is kept here, by call id, so that
// the run's error can unwrap to it.
func (r *hostRun) answer(id int, out sandbox.Output, err error) {
	if r.ctx.Err() != nil {
		r.cancel()
	}
	m := &message{Type: msgResult, ID: id}
	if err != nil {
		r.mu.Lock()
		r.callErrs[id] = err
		r.mu.Unlock()
		m.Failed, m.Name = true, err.Error()
	} else {
		m.Out = out
	}
	if err := r.w.c.send(m, true); errors.Is(err, errFrameTooLarge) {
		m = &message{Type: msgResult, ID: id, Failed: true, Name: "the tool's output is too large to pass to the script (" + err.Error() + ")"}
		_ = r.w.c.send(m, true)
	}
	// A broken pipe shows up in the reading loop.
}

func (r *hostRun) hostErr(id int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.callErrs[id]
}

// abandon cancels a call the script no longer waits for.
func (r *hostRun) abandon(id int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if call, ok := r.inFlight[id]; ok {
		call.cancel()
	}
}

// abandonAll cancels the calls still in flight when the run ends.
func (r *hostRun) abandonAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, call := range r.inFlight {
		call.cancel()
	}
}

// inFlight is a call whose funnel has not returned yet.
type inFlight struct {
	name   string
	cancel context.CancelFunc
}

// abandoned names the calls whose funnel has not returned as the run
// ends, in the order they were made: the run does not wait for them
// (Outcome.Abandoned). The worker's own list names only its stand-ins
// for the host's funnel, which return as soon as the run stops.
func (r *hostRun) abandoned() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := slices.Sorted(maps.Keys(r.inFlight))
	var names []string
	for _, id := range ids {
		names = append(names, r.inFlight[id].name)
	}
	return names
}

// headBuffer keeps the first max bytes written to it: a Go runtime's
// fatal error and the top of its stack.
type headBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (h *headBuffer) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if room := h.max - len(h.b); room > 0 {
		h.b = append(h.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (h *headBuffer) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return string(h.b)
}
