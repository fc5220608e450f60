package execlua

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/execlua/execlua/internal/cputime"
	"github.com/execlua/execlua/pool"
	"github.com/execlua/execlua/sandbox"
	"github.com/execlua/execlua/search"
)

// bothModes runs body once in-process and once in a worker process, each
// with a session over tools and f with the given limits.
func bothModes(t *testing.T, f sandbox.Funnel, tools []pool.Tool, limits Limits, body func(t *testing.T, s *Session)) {
	p := workerPool(t, nil)
	for _, isolation := range []Isolation{InProcess, Process} {
		t.Run(string(isolation), func(t *testing.T) {
			body(t, newSession(t, f, &Options{Tools: tools, Isolation: isolation, Workers: p, Limits: limits}))
		})
	}
}

// ISO-8 for the host's work: what a script hands the host is bounded, in
// both isolation modes. A ToolSearch query of 4 MiB or of 40,000 words,
// too many words or select: names, and a 4 MiB unknown tool name are
// refused with an error that names the limit; these and a 4 MiB argument
// cost a bounded CPU time (before: 40,000 words took 3.6 s of the host's).
func TestHostWorkIsBounded(t *testing.T) {
	const words40k = `local w = {} for i = 1, 40000 do w[i] = "w" .. i end `
	for _, tc := range []struct {
		name, code string
		want       error  // what res.Err matches; nil: success
		text       string // what res.Text contains
	}{
		{"query of 4 MiB", `return tools.ToolSearch{ query = ("x"):rep(4 * 1024 * 1024) }`, search.ErrQueryLimit,
			"ToolSearch: the arguments' length in bytes (as JSON) is 4194316; the limit is 49408"},
		{"query of 4 MiB of words", `return tools.ToolSearch{ query = ("ab "):rep(1398101) }`, search.ErrQueryLimit,
			"the arguments' length in bytes (as JSON) is 4194315"},
		{"query of 40,000 words", words40k + `return tools.ToolSearch{ query = table.concat(w, " ") }`, search.ErrQueryLimit,
			"the arguments' length in bytes (as JSON) is 268905"},
		{"query of 9,000 bytes", `return tools.ToolSearch{ query = ("x"):rep(9000) }`, search.ErrQueryLimit,
			"the query's length in bytes is 9000; the limit is 8192"},
		{"query of 300 words", `return tools.ToolSearch{ query = ("ab "):rep(300) }`, search.ErrQueryLimit,
			"the number of words in the query is 300; the limit is 256"},
		{"select of 101 names", `return tools.ToolSearch{ query = "select:" .. ("Read,"):rep(100) .. "Read" }`, search.ErrQueryLimit,
			"the number of names after select: is 101; the limit is 100"},
		{"caught", `local ok, err = pcall(tools.ToolSearch, { query = ("x"):rep(9000) }) return ok, err`, nil,
			`[false,"ToolSearch: the query's length in bytes is 9000; the limit is 8192`},
		{"unknown tool name of 4 MiB", `local n = "mcp__" .. ("x"):rep(4 * 1024 * 1024 - 5) return tools[n]{}`, sandbox.ErrUnknownTool,
			"… (a name of 4194304 bytes) is not reachable"},
		{"argument of 4 MiB", `return tools.WebFetch{ x = ("x"):rep(4 * 1024 * 1024) }`, nil,
			"[Return value truncated: it was 4194321 characters long.]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bothModes(t, &fakeFunnel{}, with(builtins(), githubTools()), Limits{Budget: time.Minute}, func(t *testing.T, s *Session) {
				var res Result
				spent := cputime.Spent(t, func() { res = run(s, tc.code) })
				if spent > hostWorkCPU {
					t.Errorf("the run cost %v of CPU, want at most %v", spent, hostWorkCPU)
				}
				if tc.want == nil && res.IsError || tc.want != nil && !errors.Is(res.Err, tc.want) {
					t.Errorf("err = %v, want %v", res.Err, tc.want)
				}
				if !strings.Contains(res.Text, tc.text) || len(res.Text) > sandbox.DefaultMaxResultChars+200 {
					t.Errorf("text of %d bytes %.300q, want it to contain %q", len(res.Text), res.Text, tc.text)
				}
			})
		})
	}
}

