package pool

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The deferral table, rule by rule, and which rule wins when several apply.
// POOL-4, POOL-5, POOL-12 at the level of the one deferral function.
func TestDecide(t *testing.T) {
	alwaysLoad := func(t Tool) Tool { t.AlwaysLoad = true; return t }
	lists := &Options{
		RemoteNonDeferred: []string{"Remote", "Both", "mcp__srv__listed", "NoSuchTool"},
		LocalNonDeferred:  []string{"Local", "Both", "mcp__srv__listed"},
	}
	tests := []struct {
		name string
		tool Tool
		opts *Options
		want Decision
	}{
		{"builtin without intent stays flat", builtin("Agent", false), nil, Decision{false, ReasonOwnIntent}},
		{"builtin with intent is deferred", builtin("WebFetch", true), nil, Decision{true, ReasonOwnIntent}},
		// POOL-4: alwaysLoad beats the tool's own intent.
		{"POOL-4 alwaysLoad beats intent", alwaysLoad(builtin("WebFetch", true)), nil, Decision{false, ReasonAlwaysLoad}},
		{"alwaysLoad beats the lists", alwaysLoad(builtin("Both", true)), lists, Decision{false, ReasonAlwaysLoad}},
		{"alwaysLoad before the exemption", alwaysLoad(builtin("Read", false)), coreExempt(), Decision{false, ReasonAlwaysLoad}},
		{"Exec is never deferred", builtin(ExecName, true), nil, Decision{false, ReasonExempt}},
		{"the host's exempt list", builtin("Bash", true), coreExempt(), Decision{false, ReasonExempt}},
		{"no name is exempt unless the host says", builtin("Bash", true), nil, Decision{true, ReasonOwnIntent}},
		{"exemption before the lists", builtin("Grep", true), &Options{Exempt: coreNames, RemoteNonDeferred: []string{"Grep"}}, Decision{false, ReasonExempt}},
		// POOL-12: the remote list is consulted before the local one.
		{"POOL-12 remote list", builtin("Remote", true), lists, Decision{false, ReasonRemoteList}},
		{"POOL-12 local list", builtin("Local", true), lists, Decision{false, ReasonLocalList}},
		{"POOL-12 remote before local", builtin("Both", true), lists, Decision{false, ReasonRemoteList}},
		{"unlisted builtin keeps its intent", builtin("Other", true), lists, Decision{true, ReasonOwnIntent}},
		// POOL-5: MCP tools are deferred whatever they ask for, and the
		// non-deferred lists (builtins only) cannot take them out.
		{"POOL-5 mcp deferred unconditionally", mcpTool("srv", "fetch"), nil, Decision{true, ReasonMCP}},
		{"POOL-5 mcp not released by the lists", mcpTool("srv", "listed"), lists, Decision{true, ReasonMCP}},
		{"POOL-5 mcp alwaysLoad escapes", alwaysLoad(mcpTool("srv", "fetch")), nil, Decision{false, ReasonAlwaysLoad}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Decide(tc.tool, tc.opts)); diff != "" {
				t.Errorf("Decide(%s) (-want +got):\n%s", tc.tool.Name, diff)
			}
		})
	}
}

// Edge case: unknown names in the non-deferred lists are ignored; they
// neither fail the build nor change any verdict.
func TestUnknownListNamesIgnored(t *testing.T) {
	tools := append(defaultBuiltins(), mcpTool("srv", "fetch"))
	plain := mustAssemble(t, tools, nil)
	listed := mustAssemble(t, tools, &Options{
		RemoteNonDeferred: []string{"NoSuchTool", ""},
		LocalNonDeferred:  []string{"mcp__gone__tool", "webfetch"},
	})
	if diff := cmp.Diff(names(plain.Pool()), names(listed.Pool())); diff != "" {
		t.Errorf("pool changed by unknown names (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(plain.Tools, listed.Tools); diff != "" {
		t.Errorf("tools[] changed by unknown names (-want +got):\n%s", diff)
	}
}

// A Reason's text is what a host shows when explaining a verdict.
func TestReasonString(t *testing.T) {
	got := []string{}
	for r := ReasonAlwaysLoad; r <= ReasonOwnIntent+1; r++ {
		got = append(got, r.String())
	}
	want := []string{"alwaysLoad", "exempt", "remote non-deferred list", "local non-deferred list", "mcp", "own intent", "unknown"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
