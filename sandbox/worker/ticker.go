package worker

import "time"

// ticker is the host's clock of the runs in flight (clock). On Linux it
// is a kernel timer (timerfd) read through Go's poller rather than one of
// Go's timers: while any of Go's timers is pending, each wait of the
// runtime's poller arms and cancels a kernel timer, and the host waits
// once per nested call; on the 2-core VM that cost ~4 µs of the host's
// CPU per round trip, where a timerfd costs only its ticks.
type ticker interface {
	wait() bool // blocks until the next tick (true) or until stop (false)
	stop()
}

// goTicker is a ticker on Go's own timers, where the kernel's are not
// used.
type goTicker struct {
	t    *time.Ticker
	done chan struct{}
}

func newGoTicker(d time.Duration) *goTicker {
	return &goTicker{t: time.NewTicker(d), done: make(chan struct{})}
}

// wait blocks until the next tick (true) or until stop (false).
func (t *goTicker) wait() bool {
	select {
	case <-t.t.C:
		return true
	case <-t.done:
		return false
	}
}

func (t *goTicker) stop() {
	t.t.Stop()
	close(t.done)
}
