package serve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/demo"
	"github.com/execlua/execlua/host/serve"
	"github.com/execlua/execlua/host/settings"
)

// fleet starts a host with the demo servers and a server "pinned" whose one
// tool is always loaded (so it is declared flat), and serves it over
// loopback HTTP. changed(has) waits until the host's registry has, or has
// not, a tool.
func fleet(t testing.TB, settingsFile ...string) (url string, servers map[string]*server.MCPServer, changed func(tool string, has bool)) {
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
	var paths settings.Paths
	if len(settingsFile) > 0 {
		paths.User = settingsFile[0]
	}
	h, s := startServer(t, &host.Options{
		Settings:  paths,
		InProcess: servers,
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
func connect(t testing.TB, url string, opts ...transport.StreamableHTTPCOption) (*client.Client, string) {
	return connectVersion(t, url, mcp.ProtocolVersion20250618, opts...)
}

func connectVersion(t testing.TB, url, version string, opts ...transport.StreamableHTTPCOption) (*client.Client, string) {
	t.Helper()
	opts = append(opts, transport.WithHTTPLogger(slog.New(slog.DiscardHandler)))
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
func execCall(t testing.TB, c *client.Client, code string, progress bool) *mcp.CallToolResult {
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
	names := toolNames(t, c)
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
	notes := progressNotes(c)
	twoCallsReportProgress(t, c, notes)
	// Without a token, no notification: the next one to arrive is the one
	// of a later call with a token.
	execCall(t, c, `return tools.mcp__demo__echo{}`, false)
	execCall(t, c, `return tools.mcp__demo__echo{ b = 2 }`, true)
	if n := <-notes; n["progressToken"] != "p1" || n["message"] != "1 tool call\nmcp__demo__echo" || n["progress"].(float64) != 1 {
		t.Errorf("notification after a call without a token: %v", n)
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
	names := toolNames(t, c)
	if strings.Join(names, ",") != "Exec,mcp__pinned__bye,mcp__pinned__hello" {
		t.Errorf("tools = %v", names)
	}
}

// HOOK-3 over MCP: the message a blocking PostToolUse hook adds follows the
// result, for a nested call inside Exec and for a flat call alike.
func TestHookMessagesFollowTheResult(t *testing.T) {
	file := filepath.Join(t.TempDir(), "settings.json")
	hook := `{"hooks":{"PostToolUse":[{"matcher":"mcp__demo__echo|mcp__pinned__hello","hooks":[{"type":"command","command":"echo checked >&2; exit 2"}]}]}}`
	if err := os.WriteFile(file, []byte(hook), 0o644); err != nil {
		t.Fatal(err)
	}
	url, _, _ := fleet(t, file)
	c, _ := connect(t, url)
	got := texts(execCall(t, c, `return tools.mcp__demo__echo{ a = 1 }`, false))
	if len(got) != 2 || got[0] != `{"a":1}` || !strings.Contains(got[1], "PostToolUse:mcp__demo__echo hook blocking error") || !strings.Contains(got[1], "checked") {
		t.Errorf("Exec = %q, want the result, then the hook's message", got)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "mcp__pinned__hello"
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(res); len(got) != 2 || got[0] != "hello you" || !strings.Contains(got[1], "PostToolUse:mcp__pinned__hello") {
		t.Errorf("flat call = %q, want the result, then the hook's message", got)
	}
}

// A request carries its HTTP headers in its context; the host's calls of
// in-process servers made while serving it (nested in Exec, and flat) must
// not present them as their own. A client of the stateless protocol sends
// the headers that in-process servers would check.
func TestInProcessCallsWhileServingHTTP(t *testing.T) {
	url, _, _ := fleet(t)
	c, _ := connectVersion(t, url, mcp.LATEST_PROTOCOL_VERSION)
	res := execCall(t, c, `return tools.mcp__demo__echo{ a = 1 }.a`, false)
	if got := texts(res); res.IsError || len(got) != 1 || got[0] != "1" {
		t.Errorf("Exec calling an in-process server = %q (error %v)", got, res.IsError)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "mcp__pinned__hello"
	req.Params.Arguments = map[string]any{"name": "x"}
	flat, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(flat); flat.IsError || len(got) != 1 || got[0] != "hello x" {
		t.Errorf("flat call of an in-process tool = %q (error %v)", got, flat.IsError)
	}
}

// toolNames lists the names of the tools the client is offered.
func toolNames(t *testing.T, c *client.Client) []string {
	t.Helper()
	list, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// SUM-4 over stdio with a client of the newest protocol (2026-07-28, the
// default of mcp-go's client): such a client skips the initialize
// handshake, and its progress notifications must still arrive.
func TestStdioSessionlessClientGetsProgress(t *testing.T) {
	_, s := startServer(t, &host.Options{InProcess: demo.Servers()})
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- s.ServeStdio(ctx, toServer, fromServer) }()
	t.Cleanup(func() {
		cancel()
		fromClient.Close()
		<-served
	})
	c := client.NewClient(transport.NewIO(toClient, fromClient, io.NopCloser(strings.NewReader(""))))
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	notes := progressNotes(c)
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	twoCallsReportProgress(t, c, notes)
}

// twoCallsReportProgress runs a script of two calls through Exec with a
// progress token and checks the two progress messages notes receives. The
// client may handle a notification after the result, and out of order; the
// progress numbers give the order the server sent them in.
func twoCallsReportProgress(t *testing.T, c *client.Client, notes <-chan map[string]any) {
	t.Helper()
	res := execCall(t, c, `tools.mcp__demo__echo{ a = 1 } return tools.mcp__demo__sleep{ ms = 1 }.slept`, true)
	if got := texts(res); res.IsError || len(got) != 1 || got[0] != "1" {
		t.Fatalf("Exec = %v (error %v)", got, res.IsError)
	}
	got := make([]string, 2)
	for range 2 {
		select {
		case n := <-notes:
			got[int(n["progress"].(float64))-1] = n["message"].(string)
		case <-time.After(10 * time.Second):
			t.Fatalf("progress notifications so far: %q", got)
		}
	}
	want := []string{"1 tool call\nmcp__demo__echo", "2 tool calls\nmcp__demo__echo\nmcp__demo__sleep"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("progress messages (-want +got):\n%s", d)
	}
}

// startServer starts a host with opts, which asks nobody (every call it
// would ask about is allowed once) and watches no files, and serves it.
func startServer(t testing.TB, opts *host.Options) (*host.Host, *serve.Server) {
	t.Helper()
	opts.NoWatch = true
	opts.Prompter = host.PrompterFunc(func(context.Context, host.PermissionQuestion) (host.PermissionAnswer, error) {
		return host.AllowOnce, nil
	})
	h, err := host.New(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	s, err := serve.New(h, nil)
	if err != nil {
		t.Fatal(err)
	}
	return h, s
}

// progressNotes collects the fields of the progress notifications c
// receives.
func progressNotes(c *client.Client) <-chan map[string]any {
	notes := make(chan map[string]any, 10)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			notes <- n.Params.AdditionalFields
		}
	})
	return notes
}

// SUM-4 over HTTP, in order: a client with a listening stream open gets
// every progress notification of a run on the run's own response, in the
// order the run made them, all before its result.
func TestProgressInOrderOverHTTP(t *testing.T) {
	url, _, _ := fleet(t)
	c, _ := connect(t, url) // with a listening GET stream
	var mu sync.Mutex
	var got []float64
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			mu.Lock()
			got = append(got, n.Params.AdditionalFields["progress"].(float64))
			mu.Unlock()
		}
	})
	const calls = 40
	for round := range 3 {
		res := execCall(t, c, fmt.Sprintf(`for i = 1, %d do tools.mcp__demo__echo{ i = i } end return "done"`, calls), true)
		if txt := texts(res); res.IsError || txt[len(txt)-1] != "done" {
			t.Fatalf("Exec = %v", txt)
		}
		mu.Lock()
		want := make([]float64, calls)
		for i := range want {
			want[i] = float64(i + 1)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("round %d: progress numbers when the result came (-want +got):\n%s", round, d)
		}
		got = nil
		mu.Unlock()
	}
}

// HOOK-8 over MCP: each client's MCP session is its conversation, so its
// hooks read that session's id as session_id, the same for every call it
// makes and another for another client's.
func TestHooksReadTheClientsSession(t *testing.T) {
	dir := t.TempDir()
	seen := filepath.Join(dir, "seen.jsonl")
	file := filepath.Join(dir, "settings.json")
	hook := fmt.Sprintf(`{"hooks":{"PreToolUse":[{"matcher":"mcp__demo__echo","hooks":[{"type":"command","command":"cat >> %s; echo >> %s"}]}]}}`, seen, seen)
	if err := os.WriteFile(file, []byte(hook), 0o644); err != nil {
		t.Fatal(err)
	}
	url, _, _ := fleet(t, file)
	a, _ := connect(t, url)
	b, _ := connect(t, url)
	for _, c := range []*client.Client{a, a, b} {
		if res := execCall(t, c, `return tools.mcp__demo__echo{ a = 1 }`, false); res.IsError {
			t.Fatalf("Exec: %v", texts(res))
		}
	}
	raw, err := os.ReadFile(seen)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var in struct {
			SessionID string `json:"session_id"`
		}
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			t.Fatalf("hook input %q: %v", line, err)
		}
		got = append(got, in.SessionID)
	}
	want := []string{a.GetSessionId(), a.GetSessionId(), b.GetSessionId()}
	if want[0] == "" || want[0] == want[2] {
		t.Fatalf("the clients' sessions are %q and %q", want[0], want[2])
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("session_id per call (-want +got):\n%s", diff)
	}
}
