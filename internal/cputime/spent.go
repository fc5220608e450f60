package cputime

import (
	"testing"
	"time"
)

// Spent runs fn and returns the CPU time the process spent meanwhile, on
// every goroutine. Tests bound how long a step may take on it rather than
// on the wall clock, which a machine busy with other work inflates: a step
// that goes on keeps a processor busy. A clock that cannot be read fails tb.
func Spent(tb testing.TB, fn func()) time.Duration {
	tb.Helper()
	before := Now(tb)
	fn()
	return Now(tb) - before
}

// Now is Process for a test: a clock that cannot be read fails tb.
func Now(tb testing.TB) time.Duration {
	tb.Helper()
	d, err := Process()
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// PerOp starts counting a benchmark's CPU time; the function it returns
// reports it per operation as cpu-ns/op, beside the wall clock's ns/op,
// which other work on the machine inflates. Call it with defer after the
// benchmark's setup.
func PerOp(b *testing.B) func() {
	b.Helper()
	before := Now(b)
	return func() {
		b.ReportMetric(float64((Now(b)-before).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
