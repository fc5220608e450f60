package worker

import (
	"sync"
	"time"
)

// clockTick is the period of the host's clock of the runs in flight: a
// call performed on a run's reading goroutine that is still out at two
// ticks in a row gets the reading handed over (so after 1-2 ms), and
// every memoryEvery ticks the host reads each worker's resident set.
const (
	clockTick   = time.Millisecond
	memoryEvery = 2
)

// clockIdle is how many ticks the clock keeps going with no run in
// flight before it stops: runs that follow one another closely share one
// ticker, whose start costs ~40 µs on the 2-core VM (a timerfd, its
// registration with the poller, and their undoing).
const clockIdle = 100

// clock is the host's one clock for the runs in flight (see ticker).
type clock struct {
	mu   sync.Mutex
	runs map[*hostRun]struct{}
	t    ticker // nil while stopped
}

var runClock = &clock{runs: map[*hostRun]struct{}{}}

// add has the clock tick for r until remove; it starts the clock if it
// was stopped.
func (c *clock) add(r *hostRun) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.runs[r] = struct{}{}
	if c.t == nil {
		c.t = newTicker(clockTick)
		go c.loop(c.t)
	}
}

func (c *clock) remove(r *hostRun) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.runs, r)
}

// loop ticks the runs in flight until it has had none for clockIdle
// ticks. A run removed meanwhile may get one more tick, which finds no
// call inline and a worker already ended.
func (c *clock) loop(t ticker) {
	var runs []*hostRun
	idle := 0
	for n := 1; t.wait(); n++ {
		c.mu.Lock()
		if len(c.runs) == 0 {
			if idle++; idle >= clockIdle {
				c.t = nil
				c.mu.Unlock()
				t.stop()
				return
			}
		} else {
			idle = 0
		}
		runs = runs[:0]
		for r := range c.runs {
			runs = append(runs, r)
		}
		c.mu.Unlock()
		for _, r := range runs {
			r.tick(n%memoryEvery == 0)
		}
	}
}
