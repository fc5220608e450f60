package worker

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/execlua/execlua/internal/leaktest"
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
	if then, ok := strings.CutPrefix(mode, "print-"); ok {
		return serve(os.Stdin, &tripwire{w: os.Stdout, then: then})
	}
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
	m, err := c.receive()
	if err != nil {
		return 0
	}
	switch mode {
	case "bigalloc": // one allocation far past the cap, under the run's limits
		if err := limitRun(&m.Run.Options); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 5
		}
		b := make([]byte, 4<<30)
		for i := range b {
			b[i] = 1
		}
		return int(b[len(b)-1])
	case "cpuspin": // waits for a call while it spins: only the CPU rlimit stops it
		if err := limitRun(&m.Run.Options); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 5
		}
		_ = c.send(&message{Type: msgCall, ID: 1, Name: "block"}, true)
		for {
		}
	case "hang": // stuck in one step: ignores cancel and its budget
		for {
		}
	case "crash":
		fmt.Fprintln(os.Stderr, "fatal error: something broke in the worker")
		return 2
	case "hog": // grows its resident memory without bound, as a step would
		hog()
	case "garbage":
		w := bufio.NewWriter(os.Stdout)
		w.WriteString("not a frame\n")
		w.Flush()
		_, _ = c.receive() // until the host kills it
	}
	return 4
}

// tripwire is a worker's stdout that, once the first printed frame has
// gone out, fails the way then says: crash (the process exits at once),
// hang (stuck inside print, past its budget) or hog (grows without bound
// inside print).
type tripwire struct {
	w    io.Writer
	then string
}

func (t *tripwire) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	if len(p) <= 4 || p[4] != msgPrinted {
		return n, err
	}
	switch t.then {
	case "crash":
		fmt.Fprintln(os.Stderr, "fatal error: the worker broke after printing")
		os.Exit(2)
	case "hang":
		for {
		}
	case "hog":
		hog()
	}
	return n, err
}

// hog grows the resident memory without bound, as one step of a script
// could.
func hog() {
	var keep [][]byte
	for {
		b := make([]byte, 1<<20)
		for i := range b {
			b[i] = 1
		}
		keep = append(keep, b)
	}
}

// testPool is a pool of the test binary for one test, closed (and checked
// for leftovers) at its end.
func testPool(t *testing.T, opts *Options) *Pool {
	t.Helper()
	t.Cleanup(leaktest.Check(t))
	p := New(opts)
	t.Cleanup(func() { p.Close() })
	return p
}

// misbehaving is a pool whose workers act out mode.
func misbehaving(t *testing.T, mode string) *Pool {
	return testPool(t, &Options{Env: []string{envTestMode + "=" + mode}, Idle: 1})
}

// funnel is a fake host: echo returns its arguments as structured
// content, text returns its text, fail returns errFake, block waits for
// the call's context, boom panics, none and test_fail return nothing.
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
		case "none", "test_fail":
			return sandbox.Output{}, nil
		}
		return sandbox.Output{}, fmt.Errorf("no tool %s", c.Name)
	}
}

func request(code string) sandbox.Request {
	var tools []sandbox.Tool
	for _, name := range []string{"echo", "text", "fail", "block", "boom", "none", "test_fail"} {
		tools = append(tools, sandbox.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)})
	}
	return sandbox.Request{
		Code:   code,
		Tools:  sandbox.NewToolset(tools),
		Funnel: funnel(),
		Search: func(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(fmt.Sprintf(`{"total":1,"query":%s}`, args)), nil
		},
		SearchSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}}}`),
	}
}
