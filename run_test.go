package execlua

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/execlua/execlua/pool"
	"github.com/execlua/execlua/sandbox"
	"github.com/google/go-cmp/cmp"
)

// resultFile lays out everything a Result shows: the model's part, then the
// host's.
func resultFile(r Result) string {
	return fmt.Sprintf("-- is_error: %v, images: %d --\n%s\n-- summary --\n%s\n-- calls --\n%s\n",
		r.IsError, len(r.Images), r.Text, r.Summary, strings.Join(r.Calls, "\n"))
}

func image(n int) []sandbox.Image {
	out := make([]sandbox.Image, n)
	for i := range out {
		out[i] = sandbox.Image{MIMEType: "image/png", Data: fmt.Sprintf("img%d", i)}
	}
	return out
}

// Result texts, pinned in testdata/golden/result_*.txt. Each case names the
// scenarios whose text it shows.
func TestResultGolden(t *testing.T) {
	f := &fakeFunnel{tools: map[string]toolFunc{
		"mcp__srv__fetch": structured(`{"title":"hello","n":3}`),
		"mcp__srv__store": refusing("the user refused mcp__srv__store"),
		"mcp__srv__shots": func(context.Context, map[string]any) (sandbox.Output, error) {
			return sandbox.Output{Images: image(3)}, nil
		},
		"mcp__srv__crash": func(context.Context, map[string]any) (sandbox.Output, error) { panic("host bug") },
		"mcp__srv__slow": func(ctx context.Context, _ map[string]any) (sandbox.Output, error) {
			<-ctx.Done()
			return sandbox.Output{}, ctx.Err()
		},
	}}
	tools := []pool.Tool{
		mcpTool("srv", "fetch"), mcpTool("srv", "store"), mcpTool("srv", "shots"),
		mcpTool("srv", "crash"), mcpTool("srv", "slow"),
	}
	small := &Options{Tools: tools, Limits: sandbox.Options{
		Budget: 200 * time.Millisecond, MaxResultChars: 40, MaxLogChars: 30, MaxCalls: 3, MaxNestedWait: 50 * time.Millisecond,
	}}
	s := newSession(t, f, small)
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	for _, tc := range []struct {
		name, code string
		ctx        context.Context
	}{
		// ORCH-7: a returned table is JSON.
		{name: "table", code: `local a = tools.mcp__srv__fetch{ id = 1 }; return { got = a.title, n = a.n }`},
		// ORCH-7: a string verbatim.
		{name: "string", code: `return "line one\nline two"`},
		// ORCH-7: neither a return value nor output.
		{name: "no_output", code: `local x = 1`},
		// ORCH-7: an empty string is still said.
		{name: "empty_string", code: `return ""`},
		// ORCH-6: printed output and the result, both kept.
		{name: "print_and_return", code: `print("a", 1, { k = true }); print("b"); return { 1, 2 }`},
		{name: "print_only", code: `print("just this")`},
		{name: "several_values", code: `return 1, "two", { three = 3 }`},
		// BUD-8: cut, with the total length.
		{name: "truncated_result", code: `return string.rep("x", 100)`},
		// BUD-7: the log cut, with the total printed.
		{name: "truncated_log", code: `for i = 1, 10 do print("line " .. i) end return "done"`},
		// BUD-9: images from nested calls attached and capped.
		{name: "images_capped", code: `local a = tools.mcp__srv__shots{}; tools.mcp__srv__shots{}; return a == nil`},
		// Edge case: a script error keeps the output printed before it.
		{name: "error_keeps_output", code: `print("step 1 done"); error("step 2 failed")`},
		{name: "error_value", code: `error({ code = 7 })`},
		{name: "syntax_error", code: `local x = = 1`},
		// PERM-4: a refused call not caught fails the run with the reason.
		{name: "refused_uncaught", code: `tools.mcp__srv__fetch{}; print("fetched"); tools.mcp__srv__store{ v = 1 }`},
		// ORCH-4: a name outside the pool.
		{name: "unknown_tool", code: `return tools.mcp__gone__tool{}`},
		// BUD-6: the call over the limit is refused; uncaught it fails the run.
		{name: "call_limit", code: `for i = 1, 4 do tools.mcp__srv__fetch{} end`},
		// BUD-1: the budget, named, and completed calls still apply.
		{name: "budget", code: `tools.mcp__srv__fetch{}; print("looping"); while true do end`},
		// BUD-12: the optional cap on waiting.
		{name: "nested_wait", code: `print("waiting"); tools.mcp__srv__slow{}`},
		// BUD-10: cancelled before the start.
		{name: "cancelled", code: `return 1`, ctx: cancelled},
		// BUD-11: a crash (the funnel panicked) is a failed result, no stack.
		{name: "crash", code: `print("before"); tools.mcp__srv__crash{}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := tc.ctx
			if ctx == nil {
				ctx = t.Context()
			}
			res := s.Run(ctx, input(tc.code), nil)
			golden(t, "result_"+tc.name+".txt", resultFile(res))
			if res.Text == "" {
				t.Error("empty result text")
			}
			if res.IsError != (res.Err != nil) {
				t.Errorf("IsError = %v but Err = %v", res.IsError, res.Err)
			}
		})
	}
}

// BUD-11 and the failure modes: each comes back as a failed Result whose
// Err matches the sandbox's sentinel; Run returns no Go error and does not
// panic, even when the host's progress callback panics.
func TestFailuresAreResults(t *testing.T) {
	f := &fakeFunnel{tools: map[string]toolFunc{
		"mcp__srv__crash": func(context.Context, map[string]any) (sandbox.Output, error) { panic("host bug") },
	}}
	var logged bytes.Buffer
	s := newSession(t, f, &Options{
		Tools:  []pool.Tool{mcpTool("srv", "crash"), mcpTool("srv", "ok")},
		Limits: sandbox.Options{Budget: 50 * time.Millisecond},
		Logger: slog.New(slog.NewTextHandler(&logged, nil)),
	})
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	for _, tc := range []struct {
		name     string
		code     string
		ctx      context.Context
		progress func(string)
		want     error
	}{
		{name: "BUD-1 budget", code: `while true do end`, want: sandbox.ErrBudgetExceeded},
		{name: "BUD-10 cancel", code: `return 1`, ctx: cancelled, want: sandbox.ErrCanceled},
		{name: "BUD-11 funnel panic", code: `tools.mcp__srv__crash{}`, want: sandbox.ErrCrashed},
		{name: "BUD-11 progress panic", code: `tools.mcp__srv__ok{}`, progress: func(string) { panic("ui bug") }, want: sandbox.ErrCrashed},
		{name: "script error", code: `error("x")`, want: sandbox.ErrScript},
		{name: "ORCH-4 unknown", code: `tools.mcp__nope__x{}`, want: sandbox.ErrUnknownTool},
	} {
		ctx := tc.ctx
		if ctx == nil {
			ctx = t.Context()
		}
		logged.Reset()
		res := s.Run(ctx, input(tc.code), &RunOptions{Progress: tc.progress})
		if !strings.Contains(logged.String(), "Exec failed") {
			t.Errorf("%s: not logged", tc.name)
		}
		if !res.IsError || !errors.Is(res.Err, tc.want) || res.Summary != "failed" {
			t.Errorf("%s: IsError=%v Err=%v Summary=%q, want a failed result matching %v", tc.name, res.IsError, res.Err, res.Summary, tc.want)
		}
		if strings.Contains(res.Text, "goroutine") || strings.Contains(res.Text, ".go:") {
			t.Errorf("%s: the model's text carries Go internals: %q", tc.name, res.Text)
		}
	}
}

// Successful runs leave no log record; failures leave one each (above).
func TestSuccessNotLogged(t *testing.T) {
	var logged bytes.Buffer
	s := newSession(t, &fakeFunnel{}, &Options{Tools: builtins(), Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	if res := run(s, `return tools.WebFetch{}`); res.IsError || logged.Len() != 0 {
		t.Errorf("result %+v, log %q", res, logged.String())
	}
}

// BUD-10: a cancellation while a nested call is in flight ends the run
// promptly with a failed result.
func TestCancelDuringCall(t *testing.T) {
	started := make(chan struct{})
	f := &fakeFunnel{tools: map[string]toolFunc{
		"mcp__srv__slow": func(ctx context.Context, _ map[string]any) (sandbox.Output, error) {
			close(started)
			<-ctx.Done()
			return sandbox.Output{}, ctx.Err()
		},
	}}
	s := newSession(t, f, &Options{Tools: []pool.Tool{mcpTool("srv", "slow")}})
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-started
		cancel()
	}()
	res := s.Run(ctx, input(`print("asked"); tools.mcp__srv__slow{}`), nil)
	if !errors.Is(res.Err, sandbox.ErrCanceled) || !strings.Contains(res.Text, "asked") {
		t.Errorf("got Err=%v Text=%q; want a cancellation that keeps the output", res.Err, res.Text)
	}
}

// ORCH-1: both calls happen and the second receives the first's output;
// ORCH-3: the arguments reach the tool as written.
func TestORCH1_ChainedCalls(t *testing.T) {
	f := &fakeFunnel{tools: map[string]toolFunc{
		"mcp__srv__fetch": structured(`{"title":"hello","n":3}`),
		"mcp__srv__store": func(_ context.Context, args map[string]any) (sandbox.Output, error) {
			b, _ := json.Marshal(args)
			return sandbox.Output{Structured: b}, nil
		},
	}}
	s := newSession(t, f, &Options{Tools: []pool.Tool{mcpTool("srv", "fetch"), mcpTool("srv", "store")}})
	res := run(s, `local a = tools.mcp__srv__fetch{ id = 1 }; return tools.mcp__srv__store{ value = a }`)
	if diff := cmp.Diff(`{"value":{"n":3,"title":"hello"}}`, res.Text); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	want := []string{`mcp__srv__fetch {"id":1}`, `mcp__srv__store {"value":{"n":3,"title":"hello"}}`}
	if diff := cmp.Diff(want, f.reached()); diff != "" {
		t.Errorf("calls that reached the funnel (-want +got):\n%s", diff)
	}
}

// ORCH-2 and the edge cases on outputs: structured content as a table, else
// the text, else nil (an outputSchema declared without structured content
// gives the text; an image-only answer gives nil and its image goes to the
// result).
func TestORCH2_OutputShapes(t *testing.T) {
	f := &fakeFunnel{tools: map[string]toolFunc{
		"mcp__srv__both": func(context.Context, map[string]any) (sandbox.Output, error) {
			return sandbox.Output{Structured: json.RawMessage(`{"k":[1,2]}`), Text: []string{"ignored"}}, nil
		},
		"mcp__srv__text": text("line one", "line two"),
		"mcp__srv__image": func(context.Context, map[string]any) (sandbox.Output, error) {
			return sandbox.Output{Images: image(1)}, nil
		},
	}}
	s := newSession(t, f, &Options{Tools: []pool.Tool{mcpTool("srv", "both"), mcpTool("srv", "text"), mcpTool("srv", "image")}})
	res := run(s, `
		local b, t, n = tools.mcp__srv__both{}, tools.mcp__srv__text{}, tools.mcp__srv__image{}
		return { b = b, t = t, n = n == nil, envelope = b.content ~= nil or b.images ~= nil }`)
	if diff := cmp.Diff(`{"b":{"k":[1,2]},"envelope":false,"n":true,"t":"line one\nline two"}`, res.Text); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	if len(res.Images) != 1 {
		t.Errorf("images: got %d, want the image-only answer's 1", len(res.Images))
	}
}

// ORCH-3: no renaming, no defaults, no validation; an empty table is an
// array where the schema says so.
func TestORCH3_ArgumentsAsWritten(t *testing.T) {
	f := &fakeFunnel{}
	s := newSession(t, f, &Options{Tools: githubTools()})
	run(s, `tools.mcp__github__create_issue{ Title = "x", id = "not an integer", tags = {}, extra = {} }`)
	want := []string{`mcp__github__create_issue {"Title":"x","extra":{},"id":"not an integer","tags":[]}`}
	if diff := cmp.Diff(want, f.reached()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// ORCH-4: an mcp__ name outside the pool fails that call with the pointer
// to ToolSearch; it never reaches the funnel. ORCH-5: caught, the script
// goes on.
func TestORCH4_ORCH5_UnknownAndCaught(t *testing.T) {
	f := &fakeFunnel{tools: map[string]toolFunc{"mcp__github__create_issue": refusing("denied by rule")}}
	s := newSession(t, f, &Options{Tools: githubTools()})
	res := run(s, `
		local ok1, e1 = pcall(tools.mcp__gone__tool, {})
		local ok2, e2 = pcall(tools.mcp__github__create_issue, { id = 1 })
		return { e1, e2, ok1 or ok2 }`)
	var got []any
	if err := json.Unmarshal([]byte(res.Text), &got); err != nil {
		t.Fatalf("%v: %s", err, res.Text)
	}
	for i, v := range got {
		if s, ok := v.(string); ok {
			got[i] = strings.TrimSpace(s) // where pcall calls the tool directly, no position is added
		}
	}
	want := []any{`mcp__gone__tool is not reachable: only this session's catalogued tools can be called from Exec; find them with tools.ToolSearch{ query = "..." }`, "denied by rule", false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{`mcp__github__create_issue {"id":1}`}, f.reached()); diff != "" {
		t.Errorf("calls that reached the funnel (-want +got):\n%s", diff)
	}
}

// SUM-1, SUM-2, SUM-3, SUM-5, SUM-6: the summary line by line.
func TestSummary(t *testing.T) {
	for _, tc := range []struct {
		calls []string
		want  string
	}{
		{nil, "0 tool calls"},
		{[]string{"WebFetch"}, "1 tool call\nWebFetch"},
		{[]string{"a", "mcp__s__b"}, "2 tool calls\na\nmcp__s__b"},
		{[]string{"a", "b", "c"}, "... 3 tool calls\nb\nc"},
		{[]string{"a", "b", "c", "c", "d", "e", "f", "g", "h", "i", "j", "k"}, "... 12 tool calls\nj\nk"},
	} {
		if got := summary(tc.calls); got != tc.want {
			t.Errorf("summary(%q) = %q, want %q", tc.calls, got, tc.want)
		}
		if strings.Contains(summary(tc.calls), Name) {
			t.Errorf("SUM-1: the summary names Exec")
		}
	}
}

// SUM-1..7, SUM-9, SUM-10 through Run: the summary and the record come from
// the same calls, repeats kept, refused calls counted (over the limit, by
// the user), ToolSearch counted, names outside the pool (which never reach
// the host) not; the record is never in the model's text.
func TestSummaryAndRecord(t *testing.T) {
	f := &fakeFunnel{tools: map[string]toolFunc{"TaskCreate": refusing("the user said no")}}
	s := newSession(t, f, &Options{Tools: with(builtins(), githubTools()), Limits: sandbox.Options{MaxCalls: 5}})
	for _, tc := range []struct {
		id, code, summary string
		calls             []string
	}{
		{"SUM-5 no call", `print("hi")`, "0 tool calls", nil},
		{"SUM-1 SUM-2 one call", `tools.WebFetch{}`, "1 tool call\nWebFetch", []string{"WebFetch"}},
		{"SUM-2 two calls", `tools.WebFetch{}; tools["mcp__github__get-file.contents"]{}`, "2 tool calls\nWebFetch\nmcp__github__get-file.contents",
			[]string{"WebFetch", "mcp__github__get-file.contents"}},
		{"SUM-3 SUM-10 repeats, last two", `for i = 1, 3 do tools.WebFetch{} end; tools.mcp__github__create_issue{}`, "... 4 tool calls\nWebFetch\nmcp__github__create_issue",
			[]string{"WebFetch", "WebFetch", "WebFetch", "mcp__github__create_issue"}},
		// A refusal by the user, a deny rule or a PreToolUse hook all come
		// back from the funnel as the call's error (HOOK-4).
		{"SUM-7 HOOK-4 refused by the funnel", `pcall(tools.TaskCreate, {}); return "done"`, "1 tool call\nTaskCreate", []string{"TaskCreate"}},
		{"SUM-7 over the limit", `for i = 1, 7 do pcall(tools.WebFetch) end; return "done"`, "... 7 tool calls\nWebFetch\nWebFetch",
			[]string{"WebFetch", "WebFetch", "WebFetch", "WebFetch", "WebFetch", "WebFetch", "WebFetch"}},
		{"ToolSearch counts", `tools.ToolSearch{ query = "issue" }; return "done"`, "1 tool call\nToolSearch", []string{"ToolSearch"}},
		{"SUM-7 outside the pool: recorded, refused before the host", `pcall(tools.mcp__gone__x); tools.WebFetch{}; return "done"`, "2 tool calls\nmcp__gone__x\nWebFetch", []string{"mcp__gone__x", "WebFetch"}},
		{"SUM-6 failed, record kept", `tools.WebFetch{}; tools.TaskCreate{}`, "failed", []string{"WebFetch", "TaskCreate"}},
	} {
		res := run(s, tc.code)
		got := fmt.Sprintf("%s | %q", res.Summary, res.Calls)
		want := fmt.Sprintf("%s | %q", tc.summary, tc.calls)
		if got != want {
			t.Errorf("%s: got %s, want %s", tc.id, got, want)
		}
		if res.Calls != nil && strings.Contains(res.Text, res.Calls[0]) {
			t.Errorf("%s SUM-9: the record leaked into the model's text: %q", tc.id, res.Text)
		}
	}
}

// SUM-4: the summary is updated at each nested call, before the script
// ends: when the second call reaches the host, the user already sees the
// first.
func TestSummaryLive(t *testing.T) {
	var seen []string
	var atSecond []string
	f := &fakeFunnel{tools: map[string]toolFunc{
		"TaskCreate": func(context.Context, map[string]any) (sandbox.Output, error) {
			atSecond = append([]string(nil), seen...)
			return sandbox.Output{}, nil
		},
	}}
	s := newSession(t, f, &Options{Tools: builtins()})
	res := s.Run(t.Context(), input(`tools.WebFetch{}; tools.TaskCreate{}; tools.WebFetch{}; return "ok"`), &RunOptions{Progress: func(summary string) {
		seen = append(seen, summary)
	}})
	want := []string{"1 tool call\nWebFetch", "2 tool calls\nWebFetch\nTaskCreate", "... 3 tool calls\nTaskCreate\nWebFetch"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("live summaries (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want[:2], atSecond); diff != "" {
		t.Errorf("summaries shown when the second call reached the host (-want +got):\n%s", diff)
	}
	if res.Summary != want[2] {
		t.Errorf("final summary %q, want %q", res.Summary, want[2])
	}
}
