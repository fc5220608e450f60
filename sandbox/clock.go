package sandbox

import "time"

// clock measures the script's own time: it runs only while the VM runs
// and calls expire once the budget is spent. It is used from the run's
// goroutine only; expire runs on a timer goroutine and must only cancel.
type clock struct {
	memory    *memoryGuard
	remaining time.Duration
	started   time.Time
	running   bool
	timer     *time.Timer
}

func newClock(budget time.Duration, expire func(), memory *memoryGuard) *clock {
	c := &clock{remaining: budget, timer: time.AfterFunc(budget, expire), memory: memory}
	c.timer.Stop()
	return c
}

func (c *clock) start() {
	if c.running {
		return
	}
	c.running = true
	c.started = time.Now()
	c.timer.Reset(max(c.remaining, 0))
	c.memory.start()
}

func (c *clock) pause() {
	if !c.running {
		return
	}
	c.running = false
	c.timer.Stop()
	c.memory.pause()
	c.remaining -= time.Since(c.started)
}
