package worker

import (
	"runtime/debug"

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
// array index, so that one assignment to a far index builds a hash entry
// instead of filling an array up to it; then the operating system's limits.
func limitRun(opts *sandbox.Options) error {
	limit := opts.MaxMemory
	if limit <= 0 {
		limit = sandbox.DefaultMaxMemory
	}
	debug.SetMemoryLimit(int64(limit + softHeadroom))
	// An array part of MaxMemory/32 bytes' worth of 16-byte slots: even the
	// copy made while it grows stays under the limit. Longer sequences
	// keep their elements in the hash part, where # does not see them.
	glua.MaxArrayIndex = max(limit/32/16, 1<<10)
	return limitProcess(uint64(limit), opts)
}
