package worker

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// rawPipe reads and writes a non-blocking pipe with raw system calls and
// waits for it in Go's poller. os.File's own reads and writes enter the
// scheduler's system-call state, which wakes the runtime's monitor thread
// whenever the process was idle before, as each side of a round trip is:
// a third thread to schedule per call on each side, on a machine of two
// processors. A read or write of a non-blocking pipe never blocks, so it
// needs no such state.
type rawPipe struct {
	f  *os.File
	rc syscall.RawConn
}

// newRawPipe wraps f, a pipe end the runtime's poller watches; a file it
// cannot wrap is used as it is.
func newRawPipe(f *os.File) io.ReadWriter {
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	return &rawPipe{f: f, rc: rc}
}

func (p *rawPipe) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := p.rc.Read(func(fd uintptr) bool {
		for {
			r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
			if e != syscall.EINTR {
				n, errno = int(r), e
				return e != syscall.EAGAIN
			}
		}
	})
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		return 0, &os.PathError{Op: "read", Path: p.f.Name(), Err: errno}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (p *rawPipe) Write(b []byte) (int, error) {
	var n int
	var errno syscall.Errno
	err := p.rc.Write(func(fd uintptr) bool {
		for n < len(b) {
			r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&b[n])), uintptr(len(b)-n))
			switch e {
			case 0:
				n += int(r)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false
			default:
				errno = e
				return true
			}
		}
		return true
	})
	switch {
	case err != nil:
		return n, err
	case errno != 0:
		return n, &os.PathError{Op: "write", Path: p.f.Name(), Err: errno}
	}
	return n, nil
}
