package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/execlua/execlua/sandbox"
)

// envWorker marks a process started as a worker; its value is the
// protocol version the host speaks.
const envWorker = "EXECLUA_WORKER"

// IsWorker reports whether this process was started as a worker. A host
// binary calls it first thing in main:
//
//	func main() {
//		if worker.IsWorker() {
//			os.Exit(worker.Serve())
//		}
//		...
//	}
func IsWorker() bool { return os.Getenv(envWorker) != "" }

// Serve is the worker's whole life: it announces itself on stdout, waits
// on stdin for one run, runs it with sandbox.Run, sends the outcome, and
// returns the process's exit code when the host closes its stdin (the host
// may look at the process meanwhile, and usually kills it). A worker dismissed before any run (its
// stdin closed) returns 0 at once.
func Serve() int {
	if v := os.Getenv(envWorker); v != fmt.Sprint(Version) {
		fmt.Fprintf(os.Stderr, "worker protocol version %q requested, this binary speaks %d\n", v, Version)
		return 2
	}
	// One processor: the script is one goroutine, and a frame from the
	// host then wakes the goroutine waiting for it on the same thread
	// instead of handing it to another.
	runtime.GOMAXPROCS(1)
	if err := restrictProcess(); err != nil {
		fmt.Fprintf(os.Stderr, "worker: %v\n", err)
		return 2
	}
	in, out := stdio()
	return serve(in, out)
}

func serve(in io.Reader, out io.Writer) int {
	// No Lua states prepared ahead: this process makes one run, and a
	// state prepared in the background would take the processor after the
	// hello (when the run may already be waiting for it) and again during
	// the run, for a state no run takes.
	sandbox.SetPreparedStates(0)
	// A throwaway run while idle: what a first run in a fresh process
	// builds once (the library template, the compiled prelude, a grown
	// heap) is then ready before the script arrives.
	sandbox.Run(context.Background(), sandbox.Request{Code: "return 1"}, nil)
	c := newConn(in, out)
	if c.send(&message{Type: msgHello, Version: Version, PID: os.Getpid()}, true) != nil {
		return 1
	}
	m, err := c.receive()
	if err != nil {
		return 0
	}
	if m.Type != msgRun || m.Run == nil {
		fmt.Fprintf(os.Stderr, "worker: expected a run, got a frame of type %q\n", m.Type)
		return 2
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &child{c: c, ctx: ctx, waiting: map[int]chan *message{}, hostDone: make(chan struct{})}
	go w.listen(cancel)

	opts := m.Run.Options
	if err := limitRun(&opts); err != nil {
		fmt.Fprintf(os.Stderr, "worker: %v\n", err)
		return 2
	}
	req := sandbox.Request{Code: m.Run.Code, Tools: sandbox.NewLazyToolset(m.Run.Tools, w.schema), Denied: m.Run.Denied, SearchSchema: m.Run.SearchSchema, OnCall: w.called, OnPrint: w.printed}
	if m.Run.HasFunnel {
		req.Funnel = w
	}
	if m.Run.HasSearch {
		req.Search = w.search
	}
	res := sandbox.Run(ctx, req, &opts)
	if c.send(&message{Type: msgOutcome, Outcome: encodeOutcome(res)}, true) != nil {
		return 1
	}
	<-w.hostDone // the host ends the process, once it has looked at it
	return 0
}

// child is the worker's side of a run: its funnel and search forward to
// the host and wait for the answer.
type child struct {
	c   *conn
	ctx context.Context

	mu      sync.Mutex
	nextID  int
	waiting map[int]chan *message
	gone    bool // the host closed the pipe

	hostDone chan struct{} // closed with the pipe

	sentLog, sentLines int // how much of the log the host has
}

// errHostGone answers calls once the host has closed the pipe; the run is
// cancelled by then.
var errHostGone = errors.New("the host closed the worker's pipe")

// listen reads the host's frames: answers go to their waiting call, a
// cancel (or the host going away) cancels the run.
func (w *child) listen(cancel context.CancelFunc) {
	for {
		m, err := w.c.receive()
		if err != nil {
			w.mu.Lock()
			w.gone = true
			for id, ch := range w.waiting {
				delete(w.waiting, id)
				close(ch)
			}
			w.mu.Unlock()
			cancel()
			close(w.hostDone)
			return
		}
		switch m.Type {
		case msgResult:
			w.mu.Lock()
			ch := w.waiting[m.ID]
			delete(w.waiting, m.ID)
			w.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		case msgCancel:
			cancel()
		}
	}
}

// ask sends a call or a search and waits for its answer or the end of ctx;
// a call given up on is abandoned, so that the host cancels it.
func (w *child) ask(ctx context.Context, m *message) (sandbox.Output, error) {
	ch := make(chan *message, 1)
	w.mu.Lock()
	if w.gone {
		w.mu.Unlock()
		return sandbox.Output{}, errHostGone
	}
	w.nextID++
	m.ID = w.nextID
	w.waiting[m.ID] = ch
	w.mu.Unlock()
	// The frame waits while the other goroutines that can run do (this
	// process has one processor): the calls of a tools.parallel then
	// leave in one write, and the host, finding them read together,
	// performs them at once rather than the first alone.
	err := w.c.send(m, false)
	if err == nil {
		runtime.Gosched()
		err = w.c.flush()
	}
	if err != nil {
		return sandbox.Output{}, errHostGone
	}
	select {
	case a, ok := <-ch:
		switch {
		case !ok:
			return sandbox.Output{}, errHostGone
		case a.Failed:
			return sandbox.Output{}, &hostError{id: m.ID, msg: a.Name}
		}
		return a.Out, nil
	case <-ctx.Done():
		w.mu.Lock()
		delete(w.waiting, m.ID)
		w.mu.Unlock()
		_ = w.c.send(&message{Type: msgAbandon, ID: m.ID}, true)
		return sandbox.Output{}, context.Cause(ctx)
	}
}

// Call forwards a nested call to the host's funnel.
func (w *child) Call(ctx context.Context, call sandbox.Call) (sandbox.Output, error) {
	return w.ask(ctx, &message{Type: msgCall, Name: call.Name, Args: call.Args})
}

// search forwards tools.ToolSearch to the host; a run stopped meanwhile
// stops waiting for it.
func (w *child) search(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
	out, err := w.ask(ctx, &message{Type: msgSearch, Args: args})
	return out.Structured, err
}

// schema asks the host for a tool's input schema; without an answer the
// arguments lose only the empty-array rule.
func (w *child) schema(name string) []byte {
	out, err := w.ask(w.ctx, &message{Type: msgSchema, Name: name})
	if err != nil {
		return nil
	}
	return out.Structured
}

// called tells the host of a call as the script makes it; the frame goes
// out with the next one (the call itself, or the outcome).
func (w *child) called(name string) {
	_ = w.c.send(&message{Type: msgCalled, Name: name}, false)
}

// printed streams what the log gained since the last print, so that a
// worker killed later still leaves the host what it printed. Nothing
// grows once the log is full but the count of characters, which then
// goes out with the next frame.
func (w *child) printed(log string, lines []string, chars int) {
	m := &message{Type: msgPrinted, Name: log[w.sentLog:], Lines: lines[w.sentLines:], Chars: chars}
	w.sentLog, w.sentLines = len(log), len(lines)
	_ = w.c.send(m, m.Name != "" || len(m.Lines) > 0)
}
