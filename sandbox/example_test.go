package sandbox_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/execlua/execlua/sandbox"
)

func ExampleRun() {
	// The host's funnel: here a fake weather tool.
	funnel := sandbox.FunnelFunc(func(ctx context.Context, call sandbox.Call) (sandbox.Output, error) {
		var args struct{ City string }
		if err := json.Unmarshal(call.Args, &args); err != nil {
			return sandbox.Output{}, err
		}
		if args.City == "Atlantis" {
			return sandbox.Output{}, fmt.Errorf("no such city: %s", args.City)
		}
		return sandbox.Output{Structured: json.RawMessage(`{"celsius":21}`)}, nil
	})
	out := sandbox.Run(context.Background(), sandbox.Request{
		Code: `
			local warm = {}
			for _, city in ipairs({ "Lisbon", "Atlantis" }) do
				local ok, w = pcall(tools.mcp__weather__now, { city = city })
				if ok then warm[city] = w.celsius > 20 else print(w) end
			end
			return warm`,
		Tools:  sandbox.NewToolset([]sandbox.Tool{{Name: "mcp__weather__now"}}),
		Funnel: funnel,
	}, nil)
	fmt.Println(out.Result)
	fmt.Println(out.Log)
	fmt.Println(out.Calls)
	// Output:
	// {"Lisbon":true}
	// no such city: Atlantis
	// [mcp__weather__now mcp__weather__now]
}
