package sandbox

import (
	"runtime/metrics"
	"time"
)

// memoryGuard stops a run whose script makes the process's heap grow past
// a limit. Go has no per-goroutine accounting, so this reads the process's
// heap while the VM runs: mainly the live heap as of the last GC (a script
// that builds huge tables triggers GCs as it goes, and is stopped within a
// few of them), and, in case the GC does not run (GOGC=off), all heap
// objects garbage included, against twice the limit. Other work of the
// host growing its heap at the same moment is counted against the run too
// (see docs/rough_edges.md).
type memoryGuard struct {
	limit uint64
	base  heapSample
	stop  func()
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

func newMemoryGuard(limit uint64, stop func()) *memoryGuard {
	return &memoryGuard{limit: limit, base: readHeap(), stop: stop}
}

// over reports whether now is past the limit measured from the base.
func (g *memoryGuard) over(now heapSample) bool {
	grown := func(now, base, limit uint64) bool { return now > base && now-base > limit }
	return grown(now.live, g.base.live, g.limit) || grown(now.objects, g.base.objects, 2*g.limit)
}

// exceeded reads the heap and stops the run if it is over the limit.
func (g *memoryGuard) exceeded() bool {
	if g.over(readHeap()) {
		g.stop()
		return true
	}
	return false
}
