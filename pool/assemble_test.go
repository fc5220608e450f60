package pool

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// POOL-1: a non-empty pool with Exec enabled and allowed declares Exec and no
// pool tool; there is no size threshold.
func TestPOOL1_ExecReplacesPoolTools(t *testing.T) {
	t.Run("builtins and MCP", func(t *testing.T) {
		tools := append(defaultBuiltins(), mcpTool("srv", "fetch"), mcpTool("srv", "store"))
		a := mustAssemble(t, tools, nil)
		if diff := cmp.Diff(append([]string{ExecName}, coreNames...), declNames(a.Tools)); diff != "" {
			t.Errorf("tools[] (-want +got):\n%s", diff)
		}
		wantPool := append(slices.Clone(deferredNames), "mcp__srv__fetch", "mcp__srv__store")
		if diff := cmp.Diff(wantPool, names(a.Pool())); diff != "" {
			t.Errorf("pool (-want +got):\n%s", diff)
		}
		if a.Exec != ExecDeclared {
			t.Errorf("Exec = %v, want declared", a.Exec)
		}
	})
	t.Run("a pool of one", func(t *testing.T) {
		a := mustAssemble(t, []Tool{builtin("Read", false), mcpTool("srv", "only")}, nil)
		if diff := cmp.Diff([]string{ExecName, "Read"}, declNames(a.Tools)); diff != "" {
			t.Errorf("tools[] (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{"mcp__srv__only"}, names(a.Pool())); diff != "" {
			t.Errorf("pool (-want +got):\n%s", diff)
		}
	})
}

// POOL-2: no MCP server at all; the deferred builtins alone make the pool, so
// Exec is declared.
func TestPOOL2_BuiltinsAloneMakeAPool(t *testing.T) {
	a := mustAssemble(t, defaultBuiltins(), nil)
	if a.Exec != ExecDeclared || a.Tools[0].Name != ExecName {
		t.Fatalf("Exec = %v, tools[] = %v; want Exec declared first", a.Exec, declNames(a.Tools))
	}
	if diff := cmp.Diff(deferredNames, names(a.Pool())); diff != "" {
		t.Errorf("pool (-want +got):\n%s", diff)
	}
}

// POOL-3: an empty pool declares no Exec, whether nothing asks to be
// deferred or the non-deferred list exempts everything that does.
func TestPOOL3_EmptyPoolNoExec(t *testing.T) {
	t.Run("nothing deferred", func(t *testing.T) {
		a := mustAssemble(t, []Tool{builtin("Read", true), builtin("Agent", false)}, coreExempt())
		if diff := cmp.Diff([]string{"Read", "Agent"}, declNames(a.Tools)); diff != "" {
			t.Errorf("tools[] (-want +got):\n%s", diff)
		}
		if a.Exec != ExecEmptyPool || len(a.Pool()) != 0 || a.Available(ExecName) {
			t.Errorf("Exec = %v, pool = %v, Available(Exec) = %v; want empty pool, no Exec", a.Exec, names(a.Pool()), a.Available(ExecName))
		}
	})
	t.Run("list exempts everything", func(t *testing.T) {
		a := mustAssemble(t, defaultBuiltins(), &Options{LocalNonDeferred: deferredNames})
		if diff := cmp.Diff(append(slices.Clone(coreNames), deferredNames...), declNames(a.Tools)); diff != "" {
			t.Errorf("tools[] (-want +got):\n%s", diff)
		}
		if a.Exec != ExecEmptyPool {
			t.Errorf("Exec = %v, want empty pool", a.Exec)
		}
	})
	t.Run("no tools", func(t *testing.T) {
		a := mustAssemble(t, nil, nil)
		if len(a.Tools) != 0 || a.Exec != ExecEmptyPool {
			t.Errorf("tools[] = %v, Exec = %v; want nothing", declNames(a.Tools), a.Exec)
		}
	})
}

// POOL-4: a builtin exempted by alwaysLoad or the non-deferred list is flat,
// not in the pool (so neither announced nor searched), and not callable from
// the sandbox.
func TestPOOL4_ExemptBuiltinIsFlatOnly(t *testing.T) {
	always := builtin("Pinned", true)
	always.AlwaysLoad = true
	tools := []Tool{always, builtin("Listed", true), builtin("Deferred", true)}
	a := mustAssemble(t, tools, &Options{RemoteNonDeferred: []string{"Listed"}})
	if diff := cmp.Diff([]string{ExecName, "Pinned", "Listed"}, declNames(a.Tools)); diff != "" {
		t.Errorf("tools[] (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Deferred"}, names(a.Pool())); diff != "" {
		t.Errorf("pool (-want +got):\n%s", diff)
	}
	for _, name := range []string{"Pinned", "Listed"} {
		if _, pooled, ok := a.Lookup(name); !ok || pooled {
			t.Errorf("Lookup(%q) = pooled %v, ok %v; want flat and available", name, pooled, ok)
		}
	}
}

// POOL-5: every MCP tool is pooled unless it declares alwaysLoad (the host
// maps _meta["anthropic/alwaysLoad"] or the server entry's alwaysLoad onto
// Tool.AlwaysLoad); its searchHint travels with it.
func TestPOOL5_MCPPooledUnlessAlwaysLoad(t *testing.T) {
	pinned := mcpTool("srv", "pinned")
	pinned.AlwaysLoad = true
	hinted := mcpTool("srv", "hinted")
	hinted.SearchHint = "look up a customer"
	undeclared := mcpTool("srv", "plain")
	undeclared.ShouldDefer = false // MCP tools need not ask
	a := mustAssemble(t, []Tool{pinned, hinted, undeclared}, nil)
	if diff := cmp.Diff([]string{ExecName, "mcp__srv__pinned"}, declNames(a.Tools)); diff != "" {
		t.Errorf("tools[] (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Tool{hinted, undeclared}, a.Pool()); diff != "" {
		t.Errorf("pool (-want +got):\n%s", diff)
	}
}

// POOL-6 / FLAG-6: Exec denied by a permission rule (or left out of an
// allowed-tools list, which the host reports through the same Denied) is
// not declared, and every pool tool is declared flat and callable: exactly
// what switching Exec off gives.
func TestPOOL6_FLAG6_ExecDeniedDeclaresAllFlat(t *testing.T) {
	tools := append(defaultBuiltins(), mcpTool("srv", "fetch"))
	denied := mustAssemble(t, tools, &Options{Denied: denyNames(ExecName)})
	off := mustAssemble(t, tools, &Options{DisableExec: true})
	if denied.Exec != ExecDenied {
		t.Errorf("Exec = %v, want denied", denied.Exec)
	}
	if diff := cmp.Diff(off.Tools, denied.Tools); diff != "" {
		t.Errorf("denied Exec differs from Exec off (-off +denied):\n%s", diff)
	}
	if diff := cmp.Diff(names(tools), declNames(denied.Tools)); diff != "" {
		t.Errorf("tools[] (-want +got):\n%s", diff)
	}
	if len(denied.Pool()) != 0 || denied.Available(ExecName) {
		t.Errorf("pool = %v, Available(Exec) = %v; want no pool and no Exec", names(denied.Pool()), denied.Available(ExecName))
	}
	for _, tool := range tools {
		if _, pooled, ok := denied.Lookup(tool.Name); !ok || pooled {
			t.Errorf("Lookup(%q) = pooled %v, ok %v; want flat and available", tool.Name, pooled, ok)
		}
	}
}

// POOL-7 / FLAG-3: enableExec false registers no Exec; MCP tools and deferred
// builtins are declared flat, byte-exact, in registration order, and remain
// available.
func TestPOOL7_FLAG3_ExecOffDeclaresAllFlat(t *testing.T) {
	tools := append(defaultBuiltins(), mcpTool("srv", "fetch"), mcpTool("other", "get-item"))
	a := mustAssemble(t, tools, &Options{DisableExec: true})
	want := []Declaration{}
	for _, tool := range tools {
		want = append(want, tool.Declaration())
	}
	if diff := cmp.Diff(want, a.Tools); diff != "" {
		t.Errorf("tools[] (-want +got):\n%s", diff)
	}
	if a.Exec != ExecDisabled || len(a.Pool()) != 0 || a.Available(ExecName) {
		t.Errorf("Exec = %v, pool = %v; want disabled and no pool", a.Exec, names(a.Pool()))
	}
	for _, tool := range tools {
		if !a.Available(tool.Name) {
			t.Errorf("Available(%q) = false with Exec off", tool.Name)
		}
	}
}

// POOL-8 / BC-11: MCP servers connecting and disconnecting change the pool
// but neither whether Exec is declared, nor a byte of its declaration, nor
// anything else in tools[]; builtins' verdicts do not depend on MCP state.
func TestPOOL8_MCPStateNeverChangesToolsArray(t *testing.T) {
	states := map[string][]Tool{
		"no servers":     {},
		"one server":     {mcpTool("srv", "fetch")},
		"two servers":    {mcpTool("srv", "fetch"), mcpTool("srv", "store"), mcpTool("db", "query")},
		"srv went away":  {mcpTool("db", "query")},
		"odd tool names": {mcpTool("a__b", "get-item"), mcpTool("x", "v1.list")},
	}
	want := []Declaration{execDecl}
	for _, b := range defaultBuiltins()[:len(coreNames)] {
		want = append(want, b.Declaration())
	}
	wantBytes, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	for state, mcp := range states {
		a := mustAssemble(t, append(defaultBuiltins(), mcp...), nil)
		got, err := json.Marshal(a.Tools)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(wantBytes), string(got)); diff != "" {
			t.Errorf("%s: tools[] bytes changed (-want +got):\n%s", state, diff)
		}
		pooledBuiltins := []string{}
		for _, tool := range a.Pool() {
			if tool.Kind == Builtin {
				pooledBuiltins = append(pooledBuiltins, tool.Name)
			}
		}
		if diff := cmp.Diff(deferredNames, pooledBuiltins); diff != "" {
			t.Errorf("%s: builtins' deferral changed (-want +got):\n%s", state, diff)
		}
	}
}

// POOL-9: one deny filter for flat declarations and the pool: a denied tool
// is in neither, whatever its verdict and whether or not Exec is on.
func TestPOOL9_DeniedToolsNowhere(t *testing.T) {
	tools := append(defaultBuiltins(), mcpTool("srv", "fetch"), mcpTool("srv", "drop"))
	deny := denyNames("mcp__srv__drop", "WebFetch", "Bash")
	for _, opts := range []*Options{{Denied: deny}, {Denied: deny, DisableExec: true}} {
		a := mustAssemble(t, tools, opts)
		for _, name := range []string{"mcp__srv__drop", "WebFetch", "Bash"} {
			if slices.Contains(names(a.Pool()), name) || slices.Contains(names(a.Flat), name) || slices.Contains(declNames(a.Tools), name) {
				t.Errorf("DisableExec=%v: denied %q is still listed", opts.DisableExec, name)
			}
			if a.Available(name) {
				t.Errorf("DisableExec=%v: Available(%q) = true for a denied tool", opts.DisableExec, name)
			}
		}
		if !a.Available("mcp__srv__fetch") || !a.Available("WebSearch") {
			t.Errorf("DisableExec=%v: permitted tools lost", opts.DisableExec)
		}
	}
}

// POOL-10: the sandbox's reach is the pool of the Assemble call made for
// that run: a server connected since the announcement is callable, a
// disconnected one is not.
func TestPOOL10_ReachRecomputedEachRun(t *testing.T) {
	announced := mustAssemble(t, append(defaultBuiltins(), mcpTool("old", "get")), nil)
	if _, pooled, _ := announced.Lookup("mcp__old__get"); !pooled {
		t.Fatal("mcp__old__get not in the first pool")
	}
	now := mustAssemble(t, append(defaultBuiltins(), mcpTool("new", "put")), nil)
	if _, pooled, _ := now.Lookup("mcp__new__put"); !pooled {
		t.Error("a server connected since the announcement is not reachable")
	}
	if _, _, ok := now.Lookup("mcp__old__get"); ok {
		t.Error("a disconnected server is still reachable")
	}
}

// POOL-11: tools out of tools[] stay available; Available answers for the
// registered, permitted set (flat ∪ pool, plus Exec when declared), never for
// tools[].
func TestPOOL11_AvailableIsReachableNotDeclared(t *testing.T) {
	tools := append(defaultBuiltins(), mcpTool("srv", "fetch"), mcpTool("srv", "secret"))
	a := mustAssemble(t, tools, &Options{Denied: denyNames("mcp__srv__secret")})
	got := map[string]bool{}
	for _, name := range []string{ExecName, "Read", "TaskCreate", "mcp__srv__fetch", "mcp__srv__secret", "NoSuchTool", ""} {
		got[name] = a.Available(name)
	}
	want := map[string]bool{ExecName: true, "Read": true, "TaskCreate": true, "mcp__srv__fetch": true, "mcp__srv__secret": false, "NoSuchTool": false, "": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Available (-want +got):\n%s", diff)
	}
	if slices.Contains(declNames(a.Tools), "TaskCreate") {
		t.Fatal("TaskCreate declared flat; the test needs it pooled")
	}
	tool, pooled, ok := a.Lookup("TaskCreate")
	if !ok || !pooled || tool.Name != "TaskCreate" {
		t.Errorf("Lookup(TaskCreate) = %q, pooled %v, ok %v", tool.Name, pooled, ok)
	}
}

// POOL-12: a non-deferred list from remote or from local settings moves the
// named builtins from the pool to tools[]; no release, only options.
func TestPOOL12_NonDeferredListsMoveToolsFlat(t *testing.T) {
	for _, opts := range []*Options{
		{RemoteNonDeferred: []string{"WebFetch", "LSP"}},
		{LocalNonDeferred: []string{"WebFetch", "LSP"}},
		{RemoteNonDeferred: []string{"LSP"}, LocalNonDeferred: []string{"WebFetch"}},
	} {
		a := mustAssemble(t, defaultBuiltins(), opts)
		wantTools := append([]string{ExecName}, coreNames...)
		wantTools = append(wantTools, "WebFetch", "LSP")
		if diff := cmp.Diff(wantTools, declNames(a.Tools)); diff != "" {
			t.Errorf("%+v: tools[] (-want +got):\n%s", *opts, diff)
		}
		if slices.Contains(names(a.Pool()), "WebFetch") || slices.Contains(names(a.Pool()), "LSP") {
			t.Errorf("%+v: listed tools still pooled: %v", *opts, names(a.Pool()))
		}
	}
}

// POOL-13: guidance keyed by tool name follows the reachable set: a pooled
// tool keeps its line, a denied or unregistered one does not.
func TestPOOL13_GuidanceFollowsReachableSet(t *testing.T) {
	lines := []Guidance{
		{Tool: "TaskCreate", Line: "Use TaskCreate to plan and track multi-step work."},
		{Tool: "Read", Line: "Read files with Read, not cat."},
		{Tool: "WebSearch", Line: "Use WebSearch for recent events."},
		{Tool: "NotebookEdit", Line: "Edit notebooks with NotebookEdit."},
		{Tool: ExecName, Line: "Batch calls to catalogued tools in one Exec script."},
	}
	a := mustAssemble(t, defaultBuiltins(), &Options{Denied: denyNames("WebSearch")})
	want := []string{lines[0].Line, lines[1].Line, lines[4].Line}
	if diff := cmp.Diff(want, a.Guidance(lines)); diff != "" {
		t.Errorf("guidance with TaskCreate pooled (-want +got):\n%s", diff)
	}
	off := mustAssemble(t, defaultBuiltins(), &Options{DisableExec: true, Denied: denyNames("WebSearch")})
	if diff := cmp.Diff(want[:2], off.Guidance(lines)); diff != "" {
		t.Errorf("guidance with Exec off (-want +got):\n%s", diff)
	}
}

// FLAG-7: exempting one builtin returns it to tools[] without switching Exec
// off; the rest of the pool stays.
func TestFLAG7_ExemptOneBuiltinKeepsExec(t *testing.T) {
	tools := append(defaultBuiltins(), mcpTool("srv", "fetch"))
	before := mustAssemble(t, tools, nil)
	after := mustAssemble(t, tools, &Options{LocalNonDeferred: []string{"TaskCreate"}})
	if after.Exec != ExecDeclared || after.Tools[0].Name != ExecName {
		t.Fatalf("Exec = %v; want still declared", after.Exec)
	}
	if diff := cmp.Diff(append(declNames(before.Tools), "TaskCreate"), declNames(after.Tools)); diff != "" {
		t.Errorf("tools[] (-want +got):\n%s", diff)
	}
	wantPool := slices.DeleteFunc(names(before.Pool()), func(n string) bool { return n == "TaskCreate" })
	if diff := cmp.Diff(wantPool, names(after.Pool())); diff != "" {
		t.Errorf("pool (-want +got):\n%s", diff)
	}
}

// Edge case: a pool tool named ToolSearch or parallel is refused when the
// pool is built, even with Exec off; the same name on a flat or denied tool
// is harmless because it never reaches the sandbox's tools table.
func TestReservedNamesRefusedInPool(t *testing.T) {
	for _, name := range []string{SearchName, ParallelName} {
		for _, opts := range []*Options{nil, {DisableExec: true}} {
			_, err := Assemble([]Tool{builtin("Read", false), builtin(name, true)}, execDecl, opts)
			var ne *NameError
			if !errors.Is(err, ErrReservedName) || !errors.As(err, &ne) || ne.Name != name {
				t.Errorf("pooled %q, opts %+v: err = %v; want ErrReservedName naming it", name, opts, err)
			}
		}
		if _, err := Assemble([]Tool{builtin(name, false)}, execDecl, nil); err != nil {
			t.Errorf("flat %q: %v", name, err)
		}
		if _, err := Assemble([]Tool{builtin(name, true)}, execDecl, &Options{Denied: denyNames(name)}); err != nil {
			t.Errorf("denied %q: %v", name, err)
		}
	}
	// Case matters on a Lua table: tools.toolsearch is an ordinary name.
	if _, err := Assemble([]Tool{builtin("toolsearch", true)}, execDecl, nil); err != nil {
		t.Errorf("toolsearch: %v", err)
	}
}

// Names must be non-empty and unique across the registry and Exec.
func TestNamesValidated(t *testing.T) {
	tests := []struct {
		name  string
		tools []Tool
		opts  *Options
		want  error
		bad   string
	}{
		{"duplicate", []Tool{builtin("A", false), mcpTool("s", "t"), builtin("A", true)}, nil, ErrDuplicateName, "A"},
		{"duplicate even if denied", []Tool{mcpTool("s", "t"), mcpTool("s", "t")}, &Options{Denied: denyNames("mcp__s__t")}, ErrDuplicateName, "mcp__s__t"},
		{"registered Exec clashes with Exec", []Tool{builtin(ExecName, false)}, nil, ErrDuplicateName, ExecName},
		{"empty", []Tool{builtin("", false)}, nil, ErrEmptyName, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Assemble(tc.tools, execDecl, tc.opts)
			var ne *NameError
			if !errors.Is(err, tc.want) || !errors.As(err, &ne) || ne.Name != tc.bad || a != nil {
				t.Errorf("Assemble = %v, %v; want %v naming %q", a, err, tc.want, tc.bad)
			}
		})
	}
	if _, err := Assemble([]Tool{builtin(ExecName, false)}, Declaration{}, &Options{DisableExec: true}); err != nil {
		t.Errorf("with Exec off its name is free: %v", err)
	}
	if _, err := Assemble(nil, Declaration{}, nil); !errors.Is(err, ErrEmptyName) {
		t.Errorf("enabled Exec without a name: err = %v, want ErrEmptyName", err)
	}
}

