package execlua

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/execlua/execlua/sandbox"
	"github.com/google/go-cmp/cmp"
)

// Beside the model's text, the host gets the parts: the printed lines, the
// return value as JSON and whether there was one.
func TestResultParts(t *testing.T) {
	s := newSession(t, &fakeFunnel{}, &Options{Tools: builtins()})
	for _, tc := range []struct {
		name, code string
		printed    []string
		value      string
		hasValue   bool
	}{
		{"table", `print("a"); print("b\nc", 1); return { x = 1 }`, []string{"a", "b\nc\t1"}, `{"x":1}`, true},
		{"string", `return "hi\n"`, nil, `"hi\n"`, true},
		{"several", `return 1, "two", { 3 }`, nil, `[1,"two",[3]]`, true},
		{"nil", `return nil`, nil, `null`, true},
		{"nothing", `print("only")`, []string{"only"}, ``, false},
		{"blank and leading newlines", `print("\nx"); print(""); print("\n")`, []string{"\nx", "", "\n"}, ``, false},
	} {
		res := run(s, tc.code)
		if res.IsError {
			t.Errorf("%s: %s", tc.name, res.Text)
			continue
		}
		if diff := cmp.Diff(tc.printed, res.Printed); diff != "" {
			t.Errorf("%s: printed (-want +got):\n%s", tc.name, diff)
		}
		if string(res.Value) != tc.value || res.HasValue != tc.hasValue {
			t.Errorf("%s: value %s (has %v), want %s (has %v)", tc.name, res.Value, res.HasValue, tc.value, tc.hasValue)
		}
	}
}

// Printed lines follow the log limit, and a failed run keeps them; a value
// cut at the result limit is not offered as JSON.
func TestResultPartsLimits(t *testing.T) {
	s := newSession(t, &fakeFunnel{}, &Options{Tools: builtins(), Limits: Limits{MaxResultChars: 5, MaxLogChars: 8}})
	res := run(s, `print("12345"); print("67890"); print("cut"); return string.rep("x", 20)`)
	if diff := cmp.Diff([]string{"12345", "67"}, res.Printed); diff != "" {
		t.Errorf("printed lines follow the log limit (-want +got):\n%s", diff)
	}
	if res.Value != nil || !res.HasValue {
		t.Errorf("cut value: %s (has %v), want nil (has true)", res.Value, res.HasValue)
	}
	for code, want := range map[string]string{`return "ab\n"`: `"ab\n"`, `return {1}`: `[1]`, `return { 12345 }`: ``} {
		if got := run(s, code); string(got.Value) != want || !got.HasValue {
			t.Errorf("%s: value %s (has %v), want %s", code, got.Value, got.HasValue, want)
		}
	}
	edge := newSession(t, &fakeFunnel{}, &Options{Tools: builtins(), Limits: Limits{MaxLogChars: 6}})
	if got := run(edge, `print("12345"); print("x")`).Printed; !cmp.Equal(got, []string{"12345"}) {
		t.Errorf("a line of which only the separator fits is not a printed line: %q", got)
	}
	failed := run(s, `print("kept"); error("boom")`)
	if !failed.IsError || !cmp.Equal(failed.Printed, []string{"kept"}) || failed.HasValue {
		t.Errorf("failed run: %+v", failed)
	}
}

// Per-run options override the Session's budget and call cap for one run
// only.
func TestRunOptions(t *testing.T) {
	f := &fakeFunnel{}
	s := newSession(t, f, &Options{Tools: builtins(), Limits: Limits{Budget: 30 * time.Millisecond, MaxCalls: 5}})
	loop := `while true do end`
	for _, tc := range []struct {
		opts *RunOptions
		want time.Duration
	}{
		{nil, 30 * time.Millisecond},
		{&RunOptions{Budget: 40 * time.Millisecond}, 40 * time.Millisecond},
		{&RunOptions{MaxCalls: 1}, 30 * time.Millisecond},
	} {
		res := s.Run(t.Context(), input(loop), tc.opts)
		var be *BudgetError // the root's own names suffice to read the error
		if !errors.As(res.Err, &be) || be.Budget != tc.want || !errors.Is(res.Err, ErrBudgetExceeded) {
			t.Errorf("%+v: got %v, want a budget of %v", tc.opts, res.Err, tc.want)
		}
	}

	calls := `local n = 0
for i = 1, 3 do if pcall(tools.WebFetch, {}) then n = n + 1 end end
return n`
	if res := s.Run(t.Context(), input(calls), &RunOptions{MaxCalls: 1}); string(res.Value) != "1" {
		t.Errorf("MaxCalls 1: %s", res.Text)
	}
	if res := s.Run(t.Context(), input(calls), nil); string(res.Value) != "3" {
		t.Errorf("the session's cap: %s", res.Text)
	}
	if got := len(f.reached()); got != 4 {
		t.Errorf("%d calls reached the funnel, want 4", got)
	}
}

