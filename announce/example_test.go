package announce_test

import (
	"fmt"

	"github.com/execlua/execlua/announce"
)

// A host calls Decide once per request assembly and appends what it returns
// as an isMeta user message; the history is all it needs to remember.
func ExampleDecide() {
	var history []announce.Message
	assemble := func(names []string, execEnabled bool) {
		a, ok := announce.Decide(announce.Input{
			HasChannel:  true,
			History:     history,
			Names:       names,
			ExecEnabled: execEnabled,
		})
		if !ok {
			fmt.Println("(nothing to append)")
			return
		}
		history = append(history, announce.Message{IsMeta: true, Text: a.Text})
		fmt.Printf("[%s]\n%s\n", a.Kind, a.Text)
	}

	assemble([]string{"mcp__github__create_issue", "WebFetch"}, true)
	assemble([]string{"WebFetch", "mcp__github__create_issue"}, true) // same pool
	assemble(nil, true)                                               // pool emptied
	assemble(nil, true)
	// Output:
	// [full]
	// Catalogued tools your scripts can call, as tools.<name>(args) or tools["<name>"](args); this list replaces any earlier one:
	// WebFetch
	// mcp__github__create_issue
	// Names only: look up a tool's parameters with tools.ToolSearch{ query = "<name>" } in the same script, then call it.
	// <!-- execlua-announce kind=full hash=nangjlkmofhc -->
	// (nothing to append)
	// [empty]
	// The tool catalogue has changed: no catalogued tools are available right now; later updates may add some. None of the tools listed earlier can be called now.
	// <!-- execlua-announce kind=empty hash=fgodefnkkdoi -->
	// (nothing to append)
}
