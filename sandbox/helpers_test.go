package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// toolFunc is a fake tool: it gets the decoded arguments.
type toolFunc func(ctx context.Context, args map[string]any) (Output, error)

// fakeFunnel records every call that reaches the host and answers from a
// table of fake tools. It also tracks how many calls were in flight at
// once, for the parallel tests.
type fakeFunnel struct {
	tools   map[string]toolFunc
	schemas map[string]string

	mu          sync.Mutex
	calls       []Call
	inFlight    int
	maxInFlight int
}

func newFunnel(tools map[string]toolFunc) *fakeFunnel {
	return &fakeFunnel{tools: tools, schemas: map[string]string{}}
}

func (f *fakeFunnel) Call(ctx context.Context, c Call) (Output, error) {
	f.mu.Lock()
	f.calls = append(f.calls, c)
	f.inFlight++
	f.maxInFlight = max(f.maxInFlight, f.inFlight)
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.inFlight--
		f.mu.Unlock()
	}()
	tool := f.tools[c.Name]
	if tool == nil {
		return Output{}, fmt.Errorf("fake funnel has no tool %q", c.Name)
	}
	var args map[string]any
	if err := json.Unmarshal(c.Args, &args); err != nil {
		return Output{}, fmt.Errorf("arguments are not a JSON object: %s", c.Args)
	}
	return tool(ctx, args)
}

func (f *fakeFunnel) names() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.calls {
		out = append(out, c.Name)
	}
	return out
}

func (f *fakeFunnel) request(code string) Request {
	return Request{Code: code, Tools: NewToolset(f.toolList()), Funnel: f}
}

// toolList is the fake tools as a reachable set, by name.
func (f *fakeFunnel) toolList() []Tool {
	var tools []Tool
	for name := range f.tools {
		tools = append(tools, Tool{Name: name, InputSchema: json.RawMessage(f.schemas[name])})
	}
	slices.SortFunc(tools, func(a, b Tool) int { return cmpString(a.Name, b.Name) })
	return tools
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// structured answers with a fixed structuredContent.
func structured(js string) toolFunc {
	return func(context.Context, map[string]any) (Output, error) {
		return Output{Structured: json.RawMessage(js)}, nil
	}
}

// echo answers with its arguments as structured content.
func echo(_ context.Context, args map[string]any) (Output, error) {
	b, err := json.Marshal(args)
	return Output{Structured: b}, err
}

func failing(msg string) toolFunc {
	return func(context.Context, map[string]any) (Output, error) {
		return Output{}, fmt.Errorf("%s", msg)
	}
}

func runScript(t *testing.T, f *fakeFunnel, code string, opts *Options) Outcome {
	t.Helper()
	return Run(context.Background(), f.request(code), opts)
}

// mustResult runs code and fails the test unless it succeeds with want.
func mustResult(t *testing.T, f *fakeFunnel, code, want string) Outcome {
	t.Helper()
	out := runScript(t, f, code, nil)
	if out.Err != nil {
		t.Fatalf("script failed: %v\nscript:\n%s", out.Err, code)
	}
	if diff := cmp.Diff(want, out.Result); diff != "" {
		t.Errorf("result (-want +got):\n%s\nscript:\n%s", diff, code)
	}
	return out
}

// bigObject is a JSON object of n fields.
func bigObject(n int) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"key%d":%d`, i, i)
	}
	b.WriteByte('}')
	return b.String()
}
