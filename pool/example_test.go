package pool_test

import (
	"encoding/json"
	"fmt"

	"github.com/execlua/execlua/host/preset"
	"github.com/execlua/execlua/pool"
)

func ExampleAssemble() {
	exec := pool.Declaration{
		Name:        pool.ExecName,
		Description: "Runs a Lua script against the catalogued tools.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"code":{"type":"string"}},"required":["code"]}`),
	}
	registered := append(preset.Builtins(),
		pool.Tool{Name: "mcp__github__list_issues", Kind: pool.MCP, Server: "github", ServerTool: "list_issues"},
		pool.Tool{Name: "mcp__github__delete_repo", Kind: pool.MCP, Server: "github", ServerTool: "delete_repo"},
	)
	a, err := pool.Assemble(registered, exec, &pool.Options{
		Exempt:           preset.Exempt(),
		LocalNonDeferred: []string{"WebFetch"},
		Denied:           func(name string) bool { return name == "mcp__github__delete_repo" },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("Exec:", a.Exec)
	for _, d := range a.Tools {
		fmt.Println("declared:", d.Name)
	}
	fmt.Println("pool size:", len(a.Pool()))
	fmt.Println("TaskCreate available:", a.Available("TaskCreate"))
	fmt.Println("delete_repo available:", a.Available("mcp__github__delete_repo"))
	// Output:
	// Exec: declared
	// declared: Exec
	// declared: Read
	// declared: Write
	// declared: Edit
	// declared: Glob
	// declared: Grep
	// declared: Bash
	// declared: WebFetch
	// pool size: 14
	// TaskCreate available: true
	// delete_repo available: false
}

func ExampleDecide() {
	opts := &pool.Options{Exempt: []string{"Bash"}, RemoteNonDeferred: []string{"WebSearch"}}
	for _, t := range []pool.Tool{
		{Name: "Bash", ShouldDefer: true},
		{Name: "WebSearch", ShouldDefer: true},
		{Name: "WebFetch", ShouldDefer: true},
		{Name: "mcp__db__query", Kind: pool.MCP},
		{Name: "mcp__db__status", Kind: pool.MCP, AlwaysLoad: true},
	} {
		d := pool.Decide(t, opts)
		fmt.Printf("%-16s deferred=%-5v (%v)\n", t.Name, d.Deferred, d.Reason)
	}
	// Output:
	// Bash             deferred=false (exempt)
	// WebSearch        deferred=false (remote non-deferred list)
	// WebFetch         deferred=true  (own intent)
	// mcp__db__query   deferred=true  (mcp)
	// mcp__db__status  deferred=false (alwaysLoad)
}
