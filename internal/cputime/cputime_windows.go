package cputime

import (
	"syscall"
	"time"
)

// Process is the CPU time this process has used so far.
func Process() (time.Duration, error) {
	h, err := syscall.GetCurrentProcess()
	if err != nil {
		return 0, err
	}
	var created, exited, kernel, user syscall.Filetime
	if err := syscall.GetProcessTimes(h, &created, &exited, &kernel, &user); err != nil {
		return 0, err
	}
	// A Filetime counts 100 ns intervals; Nanoseconds reads it as a date
	// since 1601, so the two halves are joined here.
	ticks := func(f syscall.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration((ticks(kernel) + ticks(user)) * 100), nil
}
