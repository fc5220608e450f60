// Package worker runs a script the way sandbox.Run does, but in a child
// process: the same binary, re-executed in a hidden mode, so that the run
// has a memory cap of its own, can be killed outright, and cannot take the
// host down. The driver, the conversion and the budget are package
// sandbox's, unchanged: the worker calls sandbox.Run with a funnel and a
// search that forward over its pipes, and the host answers them through
// the real ones.
//
// A host binary serves as its own worker by calling, first thing in main,
//
//	if worker.IsWorker() {
//		os.Exit(worker.Serve())
//	}
//
// and runs scripts with a Pool, whose Run has sandbox.Run's signature:
//
//	p := worker.New(nil) // two idle workers, started in the background
//	defer p.Close()
//	out := p.Run(ctx, req, &sandbox.Options{Budget: time.Second})
//
// One run per process: a worker serves one script and is then ended, so
// nothing of one run reaches the next; the pool keeps a few started
// workers idle (each has made a throwaway run of its own, so that what a
// first run builds once is ready) and starts another whenever one ends.
// A worker inherits none of the host's environment.
//
// The protocol is length-prefixed frames on the worker's stdin and
// stdout, version 2 (see the frame layout in protocol.go): JSON for the
// rare frames, binary for the frequent ones. The worker says hello (its
// version and pid; a host refuses another version); the host sends the run
// (the script, the names of the reachable tools, the options); the worker
// sends each nested call, each ToolSearch, the input schema it needs at a
// tool's first call with arguments, each call made (for OnCall) and what
// each print added to the log, and the host answers calls, searches and
// schemas by id; the host may send cancel, and the worker may abandon a
// call it no longer waits for; the worker ends with the outcome, whose error is flattened to a kind, a message and its cause
// and rebuilt on the host as the same typed errors and sentinels (a
// funnel's own error comes back as the very error the funnel returned).
// Structured content a funnel hands over decoded (Output.Decoded) is
// encoded to JSON on the host, once, since only bytes cross the pipe.
//
// Each nested call wakes both processes once, so the round trip is bound
// by what a wake-up and a wait cost; on Linux both ends keep Go's runtime
// from adding to it. The pipes are read and written with raw system calls
// and waited on in Go's poller (os.File's own reads and writes wake the
// runtime's monitor thread of a process that was idle, as each side is
// before each frame), and the host's one clock of the runs in flight (the
// hand-over and the memory watch, below) is a kernel timer (timerfd) in
// the poller rather than one of Go's timers (while one of those is
// pending, each wait of the poller arms and cancels a kernel timer).
//
// Calls on the host. The goroutine that reads the worker's frames
// performs a lone call itself, sparing a hand-over per call; if the
// funnel has not returned within 1-2 ms (two ticks of the host's clock)
// another goroutine takes over the reading, so that a funnel that
// ignores its context cannot hold the run and the calls of a
// tools.parallel overlap. Call frames read together (the worker sends a
// tools.parallel's in one write) run at once, each on a goroutine of
// its own. The run's own goroutine never performs a call: Run returns
// when the outcome arrives, whatever a funnel still does.
//
// Limits. In the worker, Go's memory limit is set just above the run's
// MaxMemory, and gopher-lua's largest array index is lowered to
// MaxMemory/16 (no longer sequence fits in the limit), so that a far index
// makes a hash entry instead of filling gigabytes of array in one step. On
// Linux the worker runs with PR_SET_NO_NEW_PRIVS, an address-space rlimit
// (its mapping at the run's start plus MaxMemory plus 256 MiB; not under
// the race detector) and a CPU rlimit behind the host's own kill. No
// seccomp filter is installed: Go's runtime needs a wide,
// version-dependent set of system calls, and a filter that missed one
// would crash honest runs.
//
// The host kills a worker that runs past its budget (script time, as the
// sandbox counts it) by more than the grace period, that does not end
// within the grace period of a cancellation, or whose resident memory
// (read every 2 ms) passes MaxMemory plus 48 MiB; the outcome is then ErrBudgetExceeded,
// ErrCanceled or ErrMemoryExceeded, as in-process; a worker the kernel
// killed at its CPU rlimit reads as the budget, and one whose Go runtime
// died of a refused allocation (the address-space limit) as the memory
// budget. A worker that dies otherwise is a WorkerError (matching
// sandbox.ErrCrashed), naming how it ended and the start of its stderr;
// the next run gets a fresh worker. Whatever the end, the failed outcome
// keeps the calls made and what the script printed, which reach the host
// as they happen.
package worker
