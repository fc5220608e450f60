package pool

import (
	"encoding/json"
	"slices"
	"testing"
)

// execDecl stands in for the root package's Exec declaration.
var execDecl = Declaration{
	Name:        ExecName,
	Description: "Runs a Lua script that calls the catalogued tools through the tools table.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"code":{"type":"string"}},"required":["code"]}`),
}

func builtin(name string, shouldDefer bool) Tool {
	return Tool{
		Name:        name,
		Description: name + " does one thing.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`),
		ShouldDefer: shouldDefer,
	}
}

func mcpTool(server, tool string) Tool {
	return Tool{
		Name:         "mcp__" + server + "__" + tool,
		Description:  tool + " on " + server + ".",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"value":{"type":"string"}}}`),
		Kind:         MCP,
		Server:       server,
		ServerTool:   tool,
	}
}

func names(ts []Tool) []string {
	out := []string{}
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

func declNames(ds []Declaration) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.Name)
	}
	return out
}

func denyNames(denied ...string) func(string) bool {
	return func(name string) bool { return slices.Contains(denied, name) }
}

func mustAssemble(t *testing.T, registered []Tool, opts *Options) *Assembly {
	t.Helper()
	a, err := Assemble(registered, execDecl, opts)
	if err != nil {
		t.Fatalf("Assemble: %v", err)
	}
	return a
}

// defaultBuiltins stands in for a coding agent's preset (package
// host/preset, which imports this one): the core loop, exempt under
// coreExempt, and builtins that ask to be deferred.
func defaultBuiltins() []Tool {
	var out []Tool
	for _, n := range coreNames {
		out = append(out, builtin(n, false))
	}
	for _, n := range deferredNames {
		out = append(out, builtin(n, true))
	}
	return out
}

// coreExempt is the preset's policy: the core loop is never deferred.
func coreExempt() *Options { return &Options{Exempt: coreNames} }

// coreNames and deferredNames partition defaultBuiltins.
var (
	coreNames     = []string{"Read", "Write", "Edit", "Glob", "Grep", "Bash"}
	deferredNames = []string{"WebFetch", "WebSearch", "CronCreate", "CronList", "CronDelete", "EnterPlanMode", "ExitPlanMode", "EnterWorktree", "ExitWorktree", "TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "LSP"}
)

// view is everything an Assembly answers, for comparing two of them.
type view struct {
	Tools     []Declaration
	Flat      []Tool
	Pool      []Tool
	Exec      ExecStatus
	Available map[string]bool
	Lookup    map[string]lookup
}

type lookup struct {
	Name       string
	InPool, OK bool
}

// viewOf is a's answers, asked of every name in registered, Exec and a
// name nobody registered.
func viewOf(a *Assembly, registered []Tool) view {
	v := view{Tools: a.Tools, Flat: a.Flat, Pool: a.Pool(), Exec: a.Exec, Available: map[string]bool{}, Lookup: map[string]lookup{}}
	for _, name := range append(names(registered), ExecName, "mcp__nobody__registered") {
		v.Available[name] = a.Available(name)
		t, inPool, ok := a.Lookup(name)
		v.Lookup[name] = lookup{t.Name, inPool, ok}
	}
	return v
}
