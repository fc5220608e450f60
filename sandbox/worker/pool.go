package worker

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/execlua/execlua/sandbox"
)

// Options configure a Pool. The zero value (and nil) re-executes the
// running binary, keeps two idle workers, and allows four live worker
// processes per core.
type Options struct {
	// Path is the worker binary; empty means this process's own
	// executable, which must call IsWorker and Serve first thing in main.
	Path string
	// Args are passed to the worker after its name.
	Args []string
	// Env is the worker's whole environment besides the variable that
	// makes it a worker: it inherits nothing of the host's.
	Env []string
	// Idle is how many started workers wait for a run (default 2).
	Idle int
	// MaxWorkers caps the live worker processes, idle ones included;
	// runs beyond it wait for a worker (default 4 per core).
	MaxWorkers int
	// Grace is how long past its budget, or past a cancellation, a worker
	// may take to end its run before it is killed (default 50 ms).
	Grace time.Duration
}

// Default values of Options.
const (
	DefaultIdle  = 2
	DefaultGrace = 50 * time.Millisecond
)

// Pool runs scripts in worker processes, one run per process, and keeps a
// few started workers idle so that a run does not wait for a process to
// start. It is safe for concurrent use.
type Pool struct {
	path  string
	args  []string
	env   []string
	grace time.Duration

	slots chan struct{} // one per live worker
	idle  chan *proc

	mu     sync.Mutex
	closed bool
	wg     sync.WaitGroup // starts and reaps in the background
}

// ErrClosed is the error of a run on a closed Pool.
var ErrClosed = errors.New("worker pool closed")

// New returns a pool and starts its idle workers in the background. A
// worker that cannot start shows up as the error of the run that needed
// it.
func New(opts *Options) *Pool {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Idle <= 0 {
		o.Idle = DefaultIdle
	}
	if o.MaxWorkers <= 0 {
		o.MaxWorkers = 4 * runtime.GOMAXPROCS(0)
	}
	o.MaxWorkers = max(o.MaxWorkers, 1)
	o.Idle = min(o.Idle, o.MaxWorkers)
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	p := &Pool{
		path:  o.Path,
		args:  o.Args,
		env:   append(o.Env[:len(o.Env):len(o.Env)], fmt.Sprintf("%s=%d", envWorker, Version)),
		grace: o.Grace * raceSlowdown,
		slots: make(chan struct{}, o.MaxWorkers),
		idle:  make(chan *proc, o.Idle),
	}
	p.refill()
	return p
}

var (
	defaultOnce sync.Once
	defaultPool *Pool
)

// Default is a pool with default Options, shared by the callers that do
// not bring their own; it is created on first use and never closed.
func Default() *Pool {
	defaultOnce.Do(func() { defaultPool = New(nil) })
	return defaultPool
}

// RunIn is how a host runs its scripts: sandbox.Run in this process, or,
// with process set, p's Run (the Default pool's when p is nil).
func RunIn(process bool, p *Pool) func(context.Context, sandbox.Request, *sandbox.Options) sandbox.Outcome {
	switch {
	case !process:
		return sandbox.Run
	case p == nil:
		return Default().Run
	}
	return p.Run
}

// Run is sandbox.Run in a worker process: the same request, options and
// outcome. Nested calls and ToolSearch come back to this process and go
// through req.Funnel and req.Search here; req.OnCall and req.OnPrint are
// told here as the worker calls and prints. A worker that overruns its
// budget or a cancellation by more than the grace period, or that grows
// past MaxMemory, is killed; the outcome then says so with the same errors
// as in-process (ErrBudgetExceeded, ErrCanceled, ErrMemoryExceeded). A
// worker that dies otherwise gives a WorkerError, which matches
// sandbox.ErrCrashed.
func (p *Pool) Run(ctx context.Context, req sandbox.Request, opts *sandbox.Options) sandbox.Outcome {
	if ctx.Err() != nil {
		return sandbox.Outcome{Err: canceled(ctx)}
	}
	w, err := p.acquire(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return sandbox.Outcome{Err: canceled(ctx)}
		}
		return sandbox.Outcome{Err: err}
	}
	defer p.release(w)
	var o sandbox.Options
	if opts != nil {
		o = *opts
	}
	return w.run(ctx, req, o, p.grace)
}

// acquire takes an idle worker, or starts one when a slot is free. The
// idle set is refilled when a worker ends, not here: a start beside the
// run would take CPU from it.
func (p *Pool) acquire(ctx context.Context) (*proc, error) {
	for {
		select {
		case w := <-p.idle:
			if w.alive() {
				return w, nil
			}
			p.release(w) // died while idle: a fresh one instead
			continue
		default:
		}
		if p.isClosed() {
			return nil, ErrClosed
		}
		select {
		case w := <-p.idle:
			if w.alive() {
				return w, nil
			}
			p.release(w)
		case p.slots <- struct{}{}:
			w, err := start(p.path, p.args, p.env)
			if err != nil {
				<-p.slots
				return nil, err
			}
			return w, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// refill starts workers in the background while the idle set has room and
// a slot is free.
func (p *Pool) refill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for !p.closed && len(p.idle) < cap(p.idle) {
		select {
		case p.slots <- struct{}{}:
		default:
			return
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			w, err := start(p.path, p.args, p.env)
			if err != nil {
				<-p.slots
				return
			}
			p.mu.Lock()
			defer p.mu.Unlock()
			select {
			case p.idle <- w:
				if !p.closed {
					return
				}
				<-p.idle // Close drained before this one arrived
			default:
			}
			p.reap(w)
		}()
	}
}

// release ends a worker after its run (or a dead idle one): killed if it
// still runs, waited for, its slot freed, in the background.
func (p *Pool) release(w *proc) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reap(w)
}

// reap is release with p.mu held.
func (p *Pool) reap(w *proc) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		w.end()
		<-p.slots
		p.refill()
	}()
}

// Stats counts the live worker processes (idle ones included) and the
// idle ones, for a host's metrics.
func (p *Pool) Stats() (live, idle int) { return len(p.slots), len(p.idle) }

func (p *Pool) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

// Close ends the idle workers and waits until every worker the pool
// started has exited; call it once no Run is in flight. Runs started
// after Close fail with ErrClosed.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	for len(p.idle) > 0 {
		p.reap(<-p.idle)
	}
	p.mu.Unlock()
	p.wg.Wait()
	return nil
}

// executable is the worker binary for an empty Options.Path.
func executable(path string) (string, error) {
	if path != "" {
		return path, nil
	}
	return os.Executable()
}
