package worker

import (
	"testing"
	"time"

	"github.com/execlua/execlua/internal/leaktest"
)

// A run's clock ticks no faster than its period, and stop ends a wait in
// progress: the kernel's timer (on Linux) and Go's, which other systems
// use.
func TestTickers(t *testing.T) {
	const period = time.Millisecond
	for name, newT := range map[string]func() ticker{
		"newTicker": func() ticker { return newTicker(period) },
		"goTicker":  func() ticker { return newGoTicker(period) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Cleanup(leaktest.Check(t))
			// The clock is read before the ticker is armed: ticks come a
			// period apart from arming, so three of them can take a little
			// less than three periods from a reading taken after it.
			start := time.Now()
			tk := newT()
			for i := range 3 {
				if !tk.wait() {
					t.Fatalf("wait %d reported a stop before stop", i)
				}
			}
			if took := time.Since(start); took < 3*period {
				t.Errorf("three ticks in %v, want at least %v", took, 3*period)
			}
			waiting := make(chan struct{})
			ended := make(chan bool)
			go func() {
				close(waiting)
				for tk.wait() {
				}
				ended <- true
			}()
			<-waiting
			tk.stop()
			<-ended
		})
	}
}
