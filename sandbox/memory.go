package sandbox

import (
	"context"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// memoryGuard stops a run that itself holds more than its limit. Go has no
// per-goroutine accounting, so the process's heap is only the trigger:
// while the VM runs, the budget clock has the guard sample the heap every
// memoryCheckEvery,
// and once it has grown past the trigger it asks for a measurement. The
// run's own goroutine performs it between two instructions (see
// watchedContext): it walks what the script can reach and stops the run
// only when that is over the limit. Otherwise the trigger moves up to the
// current heap plus the room the run has left, so a host or another run
// allocating beside this one costs it a walk now and then, never its run.
//
// Two samples make the trigger: the live heap as of the last GC (a script
// that builds huge tables triggers GCs as it goes), and all heap objects,
// garbage included, against twice the room (in case the GC does not run,
// GOGC=off).
type memoryGuard struct {
	limit uint64

	mu      sync.Mutex
	trigger heapSample
	// requested is set by the budget clock's timer and read by the run's
	// goroutine at every instruction.
	requested atomic.Bool
}

// memoryCheckEvery is how often the budget clock has the guard look while
// the script runs.
const memoryCheckEvery = 5 * time.Millisecond

type heapSample struct{ live, objects uint64 }

func readHeap() heapSample {
	samples := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(samples)
	var h heapSample
	if samples[0].Value.Kind() == metrics.KindUint64 {
		h.live = samples[0].Value.Uint64()
	}
	if samples[1].Value.Kind() == metrics.KindUint64 {
		h.objects = samples[1].Value.Uint64()
	}
	return h
}

func newMemoryGuard(limit uint64) *memoryGuard {
	g := &memoryGuard{limit: limit}
	g.rearm(0)
	return g
}

// rearm sets the trigger from the current heap, for a run found to hold
// held bytes. The room is at least an eighth of the limit, so that a run
// near its limit is not walked at every sample; it can end that much over
// its limit before it is stopped.
func (g *memoryGuard) rearm(held uint64) {
	room := max(g.limit-min(held, g.limit), g.limit/8)
	now := readHeap()
	g.mu.Lock()
	defer g.mu.Unlock()
	g.trigger = heapSample{live: now.live + room, objects: now.objects + 2*room}
}

// over reports whether a heap sample is past the trigger.
func (g *memoryGuard) over(now heapSample) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return now.live > g.trigger.live || now.objects > g.trigger.objects
}

// check reads the heap and, past the trigger, asks the run to measure
// itself; the budget clock's timer calls it while the script runs.
func (g *memoryGuard) check() {
	if g.over(readHeap()) {
		g.requested.Store(true)
	}
}

// watchedContext is the run's context as the VM sees it. gopher-lua calls
// Done at every instruction of every thread (each is given this context),
// on the run's goroutine, which is where a requested measurement can walk
// the VM's state safely.
type watchedContext struct {
	context.Context
	r *run
	// done is the context's Done channel, read once: gopher-lua asks for
	// it at every instruction.
	done <-chan struct{}
}

func newWatchedContext(r *run) *watchedContext {
	return &watchedContext{Context: r.budget, r: r, done: r.budget.Done()}
}

func (c *watchedContext) Done() <-chan struct{} {
	if c.r.memory.requested.Load() {
		c.r.measure()
	}
	return c.done
}

// measure walks what the script holds and stops the run when that is over
// its limit.
func (r *run) measure() {
	r.memory.requested.Store(false)
	held, over := r.st.Footprint(r.main, r.opts.MaxMemory)
	if over {
		r.stop(&MemoryError{Limit: r.opts.MaxMemory})
		return
	}
	r.memory.rearm(uint64(held))
}
