package execlua_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/execlua/execlua"
)

// A host keeps one Session per conversation. Each request gets tools[] and,
// when the pool changed, a message to append; each Exec call is a Run.
func ExampleSession() {
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
