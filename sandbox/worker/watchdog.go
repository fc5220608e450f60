package worker

import (
	"sync"
	"time"
)

// watchdog is the host's copy of the budget clock: it runs while the
// worker computes and stops while the host performs its calls, and fires
// once the budget plus the grace period is spent. The worker's own clock
// stops the script first; this one is for a worker stuck in a single step.
type watchdog struct {
	mu        sync.Mutex
	timer     *time.Timer
	remaining time.Duration
	spent     time.Duration
	since     time.Time
	running   bool
	stopped   bool // for good: a call answered after the run is over resumes nothing
}

func newWatchdog(limit time.Duration, fire func()) *watchdog {
	return &watchdog{timer: time.AfterFunc(limit, fire), remaining: limit, since: time.Now(), running: true}
}

func (d *watchdog) pause() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.running {
		return
	}
	d.running = false
	d.timer.Stop()
	ran := time.Since(d.since)
	d.remaining -= ran
	d.spent += ran
}

func (d *watchdog) resume() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.running || d.stopped {
		return
	}
	d.running = true
	d.since = time.Now()
	d.timer.Reset(max(d.remaining, 0))
}

func (d *watchdog) stop() {
	d.pause()
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopped = true
}

// elapsed is the time the worker has computed so far.
func (d *watchdog) elapsed() time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.running {
		return d.spent + time.Since(d.since)
	}
	return d.spent
}
