package execlua_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/execlua/execlua"
)

// A host keeps one Session per conversation. Each request gets tools[] and,
// when the pool changed, a message to append; each Exec call is a Run.
func Example() {
	// The host's one way of performing a tool call; permission checks and
	// hooks belong in here.
	funnel := execlua.FunnelFunc(func(ctx context.Context, c execlua.Call) (execlua.Output, error) {
		return execlua.Output{Structured: json.RawMessage(`{"number":7}`)}, nil
	})
	read := execlua.NewBuiltinTool("Read", "Reads a file.", nil)
	webFetch := execlua.NewBuiltinTool("WebFetch", "Fetches a URL.", nil)
	webFetch.ShouldDefer = true
	// An MCP tool as the server's tools/list returned it.
	issue, err := execlua.NewMCPTool("github", json.RawMessage(`{"name":"create_issue","description":"Creates an issue.","inputSchema":{"type":"object"}}`))
	if err != nil {
		fmt.Println(err)
		return
	}

	s, err := execlua.New(funnel, &execlua.Options{Tools: []execlua.Tool{read, webFetch}})
	if err != nil {
		fmt.Println(err)
		return
	}
	var history []execlua.Message
	request := func() {
		r := s.Request(history)
		var declared []string
		for _, d := range r.Tools {
			declared = append(declared, d.Name)
		}
		fmt.Println("tools[]:", strings.Join(declared, ", "))
		if r.Announcement != nil {
			history = append(history, execlua.Message{IsMeta: true, Text: r.Announcement.Text})
			fmt.Println(r.Announcement.Text)
		}
	}

	request()
	_ = s.SetTools([]execlua.Tool{read, webFetch, issue}) // a server connected
	request()

	res := s.Run(context.Background(), json.RawMessage(`{
		"code": "local i = tools.mcp__github__create_issue{ title = 'x' }\nprint('created')\nreturn i.number",
		"description": "Open an issue"}`), nil)
	fmt.Println(execlua.CollapsedLine(json.RawMessage(`{"code":"...","description":"Open an issue"}`)))
	fmt.Println(res.Text)
	fmt.Println(res.Summary)
	// Output:
	// tools[]: Exec, Read
	// Catalogued tools your scripts can call, as tools.<name>(args) or tools["<name>"](args); this list replaces any earlier one:
	// WebFetch
	// Names only: look up a tool's parameters with tools.ToolSearch{ query = "<name>" } in the same script, then call it.
	// <!-- execlua-announce kind=full hash=cinhkgegppka -->
	// tools[]: Exec, Read
	// Catalogued tools your scripts can call, as tools.<name>(args) or tools["<name>"](args); this list replaces any earlier one:
	// WebFetch
	// mcp__github__create_issue
	// Names only: look up a tool's parameters with tools.ToolSearch{ query = "<name>" } in the same script, then call it.
	// <!-- execlua-announce kind=full hash=nangjlkmofhc -->
	// Exec(Open an issue)
	// Printed output:
	// created
	//
	// Return value:
	// 7
	// 1 tool call
	// mcp__github__create_issue
}

// An MCP tool from the entry the server's tools/list returned.
func ExampleNewMCPTool() {
	listed := json.RawMessage(`{
		"name": "get_issue",
		"description": "Gets an issue.",
		"inputSchema": {"type": "object", "properties": {"number": {"type": "integer"}}},
		"annotations": {"readOnlyHint": true},
		"_meta": {"anthropic/searchHint": "look up a bug report"}
	}`)
	tool, err := execlua.NewMCPTool("github", listed)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tool.Name, tool.Kind, tool.Server, tool.ServerTool)
	fmt.Println("read-only:", tool.Annotations.ReadOnly(), "hint:", tool.SearchHint)

	_, err = execlua.NewMCPTool("my server", listed)
	fmt.Println(errors.Is(err, execlua.ErrInvalidName), err)
	// Output:
	// mcp__github__get_issue mcp github get_issue
	// read-only: true hint: look up a bug report
	// true execlua: MCP server name "my server": a name must be 1 to 64 characters of A-Z, a-z, 0-9, _, . and -
}

// One run with a tighter budget than the session's, and the parts of its
// result a host keeps.
func ExampleSession_Run() {
	funnel := execlua.FunnelFunc(func(ctx context.Context, c execlua.Call) (execlua.Output, error) {
		return execlua.Output{Text: []string{"sunny"}}, nil
	})
	weather, _ := execlua.NewMCPTool("weather", json.RawMessage(`{"name":"current","inputSchema":{"type":"object"}}`))
	s, err := execlua.New(funnel, &execlua.Options{Tools: []execlua.Tool{weather}})
	if err != nil {
		fmt.Println(err)
		return
	}
	res := s.Run(context.Background(),
		json.RawMessage(`{"code":"local w = tools.mcp__weather__current{ city = 'Oslo' }\nprint('Oslo', w)\nreturn { oslo = w }"}`),
		&execlua.RunOptions{Budget: 2 * time.Second, MaxCalls: 5})
	fmt.Println(res.IsError, res.Calls)
	fmt.Printf("%q\n", res.Printed)
	fmt.Println(res.HasValue, string(res.Value))
	// Output:
	// false [mcp__weather__current]
	// ["Oslo\tsunny"]
	// true {"oslo":"sunny"}
}
