// Command demo walks through one simulated agent session with execlua: a
// host with a few builtins and two in-process MCP servers, the tools[]
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
)

func main() { os.Exit(run(os.Stdout)) }

// listed is what two fake MCP servers answer to tools/list.
var listed = map[string][]string{
	"github": {
		`{"name":"list_issues","description":"List open issues of a repository.","inputSchema":{"type":"object","properties":{"repo":{"type":"string","description":"owner/name"},"labels":{"type":"array","items":{"type":"string"}}},"required":["repo"]},"annotations":{"readOnlyHint":true}}`,
		`{"name":"create_issue","description":"Open a new issue.","inputSchema":{"type":"object","properties":{"repo":{"type":"string"},"title":{"type":"string"},"body":{"type":"string"}},"required":["repo","title"]},"_meta":{"anthropic/searchHint":"file a bug, report a problem"}}`,
	},
	"weather": {
		`{"name":"current","description":"Current weather for a city.","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}`,
	},
}

// serverTools maps one server's tools/list entries to execlua tools.
func serverTools(server string) ([]execlua.Tool, error) {
	var tools []execlua.Tool
	for _, entry := range listed[server] {
		t, err := execlua.NewMCPTool(server, json.RawMessage(entry))
		if err != nil {
			return nil, err
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// builtins are the host's own tools: the core loop stays flat, the rest
// asks to be deferred.
func builtins() []execlua.Tool {
	read := execlua.NewBuiltinTool("Read", "Reads a file from the local filesystem.",
		json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string"}},"required":["file_path"]}`))
	bash := execlua.NewBuiltinTool("Bash", "Executes a bash command.",
		json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`))
	webFetch := execlua.NewBuiltinTool("WebFetch", "Fetches content from a URL.",
		json.RawMessage(`{"type":"object","properties":{"url":{"type":"string","format":"uri"},"prompt":{"type":"string"}},"required":["url","prompt"]}`))
	webFetch.ShouldDefer = true
	return []execlua.Tool{read, bash, webFetch}
}

// funnel stands in for the host's execution path (permission check, hooks,
// the MCP client): here every tool answers from memory.
func funnel(_ context.Context, call execlua.Call) (execlua.Output, error) {
	var args map[string]any
	if err := json.Unmarshal(call.Args, &args); err != nil {
		return execlua.Output{}, err
	}
	switch call.Name {
	case "mcp__github__list_issues":
		return execlua.Output{Structured: json.RawMessage(`{"issues":[{"number":12,"title":"Flaky test on CI"},{"number":15,"title":"Docs: typo"}]}`)}, nil
	case "mcp__github__create_issue":
		return execlua.Output{Structured: json.RawMessage(`{"number":16,"url":"https://github.example/o/r/issues/16"}`)}, nil
	case "mcp__weather__current":
		if args["city"] == "Atlantis" {
			return execlua.Output{}, fmt.Errorf("unknown city %q", args["city"])
		}
		return execlua.Output{Text: []string{fmt.Sprintf("%v: 21°C, clear", args["city"])}}, nil
	}
	return execlua.Output{}, fmt.Errorf("%s is not implemented in the demo", call.Name)
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
	github, err := serverTools("github")
	if err != nil {
		fmt.Fprintln(w, "demo:", err)
		return 1
	}
	weather, err := serverTools("weather")
	if err != nil {
		fmt.Fprintln(w, "demo:", err)
		return 1
	}
	s, err := execlua.New(execlua.FunnelFunc(funnel), &execlua.Options{
		Tools:  append(append(builtins(), github...), weather...),
		Limits: execlua.Limits{Budget: time.Second},
	})
	if err != nil {
		fmt.Fprintln(w, "demo:", err)
		return 1
	}
	var history []execlua.Message
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
			history = append(history, execlua.Message{IsMeta: true, Text: r.Announcement.Text})
			fmt.Fprintf(w, "\nappended isMeta message (%s):\n%s\n", r.Announcement.Kind, r.Announcement.Text)
		} else {
			fmt.Fprintln(w, "\nnothing appended: the pool is unchanged")
		}
	}
	exec := func(title, code string, opts *execlua.RunOptions) {
		input, _ := json.Marshal(map[string]string{"code": code, "description": title})
		section(w, "Exec: "+title)
		fmt.Fprintln(w, strings.TrimSpace(code))
		res := s.Run(context.Background(), input, opts)
		fmt.Fprintf(w, "\n-- result (is_error=%v) --\n%s\n-- summary --\n%s\n", res.IsError, res.Text, res.Summary)
		if res.HasValue {
			fmt.Fprintf(w, "-- for the host: %d printed lines, value %s --\n", len(res.Printed), res.Value)
		}
	}

	section(w, "Exec's description (constant, whatever the pool holds)")
	fmt.Fprintln(w, execlua.Description())
	request("First request: builtins and two MCP servers")
	request("Next request, nothing changed")
	exec("triage", script1, nil)

	if err := s.SetTools(append(builtins(), github...)); err != nil {
		fmt.Fprintln(w, "demo:", err)
		return 1
	}
	request("The weather server disconnected: tools[] is byte-identical, the list is re-announced")
	exec("call a disconnected tool", script2, nil)
	// One run with a tighter budget than the session's.
	exec("a runaway loop", script3, &execlua.RunOptions{Budget: 200 * time.Millisecond})
	return 0
}

func section(w io.Writer, title string) {
	fmt.Fprintf(w, "\n=== %s ===\n", title)
}
