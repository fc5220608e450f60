package serve_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/demo"
	"github.com/execlua/execlua/host/serve"
)

// fleet starts a host with the demo servers and a server "pinned" whose one
// tool is always loaded (so it is declared flat), and serves it over
// loopback HTTP. changed(has) waits until the host's registry has, or has
// not, a tool.
func fleet(t *testing.T) (url string, servers map[string]*server.MCPServer, changed func(tool string, has bool)) {
	t.Helper()
	servers = demo.Servers()
	pinned := server.NewMCPServer("pinned", "1", server.WithToolCapabilities(true))
	hello := mcp.NewTool("hello", mcp.WithDescription("Say hello."), mcp.WithString("name"))
	hello.Meta = mcp.NewMetaFromMap(map[string]any{"anthropic/alwaysLoad": true})
	pinned.AddTool(hello, func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("hello " + req.GetString("name", "you")), nil
	})
	servers["pinned"] = pinned
	// weather gets list_changed notifications, so that a test can change
	// the pool by removing its tool.
	weather := server.NewMCPServer("weather", "1", server.WithToolCapabilities(true))
	weather.AddTool(mcp.NewTool("forecast", mcp.WithReadOnlyHintAnnotation(true)), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("sunny"), nil
	})
	servers["weather"] = weather

	events := make(chan struct{}, 1)
	var srv atomic.Pointer[serve.Server]
	h, err := host.New(t.Context(), &host.Options{
		InProcess: servers,
		Prompter: host.PrompterFunc(func(context.Context, host.PermissionQuestion) (host.PermissionAnswer, error) {
			return host.AllowOnce, nil
		}),
		OnChange: func() {
			if s := srv.Load(); s != nil {
				s.Refresh()
			}
			select {
			case events <- struct{}{}:
			default:
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	s, err := serve.New(h, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv.Store(s)
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	changed = func(tool string, has bool) {
		for slices.ContainsFunc(h.Tools(), func(t execlua.Tool) bool { return t.Name == tool }) != has {
			<-events
		}
	}
	return ts.URL + "/mcp", servers, changed
}

// connect starts a streamable HTTP client of a protocol version with
// sessions and returns it with the server's instructions.
func connect(t *testing.T, url string) (*client.Client, string) {
	return connectVersion(t, url, mcp.ProtocolVersion20250618)
}

func connectVersion(t *testing.T, url, version string) (*client.Client, string) {
	t.Helper()
	var opts []transport.StreamableHTTPCOption
	if version != mcp.LATEST_PROTOCOL_VERSION {
		// The listening stream carries list_changed to a client with a
		// session; a sessionless client has none to keep.
		opts = append(opts, transport.WithContinuousListening())
	}
	c, err := client.NewStreamableHttpClient(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = version
	req.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
	res, err := c.Initialize(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	return c, res.Instructions
}

// execCall calls Exec with code; with a progress token when progress is set.
func execCall(t *testing.T, c *client.Client, code string, progress bool) *mcp.CallToolResult {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = "Exec"
	req.Params.Arguments = map[string]any{"code": code}
	if progress {
		req.Params.Meta = &mcp.Meta{ProgressToken: "p1"}
	}
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func texts(res *mcp.CallToolResult) []string {
	var out []string
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return out
}

func TestToolsAndInstructions(t *testing.T) {
	url, _, _ := fleet(t)
	c, instructions := connect(t, url)
	if !strings.Contains(instructions, "mcp__demo__echo") || strings.Contains(instructions, "mcp__pinned__hello") {
		t.Errorf("instructions = %q, want the pool's names only", instructions)
	}
	list, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "Exec,mcp__pinned__hello" {
		t.Errorf("tools = %v, want Exec and the flat tool", names)
	}
	// A flat tool is called directly, through the host's funnel.
	req := mcp.CallToolRequest{}
	req.Params.Name = "mcp__pinned__hello"
	req.Params.Arguments = map[string]any{"name": "Ada"}
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(res); len(got) != 1 || got[0] != "hello Ada" {
		t.Errorf("flat call = %v", got)
	}
}

// SUM-4 over MCP: a client that sends a progress token gets the live
// summary as progress notifications while the script runs.
func TestExecSendsProgress(t *testing.T) {
	url, _, _ := fleet(t)
	c, _ := connect(t, url)
	var mu sync.Mutex
	var messages []string
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			mu.Lock()
			messages = append(messages, n.Params.AdditionalFields["message"].(string))
			mu.Unlock()
		}
	})
	res := execCall(t, c, `tools.mcp__demo__echo{ a = 1 } return tools.mcp__demo__sleep{ ms = 1 }.slept`, true)
	if got := texts(res); res.IsError || len(got) != 1 || got[0] != "1" {
		t.Fatalf("Exec = %v (error %v)", got, res.IsError)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"1 tool call\nmcp__demo__echo", "2 tool calls\nmcp__demo__echo\nmcp__demo__sleep"}
	if strings.Join(messages, "|") != strings.Join(want, "|") {
		t.Errorf("progress messages = %q, want %q", messages, want)
	}
	// Without a token, no notification.
	messages = nil
	mu.Unlock()
	execCall(t, c, `return tools.mcp__demo__echo{}`, false)
	mu.Lock()
	if len(messages) != 0 {
		t.Errorf("progress without a token: %q", messages)
	}
}

// Each MCP session is its own conversation: a pool change is announced
// once to each, ahead of its next Exec result.
func TestPoolChangeIsAnnouncedOncePerSession(t *testing.T) {
	url, servers, changed := fleet(t)
	a, _ := connect(t, url)
	b, _ := connect(t, url)
	if got := texts(execCall(t, a, `return "a"`, false)); len(got) != 1 {
		t.Fatalf("first Exec of a carries more than its result: %q", got)
	}
	servers["weather"].DeleteTools("forecast")
	changed("mcp__weather__forecast", false)
	for i, c := range []*client.Client{a, b} {
		got := texts(execCall(t, c, `return "x"`, false))
		if len(got) != 2 || !strings.Contains(got[0], "mcp__demo__echo") || strings.Contains(got[0], "mcp__weather__forecast") || got[1] != "x" {
			t.Errorf("client %d: Exec after the change = %q, want the announcement, then the result", i, got)
		}
		if again := texts(execCall(t, c, `return "y"`, false)); len(again) != 1 || again[0] != "y" {
			t.Errorf("second Exec after the change = %q, want the result alone", again)
		}
	}
}

// A sessionless client (protocol 2026-07-28) hears of the pool ahead of
// every Exec result while the pool differs from the instructions.
func TestSessionlessClientsHearOfChangesEachTime(t *testing.T) {
	url, servers, changed := fleet(t)
	c, _ := connectVersion(t, url, mcp.LATEST_PROTOCOL_VERSION)
	if got := texts(execCall(t, c, `return "a"`, false)); len(got) != 1 {
		t.Fatalf("Exec before any change = %q", got)
	}
	servers["weather"].DeleteTools("forecast")
	changed("mcp__weather__forecast", false)
	for range 2 {
		if got := texts(execCall(t, c, `return "b"`, false)); len(got) != 2 || got[1] != "b" {
			t.Errorf("Exec after the change = %q, want the announcement, then the result", got)
		}
	}
}

// Two clients at once: one script waits until the other's call has
// changed the shared note store, which only works if both run together.
func TestTwoClientsAtOnce(t *testing.T) {
	url, _, _ := fleet(t)
	a, _ := connect(t, url)
	b, _ := connect(t, url)
	started := make(chan struct{})
	var once sync.Once
	a.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			once.Do(func() { close(started) })
		}
	})
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		done <- execCall(t, a, `
for i = 1, 20 do
  if #tools.mcp__notes__list_notes{ tag = "from-b" }.notes > 0 then return "saw b" end
  tools.mcp__demo__sleep{ ms = 50 }
end
error("b's note never appeared")`, true)
	}()
	<-started
	res := execCall(t, b, `return tools.mcp__notes__add_note{ title = "hi", tags = { "from-b" } }.id`, false)
	if got := texts(res); res.IsError || got[0] != "4" {
		t.Fatalf("b's Exec = %q", got)
	}
	if got := texts(<-done); len(got) != 1 || got[0] != "saw b" {
		t.Errorf("a's Exec = %q", got)
	}
}