// The session's search honours the run's context (SearchFunc), which the
// run's budget and its caller's cancellation end; in a worker process the
// host's side ends it when the worker is gone (worker's
// TestSearchEndsWithTheRun).
func TestSearchGetsTheRunsContext(t *testing.T) {
	s := newSession(t, &fakeFunnel{}, &Options{Tools: with(builtins(), githubTools())})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st := s.cur.Load()
	res, err := st.search(ctx, []byte(`{"query":"webfetch"}`))
	if err != nil || !strings.Contains(string(res), `"name":"WebFetch"`) {
		t.Fatalf("search: %s, %v", res, err)
	}
	cancel()
	if _, err := st.search(ctx, []byte(`{"query":"webfetch"}`)); !errors.Is(err, context.Canceled) {
		t.Errorf("search with its context done: %v, want context.Canceled", err)
	}
}

// BUD-7, BUD-8 for every text: every path into the text the model gets,
// the error and the printed lines is bounded, with a note of what was
// cut, in both modes: an error of 4 MiB, an error object whose __tostring
// gives 4 MiB, a large error table, a funnel's error of 4 MiB, a funnel's
// panic of 4 MiB, 4 MiB printed, and a caught error returned.
func TestEveryTextIsBounded(t *testing.T) {
	const keep = 3000
	huge := strings.Repeat("z", 4<<20)
	f := &fakeFunnel{tools: map[string]toolFunc{
		"mcp__github__create_issue": func(context.Context, map[string]any) (sandbox.Output, error) {
			return sandbox.Output{}, errors.New(huge)
		},
		"mcp__github__get-file.contents": func(context.Context, map[string]any) (sandbox.Output, error) { panic(huge) },
	}}
	for _, tc := range []struct {
		name, code string
		note       string // the note of the cut, in Text or (for a crash) in Err
	}{
		{"error of 4 MiB", `error(("x"):rep(4 * 1024 * 1024))`, "[Error message truncated: it was 4194314 characters long.]"},
		{"__tostring of 4 MiB", `error(setmetatable({}, { __tostring = function() return ("y"):rep(4 * 1024 * 1024) end }))`,
			"[Error message truncated: it was 4194304 characters long.]"},
		{"error table", `local t = {} for i = 1, 100000 do t[i] = "item" .. i end error(t)`, "…"},
		{"funnel error of 4 MiB", `tools.mcp__github__create_issue{}`, "[Error message truncated: it was 4194314 characters long.]"},
		{"funnel panic of 4 MiB", `tools["mcp__github__get-file.contents"]{}`, "[Error message truncated: it was"},
		{"printed 4 MiB", `print(("p"):rep(4 * 1024 * 1024)) error("after")`, "[Printed output truncated: 4194304 characters were printed in all.]"},
		{"caught error returned", `return select(2, pcall(error, ("x"):rep(4 * 1024 * 1024)))`, "[Return value truncated: it was 4194304 characters long.]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bothModes(t, f, with(builtins(), githubTools()), Limits{Budget: time.Minute, MaxResultChars: keep}, func(t *testing.T, s *Session) {
				res := run(s, tc.code)
				bound := keep + sandbox.DefaultMaxLogChars + 300
				errText := ""
				if res.Err != nil {
					errText = res.Err.Error()
				}
				printed := strings.Join(res.Printed, "\n")
				if len(res.Text) > bound || len(errText) > bound || len(printed) > 4*sandbox.DefaultMaxLogChars || len(res.Summary) > 100 {
					t.Errorf("text %d bytes, error %d, printed %d, summary %d: want at most %d, %d, %d, 100",
						len(res.Text), len(errText), len(printed), len(res.Summary), bound, bound, 4*sandbox.DefaultMaxLogChars)
				}
				if !strings.Contains(res.Text, tc.note) && !strings.Contains(errText, tc.note) {
					t.Errorf("no note of the cut %q in %.200q… or %.200q…", tc.note, res.Text, errText)
				}
			})
		})
	}
}
