package execlua

import (
	"context"
	"fmt"

	"github.com/execlua/execlua/sandbox"
	"github.com/execlua/execlua/sandbox/worker"
)

// Isolation says where a Session's scripts run.
type Isolation string

const (
	// InProcess runs scripts on a goroutine of the host (the default, "").
	// Fastest; but the host's heap is shared and a single step of the VM
	// that never returns cannot be stopped.
	InProcess Isolation = "inprocess"
	// Process runs each script in a worker process: the host's own binary
	// re-executed (see ServeWorker), one run per process, from a pool of
	// started workers. A run then has a memory cap of its own, is killed
	// when it overruns its budget or a cancellation by a grace period, and
	// cannot take the host down; nested calls still go through the host's
	// funnel. Outcomes are the same as in-process.
	Process Isolation = "process"
)

// ParseIsolation reads an isolation's name, "inprocess" or "process".
func ParseIsolation(s string) (Isolation, error) {
	switch i := Isolation(s); i {
	case InProcess, Process:
		return i, nil
	}
	return "", fmt.Errorf("unknown isolation %q: expected %q or %q", s, InProcess, Process)
}

type (
	// WorkerPool runs scripts in worker processes (worker.Pool); give one
	// to Options.Workers to set its size and binary, or leave it nil for
	// a shared default pool.
	WorkerPool = worker.Pool
	// WorkerOptions configure a WorkerPool (worker.Options).
	WorkerOptions = worker.Options
)

// NewWorkerPool starts a pool of worker processes; Close it when the host
// is done with it.
func NewWorkerPool(opts *WorkerOptions) *WorkerPool { return worker.New(opts) }

// IsWorker reports whether this process was started as a worker. A host
// that uses Process isolation calls it first thing in main:
//
//	func main() {
//		if execlua.IsWorker() {
//			os.Exit(execlua.ServeWorker())
//		}
//		...
//	}
func IsWorker() bool { return worker.IsWorker() }

// ServeWorker serves the one run this worker process was started for and
// returns its exit code.
func ServeWorker() int { return worker.Serve() }

// runner is how a Session runs a script: sandbox.Run, or the same in a
// worker process.
type runner func(context.Context, sandbox.Request, *sandbox.Options) sandbox.Outcome

// runner picks the runner for the options' isolation.
func (o *Options) runner() (runner, error) {
	if _, err := ParseIsolation(string(o.Isolation)); o.Isolation != "" && err != nil {
		return nil, err
	}
	return worker.RunIn(o.Isolation == Process, o.Workers), nil
}
