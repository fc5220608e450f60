package search_test

import (
	"encoding/json"
	"fmt"

	"github.com/execlua/execlua/pool"
	"github.com/execlua/execlua/search"
)

func ExampleSearch() {
	tools := []pool.Tool{
		{
			Name: "mcp__github__list_issue_comments", Description: "Get comments for a specific issue.",
			Kind: pool.MCP, Server: "github", ServerTool: "list_issue_comments",
		},
		{
			Name: "mcp__github__list_issues", Description: "List issues in a GitHub repository.",
			Kind: pool.MCP, Server: "github", ServerTool: "list_issues",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"owner":{"type":"string","description":"Repository owner"},"repo":{"type":"string","description":"Repository name"},"state":{"enum":["OPEN","CLOSED"]}},"required":["owner","repo"]}`),
		},
		{Name: "TaskCreate", Description: "Create a task in the task list.", SearchHint: "add a todo item"},
	}
	res, err := search.Search(tools, json.RawMessage(`{"query":"list issues","max_results":1}`))
	if err != nil {
		panic(err)
	}
	fmt.Println("total:", res.Total)
	fmt.Println(res.Matches[0].Name)
	fmt.Print(res.Matches[0].Signature)

	res, _ = search.Search(tools, json.RawMessage(`{"query":"add a todo"}`))
	fmt.Println(res.Matches[0].Name)
	// Output:
	// total: 3
	// mcp__github__list_issues
	// ---@class mcp__github__list_issues.Args
	// ---@field owner string Repository owner
	// ---@field repo string Repository name
	// ---@field state? "OPEN"|"CLOSED"
	//
	// ---@param args mcp__github__list_issues.Args
	// ---@return any
	// function tools.mcp__github__list_issues(args) end
	// TaskCreate
}

func ExampleSearch_wrongArguments() {
	_, err := search.Search(nil, json.RawMessage(`{"q":"issues"}`))
	fmt.Println(err)
	// Output:
	// ToolSearch: unknown field "q"; missing field "query"; tools.ToolSearch(args) expects args: { query: string, max_results?: number }
}

// ToolSearch's own signature, for Exec's description (SRCH-15).
func ExampleSignature() {
	fmt.Print(search.Signature())
	// Output:
	// ---@class ToolSearch.Args
	// ---@field query string Words to look for in tool names, search hints and descriptions (case-insensitive), or "select:NameA,NameB" for exactly the tools named. A tool's exact name puts it first. An empty string lists the pool, capped like keywords (total counts every tool).
	// ---@field max_results? number How many matches a keyword query returns; select: returns every tool it names. (default: 5, minimum: 1, maximum: 50)
	//
	// ---@class ToolSearch.Result
	// ---@field matches ToolSearch.Result.matches[] The best matches first.
	// ---@field total integer How many tools matched before the list was cut to max_results.
	//
	// ---@class ToolSearch.Result.matches
	// ---@field name string The tool's name, as the script calls it.
	// ---@field description string
	// ---@field signature string LuaCATS annotations for the tool's arguments and result, then its call form.
	//
	// ---@param args ToolSearch.Args
	// ---@return ToolSearch.Result
	// function tools.ToolSearch(args) end
}

// A host keeps one Index and derives the next when a server connects or
// leaves: only that server's tools are indexed again.
func ExampleIndex_WithServer() {
	x := search.NewIndex([]pool.Tool{
		{Name: "Read", Description: "Read a file from disk."},
	})
	x = x.WithServer("slack", []pool.Tool{
		{Name: "mcp__slack__post_message", Description: "Post a message to a channel.", Kind: pool.MCP, Server: "slack", ServerTool: "post_message"},
	})
	res, _ := x.Search(json.RawMessage(`{"query":"send a message to #general"}`))
	fmt.Println(x.Len(), res.Matches[0].Name)
	res, _ = x.WithoutServer("slack").Search(json.RawMessage(`{"query":"send a message to #general"}`))
	fmt.Println(res.Total)
	// Output:
	// 2 mcp__slack__post_message
	// 0
}