// Timings: time waiting for tools is counted apart from the script's own.
func TestResultTimings(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeFunnel{tools: map[string]toolFunc{
			"WebFetch": func(context.Context, map[string]any) (sandbox.Output, error) {
				time.Sleep(3 * time.Second) // the bubble's clock: no real wait
				return sandbox.Output{}, nil
			},
		}}
		s := newSession(t, f, &Options{Tools: builtins()})
		res := s.Run(t.Context(), input(`tools.WebFetch{}; tools.WebFetch{}`), nil)
		if res.IsError || res.Timings.ToolWait != 6*time.Second || res.Timings.Script != 0 {
			t.Errorf("timings %+v (%s)", res.Timings, res.Text)
		}
	})
	s := newSession(t, &fakeFunnel{}, &Options{Tools: builtins()})
	res := run(s, `local n = 0 for i = 1, 100000 do n = n + i end return n`)
	if tm := res.Timings; tm.Script <= 0 || tm.Compile <= 0 || tm.ToolWait != 0 {
		t.Errorf("timings %+v", tm)
	}
}

// BUD-11: a crash's error keeps its stack for the log, with no absolute
// source path in it.
func TestCrashErrorHasNoSourcePaths(t *testing.T) {
	f := &fakeFunnel{tools: map[string]toolFunc{
		"mcp__srv__crash": func(context.Context, map[string]any) (sandbox.Output, error) { panic("host bug") },
	}}
	s := newSession(t, f, &Options{Tools: []Tool{mcpTool("srv", "crash")}})
	res := run(s, `tools.mcp__srv__crash{}`)
	if !errors.Is(res.Err, sandbox.ErrCrashed) {
		t.Fatalf("err %v", res.Err)
	}
	msg := res.Err.Error()
	if !strings.Contains(msg, "host bug") || !strings.Contains(msg, "sandbox/calls.go:") {
		t.Errorf("the crash lost its detail:\n%s", msg)
	}
	if abs := regexp.MustCompile(`(?m)^\t/|[A-Za-z]:\\`); abs.MatchString(msg) {
		t.Errorf("absolute source path in the crash error:\n%s", msg)
	}
}

func TestTrimSourcePaths(t *testing.T) {
	in := "panic: x\ngoroutine 7 [running]:\nmain.f()\n\t/home/u/src/mod/pkg/file.go:12 +0x1d\nruntime.goexit()\n\t/usr/lib/go/src/runtime/asm_amd64.s:1700 +0x1\n\tpkg/rel.go:3"
	want := "panic: x\ngoroutine 7 [running]:\nmain.f()\n\tpkg/file.go:12 +0x1d\nruntime.goexit()\n\truntime/asm_amd64.s:1700 +0x1\n\tpkg/rel.go:3"
	if got := trimSourcePaths(in); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A funnel that ignores its context is left behind when the run is
// cancelled, and the host learns which call it abandoned.
func TestResultNamesAbandonedCalls(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	arrived := make(chan struct{})
	stuck := FunnelFunc(func(context.Context, Call) (Output, error) {
		close(arrived)
		<-release // ignores its context on purpose
		return Output{}, nil
	})
	s := newSession(t, stuck, &Options{Tools: builtins()})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-arrived; cancel() }()
	res := s.Run(ctx, input(`return tools.WebFetch{ url = "x" }`), nil)
	if !res.IsError || !errors.Is(res.Err, ErrCanceled) {
		t.Fatalf("result %+v, want a cancelled run", res)
	}
	if diff := cmp.Diff([]string{"WebFetch"}, res.Abandoned); diff != "" {
		t.Errorf("abandoned calls (-want +got):\n%s", diff)
	}
}
