package demo_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/execlua/execlua/host/demo"
)

// connect starts an in-process client of srv, closed with the test.
func connect(t *testing.T, srv *server.MCPServer) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClient(srv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx := t.Context()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return c
}

func call(t *testing.T, c *client.Client, name string, args any) *mcp.CallToolResult {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func structured(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestServersAreNamedAndListTheirTools(t *testing.T) {
	want := map[string][]string{
		"demo":    {"chart", "echo", "fail", "sleep"},
		"notes":   {"add_note", "delete_note", "get_note", "list_notes"},
		"weather": {"forecast"},
	}
	got := map[string][]string{}
	for name, srv := range demo.Servers() {
		res, err := connect(t, srv).ListTools(t.Context(), mcp.ListToolsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range res.Tools {
			got[name] = append(got[name], tool.Name)
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
}

func TestAnnotations(t *testing.T) {
	res, err := connect(t, demo.NewNotes()).ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]bool{}
	for _, tool := range res.Tools {
		got[tool.Name] = [2]bool{*tool.Annotations.ReadOnlyHint, *tool.Annotations.DestructiveHint}
	}
	want := map[string][2]bool{
		"list_notes":  {true, false},
		"get_note":    {true, false},
		"add_note":    {false, false},
		"delete_note": {false, true},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("readOnly, destructive (-want +got):\n%s", d)
	}
}

func TestEchoReturnsItsArgumentsAsStructuredContent(t *testing.T) {
	c := connect(t, demo.NewDemo())
	res := call(t, c, "echo", map[string]any{"a": 1, "list": []any{"x", true}, "empty": map[string]any{}})
	if got, want := structured(t, res), `{"a":1,"empty":{},"list":["x",true]}`; got != want {
		t.Errorf("echo = %s, want %s", got, want)
	}
}

func TestSleepAnswersSlept(t *testing.T) {
	res := call(t, connect(t, demo.NewDemo()), "sleep", map[string]any{"ms": 5})
	if got := structured(t, res); got != `{"slept":5}` {
		t.Errorf("sleep = %s", got)
	}
	if res := call(t, connect(t, demo.NewDemo()), "sleep", map[string]any{"ms": -1}); !res.IsError {
		t.Error("sleep{ms=-1} did not fail")
	}
}

func TestSleepStopsWhenCancelled(t *testing.T) {
	c := connect(t, demo.NewDemo())
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = "sleep"
	req.Params.Arguments = map[string]any{"ms": 60000}
	if _, err := c.CallTool(ctx, req); err == nil {
		t.Error("a cancelled sleep returned no error")
	}
}

func TestChartIsAPNG(t *testing.T) {
	res := call(t, connect(t, demo.NewDemo()), "chart", map[string]any{"values": []any{10, 50, 90}})
	var img *mcp.ImageContent
	for _, c := range res.Content {
		if ic, ok := c.(mcp.ImageContent); ok {
			img = &ic
		}
	}
	if img == nil || img.MIMEType != "image/png" {
		t.Fatalf("chart content = %#v, want a PNG image", res.Content)
	}
	raw, err := base64.StdEncoding.DecodeString(img.Data)
	if err != nil {
		t.Fatal(err)
	}
	pic, err := png.Decode(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	if b := pic.Bounds(); b.Dx() != 24 || b.Dy() != 100 {
		t.Errorf("chart is %v, want 24x100", b)
	}
}

func TestFailIsAnErrorResult(t *testing.T) {
	res := call(t, connect(t, demo.NewDemo()), "fail", map[string]any{"message": "boom"})
	if !res.IsError || res.Content[0].(mcp.TextContent).Text != "boom" {
		t.Errorf("fail = %#v", res)
	}
}

func TestNotesKeepState(t *testing.T) {
	c := connect(t, demo.NewNotes())
	added := call(t, c, "add_note", map[string]any{"title": "New", "tags": []any{"work"}})
	if got := structured(t, added); got != `{"body":"","id":4,"tags":["work"],"title":"New"}` {
		t.Errorf("add_note = %s", got)
	}
	call(t, c, "delete_note", map[string]any{"id": 1})
	list := structured(t, call(t, c, "list_notes", map[string]any{"tag": "work"}))
	if strings.Contains(list, `"id":1`) || !strings.Contains(list, `"id":3`) || !strings.Contains(list, `"id":4`) {
		t.Errorf("list_notes{tag=work} after add and delete = %s", list)
	}
	if res := call(t, c, "get_note", map[string]any{"id": 1}); !res.IsError {
		t.Error("get_note of a deleted note did not fail")
	}
	// A fresh set of servers starts from the same three notes.
	fresh := structured(t, call(t, connect(t, demo.Servers()["notes"]), "list_notes", nil))
	if strings.Count(fresh, `"id"`) != 3 {
		t.Errorf("fresh list_notes = %s", fresh)
	}
}

func TestForecast(t *testing.T) {
	res := call(t, connect(t, demo.NewWeather()), "forecast", map[string]any{"city": "Oslo", "days": 2})
	want := `{"city":"Oslo","days":[{"high":-2,"low":-8,"sky":"snow"},{"high":0,"low":-5,"sky":"cloudy"}]}`
	if got := structured(t, res); got != want {
		t.Errorf("forecast = %s, want %s", got, want)
	}
	if res := call(t, connect(t, demo.NewWeather()), "forecast", map[string]any{"city": "Paris"}); !res.IsError {
		t.Error("forecast of an unknown city did not fail")
	}
}
