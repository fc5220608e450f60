package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// initialize starts c and returns the server's instructions.
func initialize(t *testing.T, c *client.Client) string {
	t.Helper()
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.ProtocolVersion20250618
	req.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
	res, err := c.Initialize(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	return res.Instructions
}

// callExec calls Exec with a progress token and returns the result's text
// and the progress messages received.
func callExec(t *testing.T, c *client.Client, code string) (string, []string) {
	t.Helper()
	var mu sync.Mutex
	var progress []string
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			mu.Lock()
			progress = append(progress, n.Params.AdditionalFields["message"].(string))
			mu.Unlock()
		}
	})
	req := mcp.CallToolRequest{}
	req.Params.Name = "Exec"
	req.Params.Arguments = map[string]any{"code": code}
	req.Params.Meta = &mcp.Meta{ProgressToken: 1}
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, content := range res.Content {
		if tc, ok := content.(mcp.TextContent); ok {
			text = append(text, tc.Text)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	return strings.Join(text, "\n"), progress
}

func TestServeStdio(t *testing.T) {
	dir := t.TempDir()
	settings := write(t, dir, "settings.json", `{"permissions":{"allow":["mcp__fix__get-item"]}}`)
	cfg := mcpConfig(t, dir, "")
	c, err := client.NewStdioMCPClient(binary, []string{"HOME=" + dir}, "serve", "--settings", settings, "--mcp-config", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if instructions := initialize(t, c); !strings.Contains(instructions, "mcp__fix__get-item") {
		t.Errorf("instructions = %q", instructions)
	}
	list, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 1 || list.Tools[0].Name != "Exec" {
		t.Errorf("tools = %+v, want Exec alone", list.Tools)
	}
	// The allow rule lets get-item through; put.item has no rule and
	// nobody to ask on stdio, so it is refused (PERM-1 without a prompt).
	text, progress := callExec(t, c, `
local item = tools["mcp__fix__get-item"]{ id = 5 }
local ok, err = pcall(tools["mcp__fix__put.item"], { name = "x" })
return { item.name, ok }`)
	if text != `["item-5",false]` {
		t.Errorf("Exec = %q", text)
	}
	if len(progress) != 2 || !strings.HasPrefix(progress[1], "2 tool calls\n") {
		t.Errorf("progress = %q", progress)
	}
}

// serveHTTP starts execlua serve --http on a free port and returns the URL.
func serveHTTP(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed no address: %v", err)
	}
	go io.Copy(io.Discard, stderr)
	const prefix = "execlua: serving MCP at "
	if !strings.HasPrefix(line, prefix) {
		t.Fatalf("serve said %q", line)
	}
	return strings.TrimSpace(strings.TrimPrefix(line, prefix))
}

func TestServeHTTPTwoClientsAtOnce(t *testing.T) {
	dir := t.TempDir()
	url := serveHTTP(t, dir, "--demo", "--yes", "--settings", write(t, dir, "settings.json", "{}"))
	a, err := client.NewStreamableHttpClient(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	b, err := client.NewStreamableHttpClient(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	initialize(t, a)
	initialize(t, b)

	// a waits for a note that only b's script adds: both scripts must be
	// running at the same time for a to finish.
	started := make(chan struct{})
	var once sync.Once
	a.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			once.Do(func() { close(started) })
		}
	})
	type answer struct {
		text     string
		progress []string
	}
	done := make(chan answer, 1)
	go func() {
		text, progress := callExec(t, a, `
for i = 1, 20 do
  if #tools.mcp__notes__list_notes{ tag = "from-b" }.notes > 0 then return "saw b" end
  tools.mcp__demo__sleep{ ms = 50 }
end
error("b's note never appeared")`)
		done <- answer{text, progress}
	}()
	<-started
	if text, _ := callExec(t, b, `return tools.mcp__notes__add_note{ title = "hi", tags = { "from-b" } }.id`); text != "4" {
		t.Errorf("b's Exec = %q", text)
	}
	got := <-done
	if got.text != "saw b" {
		t.Errorf("a's Exec = %q", got.text)
	}
	if len(got.progress) == 0 || !strings.HasPrefix(got.progress[0], "1 tool call\nmcp__notes__list_notes") {
		t.Errorf("a's progress = %q", got.progress)
	}
}

func TestServeUsage(t *testing.T) {
	r := runCLI(t, "", "", "serve", "--demo", "--http", "not an address").want(t, exitUsage)
	if !strings.Contains(r.stderr, "cannot listen") || !strings.Contains(r.stderr, "hint: ") {
		t.Errorf("stderr = %q", r.stderr)
	}
	runCLI(t, "", "", "serve", "extra").want(t, exitUsage)
}
