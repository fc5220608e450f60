package worker

import (
	"runtime/debug"
	"time"

	"github.com/execlua/execlua/sandbox"
	glua "github.com/yuin/gopher-lua"
)

// Memory headroom of a worker past its run's MaxMemory: the Go runtime,
// the Lua state and the protocol's buffers. The host kills a worker whose
// resident memory passes MaxMemory plus killHeadroom.
const (
	softHeadroom = 32 << 20
	killHeadroom = 48 << 20
)

// limitRun sets what is process-wide in the worker, now that the process
// is this run's alone: Go's memory limit, so that the collector works hard
// before the sandbox's guard or the host's kill, and gopher-lua's largest
// array index, so that one assignment to a very far index builds a hash
// entry instead of filling an array of gigabytes up to it; then the operating system's limits.
func limitRun(opts *sandbox.Options) error {
	limit := opts.MaxMemory
	if limit <= 0 {
		limit = sandbox.DefaultMaxMemory
	}
	debug.SetMemoryLimit(int64(limit + softHeadroom))
	// No sequence longer than MaxMemory/16 elements fits in the limit (a
	// slot of the array part is 16 bytes), so past that index nothing an
	// honest run does changes; a far index then makes a hash entry instead
	// of one step that fills an array up to it.
	glua.MaxArrayIndex = max(limit/16, 1<<10)
	return limitProcess(uint64(limit), opts)
}

// cpuBackstop is the CPU a run may use, past what its worker used before
// the run, before the kernel kills it: twice the budget (the collector
// runs beside the script) plus two seconds. The host's own kill, at the
// budget plus the grace period, comes first; a worker killed at this
// limit still reads as over its budget.
func cpuBackstop(budget time.Duration) time.Duration {
	if budget <= 0 {
		budget = sandbox.DefaultBudget
	}
	return 2*budget + 2*time.Second
}
