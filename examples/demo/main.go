// Command demo walks through one simulated agent session with execlua: a
// host with the default builtins and two in-process MCP servers, the tools[]
// it declares, the announcement it appends, scripts the model might write,
// a server disconnecting, and a runaway script stopped by its budget.
//
//	go run ./examples/demo
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/announce"
	"github.com/execlua/execlua/pool"
	"github.com/execlua/execlua/sandbox"
)

func main() { os.Exit(run(os.Stdout)) }

// mcpTool describes a tool of a fake MCP server.
func mcpTool(server, name, description, input string) pool.Tool {
	return pool.Tool{
		Name:        "mcp__" + server + "__" + name,
		Description: description,
		InputSchema: json.RawMessage(input),
		Kind:        pool.MCP,
		Server:      server,
		ServerTool:  name,
	}
}

var (
	github = []pool.Tool{
		mcpTool("github", "list_issues", "List open issues of a repository.",
			`{"type":"object","properties":{"repo":{"type":"string","description":"owner/name"},"labels":{"type":"array","items":{"type":"string"}}},"required":["repo"]}`),
		mcpTool("github", "create_issue", "Open a new issue.",
			`{"type":"object","properties":{"repo":{"type":"string"},"title":{"type":"string"},"body":{"type":"string"}},"required":["repo","title"]}`),
	}
	weather = []pool.Tool{
		mcpTool("weather", "current", "Current weather for a city.",
			`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
	}
)

// funnel stands in for the host's execution path (permission check, hooks,
// the MCP client): here every tool answers from memory.
func funnel(_ context.Context, call sandbox.Call) (sandbox.Output, error) {
	var args map[string]any
	if err := json.Unmarshal(call.Args, &args); err != nil {
		return sandbox.Output{}, err
	}
	switch call.Name {
	case "mcp__github__list_issues":
		return sandbox.Output{Structured: json.RawMessage(`{"issues":[{"number":12,"title":"Flaky test on CI"},{"number":15,"title":"Docs: typo"}]}`)}, nil
	case "mcp__github__create_issue":
		return sandbox.Output{Structured: json.RawMessage(`{"number":16,"url":"https://github.example/o/r/issues/16"}`)}, nil
	case "mcp__weather__current":
		if args["city"] == "Atlantis" {
			return sandbox.Output{}, fmt.Errorf("unknown city %q", args["city"])
		}
		return sandbox.Output{Text: []string{fmt.Sprintf("%v: 21°C, clear", args["city"])}}, nil
	}
	return sandbox.Output{}, fmt.Errorf("%s is not implemented in the demo", call.Name)
}

const script1 = `
-- Find the tool, then call several at once.
local found = tools.ToolSearch{ query = "open issue" }
print("found: " .. found.matches[1].name)
local issues, lisbon = tools.parallel(
  function() return tools.mcp__github__list_issues{ repo = "o/r" } end,
  function() return tools.mcp__weather__current{ city = "Lisbon" } end)
local ok, err = pcall(tools.mcp__weather__current, { city = "Atlantis" })
print(lisbon, ok, err)
local created = tools.mcp__github__create_issue{ repo = "o/r", title = "Weekly triage: " .. #issues.issues .. " open" }
return { created = created.number, open = #issues.issues }`

const script2 = `return tools.mcp__weather__current{ city = "Porto" }`

const script3 = `local n = 0 while true do n = n + 1 end`

func run(w io.Writer) int {
	builtins := pool.DefaultBuiltins()
	s, err := execlua.New(sandbox.FunnelFunc(funnel), &execlua.Options{
		Tools:  append(append(append([]pool.Tool{}, builtins...), github...), weather...),
		Limits: sandbox.Options{Budget: 200 * time.Millisecond},
	})
	if err != nil {
		fmt.Fprintln(w, "demo:", err)
		return 1
	}
	var history []announce.Message
	request := func(title string) {
		r := s.Request(history)
		raw, _ := json.Marshal(r.Tools)
		var names []string
		for _, d := range r.Tools {
			names = append(names, d.Name)
		}
		section(w, title)
		fmt.Fprintf(w, "tools[] (%d bytes): %s\n", len(raw), strings.Join(names, ", "))
		if r.Announcement != nil {
			history = append(history, announce.Message{IsMeta: true, Text: r.Announcement.Text})
			fmt.Fprintf(w, "\nappended isMeta message (%s):\n%s\n", r.Announcement.Kind, r.Announcement.Text)
		} else {
			fmt.Fprintln(w, "\nnothing appended: the pool is unchanged")
		}
	}
	exec := func(title, code string) {
		input, _ := json.Marshal(map[string]string{"code": code, "description": title})
		section(w, "Exec: "+title)
		fmt.Fprintln(w, strings.TrimSpace(code))
		res := s.Run(context.Background(), input, nil)
		fmt.Fprintf(w, "\n-- result (is_error=%v) --\n%s\n-- summary --\n%s\n", res.IsError, res.Text, res.Summary)
	}

	section(w, "Exec's description (constant, whatever the pool holds)")
	fmt.Fprintln(w, execlua.Description())
	request("First request: builtins and two MCP servers")
	request("Next request, nothing changed")
	exec("triage", script1)

	if err := s.SetTools(append(append([]pool.Tool{}, builtins...), github...)); err != nil {
		fmt.Fprintln(w, "demo:", err)
		return 1
	}
	request("The weather server disconnected: tools[] is byte-identical, the list is re-announced")
	exec("call a disconnected tool", script2)
	exec("a runaway loop", script3)
	return 0
}

func section(w io.Writer, title string) {
	fmt.Fprintf(w, "\n=== %s ===\n", title)
}