// Registration order is kept in tools[], the flat list and the pool; Exec
// comes first; output schemas travel with pool tools.
func TestOrderAndOutputSchema(t *testing.T) {
	tools := []Tool{mcpTool("z", "last"), builtin("Zed", false), builtin("Alpha", true), mcpTool("a", "first"), builtin("Mid", false)}
	a := mustAssemble(t, tools, nil)
	if diff := cmp.Diff([]string{ExecName, "Zed", "Mid"}, declNames(a.Tools)); diff != "" {
		t.Errorf("tools[] (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Tool{tools[0], tools[2], tools[3]}, a.Pool()); diff != "" {
		t.Errorf("pool, output schemas included (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Tool{tools[1], tools[4]}, a.Flat); diff != "" {
		t.Errorf("flat (-want +got):\n%s", diff)
	}
}

// Declarations are byte-exact copies of the descriptor's schema; an empty
// schema is declared as an empty object schema.
func TestDeclaration(t *testing.T) {
	odd := Tool{Name: "Odd", Description: "d", InputSchema: json.RawMessage("{ \"type\" : \"object\",\n  \"properties\":{ \"b\":{}, \"a\":{} } }")}
	if diff := cmp.Diff(string(odd.InputSchema), string(odd.Declaration().InputSchema)); diff != "" {
		t.Errorf("schema re-encoded (-want +got):\n%s", diff)
	}
	got := Tool{Name: "Bare"}.Declaration()
	if diff := cmp.Diff(Declaration{Name: "Bare", InputSchema: json.RawMessage(`{"type":"object"}`)}, got); diff != "" {
		t.Errorf("empty schema (-want +got):\n%s", diff)
	}
	wire, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`{"name":"Bare","description":"","input_schema":{"type":"object"}}`, string(wire)); diff != "" {
		t.Errorf("wire form (-want +got):\n%s", diff)
	}
}

// The zero Options are the documented defaults: Exec on, nothing listed,
// nothing denied; nil means the same.
func TestNilOptionsAreZeroOptions(t *testing.T) {
	tools := append(defaultBuiltins(), mcpTool("srv", "fetch"))
	if diff := cmp.Diff(viewOf(mustAssemble(t, tools, &Options{}), tools), viewOf(mustAssemble(t, tools, nil), tools)); diff != "" {
		t.Errorf("(-zero +nil):\n%s", diff)
	}
}

// Exec's status as the announcement reads it: an emptied pool keeps Exec
// enabled (BC-8), switching it off or denying it does not (BC-9).
func TestExecStatus(t *testing.T) {
	type row struct {
		Status  string
		Enabled bool
	}
	got := []row{}
	for s := ExecDeclared; s <= ExecEmptyPool+1; s++ {
		got = append(got, row{s.String(), s.Enabled()})
	}
	want := []row{{"declared", true}, {"disabled", false}, {"denied", false}, {"empty pool", true}, {"unknown", false}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// The announcement's names are the pool's, in registration order.
func TestPoolNames(t *testing.T) {
	a := mustAssemble(t, append(defaultBuiltins(), mcpTool("srv", "fetch")), &Options{Denied: denyNames("LSP")})
	want := slices.DeleteFunc(append(slices.Clone(deferredNames), "mcp__srv__fetch"), func(n string) bool { return n == "LSP" })
	if diff := cmp.Diff(want, a.PoolNames()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
