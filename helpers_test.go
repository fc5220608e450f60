package execlua

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/execlua/execlua/announce"
	goldenfile "github.com/execlua/execlua/internal/golden"
	"github.com/execlua/execlua/pool"
	"github.com/execlua/execlua/sandbox"
)

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", "golden", name), got)
}

// A small registry: one core builtin the engine keeps flat, two builtins
// that ask to be deferred, and MCP servers as tests connect them.
func builtin(name string, shouldDefer bool) pool.Tool {
	return pool.Tool{
		Name:        name,
		Description: name + " does one thing.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`),
		ShouldDefer: shouldDefer,
	}
}

func mcpTool(server, tool string) pool.Tool {
	return pool.Tool{
		Name:         "mcp__" + server + "__" + tool,
		Description:  tool + " on " + server + ".",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"},"tags":{"type":"array"}}}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"value":{"type":"string"}}}`),
		Kind:         pool.MCP,
		Server:       server,
		ServerTool:   tool,
	}
}

func builtins() []pool.Tool {
	return []pool.Tool{builtin("Read", false), builtin("WebFetch", true), builtin("TaskCreate", true)}
}

func githubTools() []pool.Tool {
	return []pool.Tool{mcpTool("github", "create_issue"), mcpTool("github", "get-file.contents")}
}

func with(lists ...[]pool.Tool) []pool.Tool {
	var out []pool.Tool
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// toolFunc is a fake tool: it gets the decoded arguments.
type toolFunc func(ctx context.Context, args map[string]any) (sandbox.Output, error)

// fakeFunnel stands in for the host's funnel: it records every call that
// reaches it and answers from a table of fake tools; a name missing from
// the table answers with its arguments echoed as text.
type fakeFunnel struct {
	tools map[string]toolFunc

	mu    sync.Mutex
	calls []sandbox.Call
}

func (f *fakeFunnel) Call(ctx context.Context, c sandbox.Call) (sandbox.Output, error) {
	f.mu.Lock()
	f.calls = append(f.calls, c)
	f.mu.Unlock()
	tool := f.tools[c.Name]
	if tool == nil {
		return sandbox.Output{Text: []string{c.Name + " " + string(c.Args)}}, nil
	}
	var args map[string]any
	if err := json.Unmarshal(c.Args, &args); err != nil {
		return sandbox.Output{}, fmt.Errorf("arguments are not a JSON object: %s", c.Args)
	}
	return tool(ctx, args)
}

// reached lists the calls that reached the funnel, as "name args".
func (f *fakeFunnel) reached() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := []string{}
	for _, c := range f.calls {
		out = append(out, c.Name+" "+string(c.Args))
	}
	return out
}

func structured(js string) toolFunc {
	return func(context.Context, map[string]any) (sandbox.Output, error) {
		return sandbox.Output{Structured: json.RawMessage(js)}, nil
	}
}

func text(lines ...string) toolFunc {
	return func(context.Context, map[string]any) (sandbox.Output, error) {
		return sandbox.Output{Text: lines}, nil
	}
}

func refusing(reason string) toolFunc {
	return func(context.Context, map[string]any) (sandbox.Output, error) {
		return sandbox.Output{}, fmt.Errorf("%s", reason)
	}
}

func newSession(t testing.TB, f sandbox.Funnel, opts *Options) *Session {
	t.Helper()
	s, err := New(f, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func input(code string) json.RawMessage {
	b, err := json.Marshal(Input{Code: code})
	if err != nil {
		panic(err)
	}
	return b
}

func run(s *Session, code string) Result {
	return s.Run(context.Background(), input(code), nil)
}

func toolsJSON(t testing.TB, r *Request) string {
	t.Helper()
	b, err := json.Marshal(r.Tools)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func declNames(ds []pool.Declaration) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.Name)
	}
	return out
}

// conversation is a host's history: it appends what Request says to append
// and nothing else.
type conversation struct {
	msgs []announce.Message
}

func (c *conversation) say(text string) {
	c.msgs = append(c.msgs, announce.Message{Text: text})
}

// request assembles a request, appends its announcement and returns it,
// with the appended text ("" for none).
func (c *conversation) request(s *Session) (*Request, string) {
	r := s.Request(c.msgs)
	if r.Announcement == nil {
		return r, ""
	}
	c.msgs = append(c.msgs, announce.Message{IsMeta: true, Text: r.Announcement.Text})
	return r, r.Announcement.Text
}
