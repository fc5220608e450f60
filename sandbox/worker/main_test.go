package worker

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/execlua/execlua/sandbox"
)

// The test binary is its own worker. envTestMode makes it a misbehaving
// one instead, for the host's side of failures no script can cause.
const envTestMode = "WORKER_TEST_MODE"

func TestMain(m *testing.M) {
	if IsWorker() {
		if mode := os.Getenv(envTestMode); mode != "" {
			os.Exit(misbehave(mode))
		}
		os.Exit(Serve())
	}
	os.Exit(m.Run())
}

// misbehave is a worker that says hello (or not), takes its run and then
// does what mode says.
func misbehave(mode string) int {
	c := newConn(os.Stdin, os.Stdout)
	version := Version
	if mode == "old" {
		version = Version + 1
	}
	if mode == "silent" {
		fmt.Fprintln(os.Stderr, "this binary does not serve as a worker")
		return 3
	}
	_ = c.send(&message{Type: msgHello, Version: version, PID: os.Getpid()}, true)
	if _, err := c.receive(); err != nil {
		return 0
	}
	switch mode {
	case "hang": // stuck in one step: ignores cancel and its budget
		for {
		}
	case "crash":
		fmt.Fprintln(os.Stderr, "fatal error: something broke in the worker")
		return 2
	case "hog": // grows its resident memory without bound, as a step would
		var keep [][]byte
		for {
			b := make([]byte, 1<<20)
			for i := range b {
				b[i] = 1
			}
			keep = append(keep, b)
		}
	case "garbage":
		w := bufio.NewWriter(os.Stdout)
		w.WriteString("not a frame\n")
		w.Flush()
		_, _ = c.receive() // until the host kills it
	}
	return 4
}

// testPool is a pool of the test binary for one test, closed (and checked
// for leftovers) at its end.
func testPool(t *testing.T, opts *Options) *Pool {
	t.Helper()
	goroutines := runtime.NumGoroutine()
	p := New(opts)
	t.Cleanup(func() {
		p.Close()
		checkNoLeftovers(t, goroutines)
	})
	return p
}

// misbehaving is a pool whose workers act out mode.
func misbehaving(t *testing.T, mode string) *Pool {
	return testPool(t, &Options{Env: []string{envTestMode + "=" + mode}, Idle: 1})
}

// checkNoLeftovers fails the test if a worker process of this one is
// still around (running or unreaped) or goroutines outlive the pool.
func checkNoLeftovers(t *testing.T, goroutines int) {
	t.Helper()
	if kids := children(t); len(kids) > 0 {
		t.Errorf("worker processes left behind: %v", kids)
	}
	// The last goroutines of a finished worker (its Wait, its timers)
	// return just after the pool stops waiting for them.
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > goroutines && time.Now().Before(deadline) {
		runtime.Gosched()
	}
	if n := runtime.NumGoroutine(); n > goroutines {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines before the pool, %d after:\n%s", goroutines, n, buf[:runtime.Stack(buf, true)])
	}
}

// children lists the processes whose parent is this one.
func children(t testing.TB) []int {
	t.Helper()
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var kids []int
	self := strconv.Itoa(os.Getpid())
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue // exited meanwhile
		}
		// pid (comm) state ppid ...: comm may hold spaces, so cut at the
		// last parenthesis.
		fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(fields) > 1 && fields[1] == self {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
			kids = append(kids, pid)
		}
	}
	return kids
}

// funnel is a fake host: echo returns its arguments as structured
// content, text returns its text, fail returns errFake, block waits for
// the call's context, boom panics.
var errFake = errors.New("the fake tool failed")

func funnel() sandbox.FunnelFunc {
	return func(ctx context.Context, c sandbox.Call) (sandbox.Output, error) {
		switch c.Name {
		case "echo":
			return sandbox.Output{Structured: c.Args}, nil
		case "text":
			var args struct{ Text string }
			_ = json.Unmarshal(c.Args, &args)
			return sandbox.Output{Text: []string{args.Text}, Images: []sandbox.Image{{MIMEType: "image/png", Data: "aGk="}}}, nil
		case "fail":
			return sandbox.Output{}, fmt.Errorf("%w: %s", errFake, c.Args)
		case "block":
			<-ctx.Done()
			return sandbox.Output{}, ctx.Err()
		case "boom":
			panic("the funnel broke")
		}
		return sandbox.Output{}, fmt.Errorf("no tool %s", c.Name)
	}
}

func request(code string) sandbox.Request {
	var tools []sandbox.Tool
	for _, name := range []string{"echo", "text", "fail", "block", "boom"} {
		tools = append(tools, sandbox.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)})
	}
	return sandbox.Request{
		Code:   code,
		Tools:  tools,
		Funnel: funnel(),
		Search: func(args json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(fmt.Sprintf(`{"total":1,"query":%s}`, args)), nil
		},
		SearchSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}}}`),
	}
}
