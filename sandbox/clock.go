package sandbox

import (
	"sync"
	"time"
)

// clock measures the script's own time: it runs only while the VM runs,
// and calls expire once the budget is spent. While it runs it also has
// the memory guard look at the heap every memoryCheckEvery.
//
// start and pause come from the run's goroutine, around every resume, so
// they only take a lock and read the time: the one timer, on its own
// goroutine, is armed when the clock starts and not already armed, and
// when it fires it checks the budget and the heap and re-arms itself
// while the clock runs. A clock paused for long lets it lapse.
type clock struct {
	memory *memoryGuard
	expire func()
	timer  *time.Timer

	mu        sync.Mutex
	remaining time.Duration
	started   time.Time
	running   bool
	armed     bool
}

func newClock(budget time.Duration, expire func(), memory *memoryGuard) *clock {
	c := &clock{remaining: budget, expire: expire, memory: memory}
	c.timer = time.AfterFunc(budget, c.tick)
	c.timer.Stop()
	return c
}

// next is how long the timer waits from now: until the budget is spent,
// or the next look at the heap if that comes first.
func (c *clock) next(left time.Duration) time.Duration {
	return max(min(left, memoryCheckEvery), 0)
}

func (c *clock) start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running {
		return
	}
	c.running = true
	c.started = time.Now()
	if !c.armed {
		c.armed = true
		c.timer.Reset(c.next(c.remaining))
	}
}

// pause stops the clock and returns the time it read, for the run to
// time the wait that follows from the same instant.
func (c *clock) pause() time.Time {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running {
		c.running = false
		c.remaining -= now.Sub(c.started)
	}
	return now
}

// halt pauses the clock for good, at the end of the run. A stopped timer
// may stay in the runtime's timer heap for a while, so the clock lets go
// of the run it would have stopped.
func (c *clock) halt() {
	c.pause()
	c.timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.expire, c.memory = nil, nil
}

// tick runs on the timer's goroutine; it must only read the clock and
// cancel the run.
func (c *clock) tick() {
	c.mu.Lock()
	if !c.running {
		c.armed = false
		c.mu.Unlock()
		return
	}
	left := c.remaining - time.Since(c.started)
	expire, memory := c.expire, c.memory
	c.mu.Unlock()
	if left <= 0 {
		expire()
		return
	}
	memory.check()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running {
		c.timer.Reset(c.next(left))
	} else {
		c.armed = false
	}
}
