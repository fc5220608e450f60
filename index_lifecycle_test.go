package execlua

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/execlua/execlua/pool"
)

// The search index is built when the pool is assembled, never at a run's
// first ToolSearch; a settings change or an unchanged registry reuses it,
// and a server connecting gets an index that finds its tools.
func TestSearchIndexBuiltWithThePool(t *testing.T) {
	s := newSession(t, &fakeFunnel{}, &Options{Tools: with(builtins(), githubTools())})
	first := s.cur.Load()
	if first.index == nil || first.index.Len() != len(first.asm.Pool()) {
		t.Fatalf("index after New: %v, want one of the %d pool tools", first.index, len(first.asm.Pool()))
	}
	if err := s.SetSettings(first.settings); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTools(with(builtins(), githubTools())); err != nil {
		t.Fatal(err)
	}
	if got := s.cur.Load().index; got != first.index {
		t.Error("an unchanged pool built a new index")
	}
	if err := s.SetTools(with(builtins(), githubTools(), []pool.Tool{mcpTool("slack", "post_message")})); err != nil {
		t.Fatal(err)
	}
	st := s.cur.Load()
	if st.index == first.index {
		t.Fatal("a server connecting kept the old index")
	}
	out, err := st.search(context.Background(), json.RawMessage(`{"query":"slack post message"}`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"name":"mcp__slack__post_message"`) {
		t.Errorf("the new server's tool is not found: %s", out)
	}
}
