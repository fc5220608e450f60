package pool

import (
	"fmt"
	"testing"
)

// benchRegistry is a 1,000-tool registry: the default builtins plus MCP
// tools from 20 servers, one in ten denied, a few pinned with alwaysLoad.
func benchRegistry() ([]Tool, *Options) {
	tools := defaultBuiltins()
	for i := 0; len(tools) < 1000; i++ {
		t := mcpTool(fmt.Sprintf("server%02d", i%20), fmt.Sprintf("tool_%d", i))
		t.AlwaysLoad = i%97 == 0
		tools = append(tools, t)
	}
	deny := map[string]bool{}
	for i := 0; i < len(tools); i += 10 {
		deny[tools[i].Name] = true
	}
	return tools, &Options{
		RemoteNonDeferred: []string{"WebFetch", "NoSuchTool"},
		LocalNonDeferred:  []string{"TaskCreate", "TaskUpdate"},
		Denied:            func(name string) bool { return deny[name] },
	}
}

// Pool building and declaration assembly for 1,000 tools (target ≤ 1 ms).
func BenchmarkAssemble1000(b *testing.B) {
	tools, opts := benchRegistry()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Assemble(tools, execDecl, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// The same registry with Exec off, where every permitted tool is declared.
func BenchmarkAssemble1000ExecOff(b *testing.B) {
	tools, opts := benchRegistry()
	off := *opts
	off.DisableExec = true
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Assemble(tools, execDecl, &off); err != nil {
			b.Fatal(err)
		}
	}
}
