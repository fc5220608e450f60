package sandbox

import (
	"runtime/metrics"
	"sync"
	"time"
)

// memoryGuard stops a run whose script makes the process's live heap grow
// past a limit. Go has no per-goroutine accounting, so this reads the
// process's live heap (as of the last GC) while the VM runs: a script that
// builds huge tables triggers GCs as it goes, and is stopped within a few
// of them. Other work of the host growing its heap at the same moment is
// counted against the run too (see docs/rough_edges.md).
type memoryGuard struct {
	limit    uint64
	base     uint64
	exceeded func()

	mu      sync.Mutex
	running bool
	timer   *time.Timer
}

const memoryCheckEvery = 5 * time.Millisecond

func newMemoryGuard(limit uint64, exceeded func()) *memoryGuard {
	g := &memoryGuard{limit: limit, base: liveHeap(), exceeded: exceeded}
	g.timer = time.AfterFunc(memoryCheckEvery, g.check)
	g.timer.Stop()
	return g
}

func liveHeap() uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}

func (g *memoryGuard) check() {
	if live := liveHeap(); live > g.base && live-g.base > g.limit {
		g.exceeded()
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.running {
		g.timer.Reset(memoryCheckEvery)
	}
}

// start and pause follow the budget clock: the guard only looks while the
// script itself runs.
func (g *memoryGuard) start() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.running = true
	g.timer.Reset(memoryCheckEvery)
}

func (g *memoryGuard) pause() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.running = false
	g.timer.Stop()
}
