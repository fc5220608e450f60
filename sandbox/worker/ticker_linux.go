package worker

import (
	"os"
	"syscall"
	"time"
	"unsafe"
)

// timerfd is a periodic kernel timer read through Go's poller, the
// ticker on Linux. Closing it ends a wait.
type timerfd struct {
	f *os.File
	p *rawPipe
}

// From linux/time.h and linux/timerfd.h.
const (
	clockMonotonic          = 1
	tfdNonblock, tfdCloexec = syscall.O_NONBLOCK, syscall.O_CLOEXEC
)

// newTicker ticks every d; without a timerfd (too many open files) it
// falls back to Go's timers.
func newTicker(d time.Duration) ticker {
	fd, _, errno := syscall.RawSyscall(syscall.SYS_TIMERFD_CREATE, clockMonotonic, tfdNonblock|tfdCloexec, 0)
	if errno != 0 {
		return newGoTicker(d)
	}
	period := syscall.NsecToTimespec(d.Nanoseconds())
	spec := [2]syscall.Timespec{period, period} // the interval, then the first expiry
	if _, _, errno := syscall.RawSyscall6(syscall.SYS_TIMERFD_SETTIME, fd, 0, uintptr(unsafe.Pointer(&spec)), 0, 0, 0); errno != 0 {
		syscall.Close(int(fd))
		return newGoTicker(d)
	}
	f := os.NewFile(fd, "timerfd")
	p, ok := newRawPipe(f).(*rawPipe)
	if !ok {
		f.Close()
		return newGoTicker(d)
	}
	return &timerfd{f: f, p: p}
}

func (t *timerfd) wait() bool {
	var expirations [8]byte
	_, err := t.p.Read(expirations[:])
	return err == nil
}

func (t *timerfd) stop() { t.f.Close() }