func TestExecInputIsChecked(t *testing.T) {
	url, _, _ := fleet(t)
	c, _ := connect(t, url)
	req := mcp.CallToolRequest{}
	req.Params.Name = "Exec"
	req.Params.Arguments = map[string]any{"script": "return 1"}
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res.Content)
	if !res.IsError || !strings.Contains(string(raw), "code") {
		t.Errorf("Exec without code = %s", raw)
	}
}

// A flat tool that appears changes tools[]: connected clients are told the
// list changed, and the new list has it.
func TestFlatToolChangeNotifiesClients(t *testing.T) {
	url, servers, changed := fleet(t)
	c, _ := connect(t, url)
	listChanged := make(chan struct{}, 1)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationToolsListChanged) {
			select {
			case listChanged <- struct{}{}:
			default:
			}
		}
	})
	bye := mcp.NewTool("bye", mcp.WithDescription("Say goodbye."))
	bye.Meta = mcp.NewMetaFromMap(map[string]any{"anthropic/alwaysLoad": true})
	servers["pinned"].AddTool(bye, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("bye"), nil
	})
	changed("mcp__pinned__bye", true)
	<-listChanged
	list, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "Exec,mcp__pinned__bye,mcp__pinned__hello" {
		t.Errorf("tools = %v", names)
	}
}
