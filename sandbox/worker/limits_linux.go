package worker

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/execlua/execlua/sandbox"
)

const prSetNoNewPrivs = 38 // PR_SET_NO_NEW_PRIVS from linux/prctl.h

// restrictProcess drops what a worker never needs: it can gain no
// privileges through exec (setuid binaries, file capabilities). No seccomp
// filter is installed: Go's runtime uses a wide, version-dependent set of
// system calls (see the package doc).
func restrictProcess() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0); errno != 0 {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", errno)
	}
	return nil
}

// stdio is the worker's stdin and stdout made non-blocking, so that
// waiting for a frame parks a goroutine in Go's poller instead of a thread
// in read(2): with a blocking read, the script's goroutine, woken by the
// frame, waits until the runtime takes the processor back from the thread
// gone into the next read, which costs a nested call tens of microseconds.
func stdio() (io.Reader, io.Writer) {
	if syscall.SetNonblock(0, true) != nil || syscall.SetNonblock(1, true) != nil {
		return os.Stdin, os.Stdout
	}
	return newRawPipe(os.NewFile(0, "stdin")), newRawPipe(os.NewFile(1, "stdout"))
}

// limitProcess sets the run's rlimits. Address space: what the process has
// mapped now (Go reserves a large range at start) plus the memory limit
// and a margin for the collector's own structures, so that one huge
// allocation fails in the kernel and the worker dies of it, which the host
// reports as the memory budget. It is left off under the race detector,
// whose shadow memory needs terabytes of address space. CPU: what the
// process has used so far plus cpuBackstop, a backstop behind the host's
// own kill; soft and hard limits are the same, so the kernel's signal is
// SIGKILL.
func limitProcess(limit uint64, opts *sandbox.Options) error {
	if !raceEnabled {
		size, err := addressSpace()
		if err != nil {
			return err
		}
		as := size + limit + asMargin
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: as, Max: as}); err != nil {
			return fmt.Errorf("setrlimit(RLIMIT_AS): %w", err)
		}
	}
	var used syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &used); err != nil {
		return fmt.Errorf("getrusage: %w", err)
	}
	spent := time.Duration(used.Utime.Nano() + used.Stime.Nano())
	cpu := uint64((spent+cpuBackstop(opts.Budget))/time.Second) + 1
	if err := syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: cpu, Max: cpu}); err != nil {
		return fmt.Errorf("setrlimit(RLIMIT_CPU): %w", err)
	}
	return nil
}

// asMargin is the address space a worker may map past its memory limit.
const asMargin = 256 << 20

// addressSpace is the process's mapped address space in bytes.
func addressSpace() (uint64, error) {
	return statmField(os.Getpid(), 0)
}

// residentMemory is process pid's resident set in bytes.
func residentMemory(pid int) (uint64, error) {
	return statmField(pid, 1)
}

var pageSize = uint64(os.Getpagesize())

// statmField reads field i (in pages) of /proc/pid/statm, in bytes.
func statmField(pid, i int) (uint64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0, err
	}
	fields := bytes.Fields(b)
	if len(fields) <= i {
		return 0, fmt.Errorf("/proc/%d/statm has %d fields", pid, len(fields))
	}
	n, err := strconv.ParseUint(string(fields[i]), 10, 64)
	return n * pageSize, err
}

// killedByLimit reads how a worker the host did not kill ended: killed by
// the kernel (SIGKILL at the hard limit, SIGXCPU at a soft one) after
// using at least cpuBackstop of CPU is the CPU rlimit, so the budget; any
// other end is not a limit's.
func killedByLimit(st *os.ProcessState, budget time.Duration) error {
	ws, ok := st.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL && ws.Signal() != syscall.SIGXCPU {
		return nil
	}
	if st.UserTime()+st.SystemTime() < cpuBackstop(budget) {
		return nil
	}
	return &sandbox.BudgetError{Budget: budget}
}
