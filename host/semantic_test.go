package host_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/internal/embedtest"
)

// A host configures semantics through Options.Session: every session it
// makes shares the Semantic. Over the fixture as a stdio subprocess, a
// script finds echo by a paraphrase the lexical ranking misses, and calls
// what it found (SRCH-9).
func TestSemanticSearchOverStdio(t *testing.T) {
	emb := embedtest.New(1024, map[string]string{"mirror": "return", "input": "argument", "parrot": "return"})
	sem := execlua.NewSemantic(emb, nil)
	e := setup(t, map[string]string{"local": `{"permissions": {"allow": ["mcp__fx"]}}`},
		&host.Options{Session: &execlua.Options{Semantic: sem}})
	e.until("the fixture's tools", func() bool { return len(e.pooled()) > 1 })
	const script = `local r = tools.ToolSearch{ query = "parrot my input" }
local first = r.matches[1]
if not first then return "nothing found" end
return { name = first.name, out = tools[first.name]{ said = "hi" } }`

	lexical, err := e.h.NewSession(&execlua.Options{})
	if err != nil {
		t.Fatal(err)
	}
	input, _ := json.Marshal(map[string]string{"code": script})
	if res := e.h.RunExec(context.Background(), lexical, input, nil); res.IsError || string(res.Value) != `"nothing found"` {
		t.Fatalf("lexically: %s; want nothing found, or the test tests nothing", res.Text)
	}

	res := e.run(script)
	var got struct {
		Name string
		Out  map[string]string
	}
	if res.IsError || json.Unmarshal(res.Value, &got) != nil {
		t.Fatalf("with a Semantic: %s", res.Text)
	}
	if got.Name != "mcp__fx__echo" || got.Out["said"] != "hi" {
		t.Errorf("with a Semantic: found %s, which returned %v; want mcp__fx__echo returning its arguments", got.Name, got.Out)
	}
	if emb.Calls() == 0 {
		t.Error("the embedder was never called")
	}
}
