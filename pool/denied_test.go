package pool

import (
	"slices"
	"testing"
)

// POOL-9: Denied names exactly the registered tools the one deny filter
// left out, flat and deferred alike, and they are in neither tools[] nor
// the pool.
func TestDeniedAreTheFiltered(t *testing.T) {
	registered := []Tool{builtin("Read", false), builtin("WebFetch", true), mcpTool("gh", "list"), mcpTool("gh", "delete")}
	deny := map[string]bool{"Read": true, "mcp__gh__delete": true}
	a, err := Assemble(registered, execDecl, &Options{Denied: func(name string) bool { return deny[name] }})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := a.Denied(), []string{"Read", "mcp__gh__delete"}; !slices.Equal(got, want) {
		t.Errorf("Denied() = %v, want %v", got, want)
	}
	for name := range deny {
		if a.Available(name) || slices.Contains(a.PoolNames(), name) {
			t.Errorf("%s is denied, yet available", name)
		}
	}
	b, err := a.Reassemble(registered[:3])
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Denied(); !slices.Equal(got, []string{"Read"}) {
		t.Errorf("after the denied tool left: Denied() = %v", got)
	}
}
