package host_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/settings"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// A host with one in-process MCP server and a rule that allows its tools.
// Real hosts name settings files (Options.Settings) and an .mcp.json
// (Options.MCPConfig) instead.
func ExampleNew() {
	weather := server.NewMCPServer("weather", "1.0.0")
	weather.AddTool(mcp.NewTool("current", mcp.WithDescription("Current weather for a city."), mcp.WithString("city")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultStructuredOnly(map[string]any{"city": req.GetString("city", ""), "celsius": 21}), nil
		})

	h, err := host.New(context.Background(), &host.Options{
		InProcess: map[string]*server.MCPServer{"weather": weather},
		Remote:    &settings.File{Permissions: settings.Permissions{Allow: []string{"mcp__weather"}}},
		NoWatch:   true,
	})
	if err != nil {
		panic(err)
	}
	defer h.Close()
	s, err := h.NewSession(nil)
	if err != nil {
		panic(err)
	}
	for _, d := range s.Request(nil).Tools {
		fmt.Println("declared:", d.Name)
	}
	input, _ := json.Marshal(map[string]string{"code": `local w = tools.mcp__weather__current{ city = "Lisbon" }; return w.city .. ": " .. w.celsius`})
	res := h.RunExec(context.Background(), s, input, nil)
	fmt.Println(res.Text)
	fmt.Println(res.Summary)
	// Output:
	// declared: Exec
	// Lisbon: 21
	// 1 tool call
	// mcp__weather__current
}
