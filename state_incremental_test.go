package execlua

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/execlua/execlua/host/preset"
	"github.com/google/go-cmp/cmp"
)

// stateView is what a state answers: the request, the reachable set, and
// ToolSearch for a few queries.
type stateView struct {
	Request   *Request
	Announced string
	Reachable map[string]string // name -> input schema
	Searches  []string
}

func viewState(t *testing.T, s *Session) stateView {
	t.Helper()
	st := s.cur.Load()
	r := s.Request(nil)
	v := stateView{Request: &Request{Tools: r.Tools, Guidance: r.Guidance}, Reachable: map[string]string{}}
	if r.Announcement != nil {
		v.Announced = r.Announcement.Text
	}
	for _, tool := range st.reach.Tools() {
		v.Reachable[tool.Name] = string(tool.InputSchema)
	}
	for _, q := range []string{"tool_1", "create an issue", "select:mcp__s2__tool_0,WebFetch", "read a file"} {
		args, _ := json.Marshal(map[string]any{"query": q, "max_results": 20})
		out, err := st.search(context.Background(), args)
		v.Searches = append(v.Searches, fmt.Sprint(string(out), err))
	}
	return v
}

// A session whose servers join, leave, change and move one by one
// (SetTools each time, now and then with the same tools) answers every
// request, run and search as a session made afresh with the same tools
// (POOL-10: the next run reaches the new pool), whether or not a request
// came between two changes.
func TestSetToolsEqualsNew(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 1))
	server := func(name string) []Tool {
		var tools []Tool
		for i := range 1 + r.IntN(4) {
			tool := mcpTool(name, fmt.Sprint("tool_", i))
			tool.Description += fmt.Sprint(" Version ", r.IntN(3), ".")
			tool.AlwaysLoad = r.IntN(8) == 0
			tools = append(tools, tool)
		}
		return tools
	}
	opts := func(tools []Tool) *Options {
		return &Options{Tools: tools, Exempt: preset.Exempt(), Guidance: testGuidance}
	}
	var servers [][]Tool
	compared := 0
	s := newSession(t, &fakeFunnel{}, opts(preset.Builtins()))
	for n := range 240 {
		last := servers
		switch i := r.IntN(len(servers) + 1); {
		case r.IntN(8) == 0: // the same tools again
		case r.IntN(6) == 0 && len(servers) > 1: // a server moves
			servers = slices.Clone(servers)
			j := r.IntN(len(servers))
			servers[i%len(servers)], servers[j] = servers[j], servers[i%len(servers)]
		case r.IntN(3) == 0 && len(servers) > 0:
			servers = slices.Delete(slices.Clone(servers), i%len(servers), i%len(servers)+1)
		case r.IntN(2) == 0 && len(servers) > 0:
			servers = slices.Clone(servers)
			servers[i%len(servers)] = server(servers[i%len(servers)][0].Server)
		default:
			servers = slices.Insert(slices.Clone(servers), i, server(fmt.Sprint("s", r.IntN(8))))
		}
		tools := slices.Concat(append([][]Tool{preset.Builtins()}, servers...)...)
		fresh, err := New(&fakeFunnel{}, opts(tools))
		if setErr := s.SetTools(tools); (err == nil) != (setErr == nil) {
			t.Fatalf("step %d: New: %v; SetTools: %v", n, err, setErr)
		}
		if err != nil {
			servers = last // as a host that leaves out what does not assemble
			continue
		}
		if r.IntN(4) == 0 { // unseen: the next state's announcement is rendered afresh
			continue
		}
		if want, got := viewState(t, fresh), viewState(t, s); !reflect.DeepEqual(want, got) {
			t.Fatalf("step %d (-New +SetTools):\n%s", n, cmp.Diff(want, got))
		}
		compared++
	}
	if compared < 120 {
		t.Errorf("only %d of 240 registries assembled: the test compares too little", compared)
	}
}
