package render_test

import (
	"encoding/json"
	"fmt"

	"github.com/execlua/execlua/render"
)

func ExampleSignature() {
	input := json.RawMessage(`{
		"type": "object",
		"properties": {
			"id": {"type": "integer", "description": "The record to fetch"},
			"mode": {"enum": ["fast", "slow"], "default": "fast"}
		},
		"required": ["id"]
	}`)
	output := json.RawMessage(`{"type": "object", "properties": {"value": {"type": "string"}}, "required": ["value"]}`)
	sig, err := render.Signature("mcp__srv__fetch", input, output)
	if err != nil {
		panic(err)
	}
	fmt.Print(sig)
	// Output:
	// ---@class mcp__srv__fetch.Args
	// ---@field id integer The record to fetch
	// ---@field mode? "fast"|"slow" (default: "fast")
	//
	// ---@param args mcp__srv__fetch.Args
	// ---@return { value: string }
	// function tools.mcp__srv__fetch(args) end
}

func ExampleType() {
	t, err := render.Type(json.RawMessage(`{
		"type": "object",
		"properties": {"query": {"type": "string"}, "max_results": {"type": "number"}},
		"required": ["query"]
	}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(t)
	// Output:
	// { query: string, max_results?: number }
}

func ExampleCallForm() {
	fmt.Println(render.CallForm("mcp__srv__fetch"))
	fmt.Println(render.CallForm("mcp__srv__get-item"))
	// Output:
	// tools.mcp__srv__fetch
	// tools["mcp__srv__get-item"]
}
