package leaktest

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// settle bounds how long the last goroutines of finished work (a process's
// Wait, a timer) may take to return.
const settle = 5 * time.Second

// Check counts the goroutines now and returns the function that fails t
// if, once the goroutines have had time to return, there are more, or if
// a child process remains.
func Check(t testing.TB) func() {
	before := runtime.NumGoroutine()
	return func() {
		t.Helper()
		if kids := Children(); len(kids) > 0 {
			t.Errorf("child processes left behind: %v", kids)
		}
		deadline := time.Now().Add(settle)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			runtime.Gosched()
		}
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<20)
			t.Errorf("%d goroutines before, %d after:\n%s", before, n, buf[:runtime.Stack(buf, true)])
		}
	}
}

// Children lists the processes whose parent is this one, from /proc (none
// where there is no /proc).
func Children() []int { return ChildrenOf(os.Getpid()) }

// ChildrenOf lists the processes whose parent is parent, as Children does:
// a test that starts a process checks what that one started.
func ChildrenOf(parent int) []int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	ppid := strconv.Itoa(parent)
	var kids []int
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue // exited meanwhile
		}
		// pid (comm) state ppid ...: comm may hold spaces, so the fields
		// are read after the last parenthesis.
		s := string(b)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 1 && fields[1] == ppid {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
			kids = append(kids, pid)
		}
	}
	return kids
}
