package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
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
// and the first n progress messages, in the order the server sent them
// (the client may handle a notification after the result, or out of order).
func callExec(t *testing.T, c *client.Client, code string, n int) (string, []string) {
	t.Helper()
	notes := make(chan map[string]any, 64)
	c.OnNotification(func(note mcp.JSONRPCNotification) {
		if note.Method == "notifications/progress" {
			notes <- note.Params.AdditionalFields
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
	progress := make([]string, n)
	for range n {
		select {
		case note := <-notes:
			if i := int(note["progress"].(float64)); i <= n {
				progress[i-1] = note["message"].(string)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("progress so far: %q", progress)
		}
	}
	return strings.Join(text, "\n"), progress
}

// Two stdio clients at once, each with its own serve process.
func TestServeStdio(t *testing.T) {
	dir := t.TempDir()
	settings := write(t, dir, "settings.json", `{"permissions":{"allow":["mcp__fix__get-item"]}}`)
	cfg := mcpConfig(t, dir, "")
	for i := range 2 {
		t.Run(fmt.Sprint("client", i), func(t *testing.T) {
			t.Parallel()
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
			// The allow rule lets get-item through; put.item has no rule
			// and nobody to ask on stdio, so it is refused (PERM-1 without
			// a prompt).
			text, progress := callExec(t, c, fmt.Sprintf(`
local item = tools["mcp__fix__get-item"]{ id = %d }
local ok, err = pcall(tools["mcp__fix__put.item"], { name = "x" })
return { item.name, ok, err }`, i), 2)
			if want := fmt.Sprintf(`["item-%d",false,"Permission to use mcp__fix__put.item was not granted: no permission rule allows it and there is no terminal to ask on (run with --yes, or add an allow rule to the settings)"]`, i); text != want {
				t.Errorf("Exec = %q, want %q", text, want)
			}
			if !strings.HasPrefix(progress[0], "1 tool call\n") || !strings.HasPrefix(progress[1], "2 tool calls\n") {
				t.Errorf("progress = %q", progress)
			}
		})
	}
}

// serveHTTP starts execlua serve --http on a free port and returns the URL.
func serveHTTP(t *testing.T, dir string, args ...string) string {
	_, url := startServe(t, dir, args...)
	return url
}

// startServe starts execlua serve --http on a free port in dir and returns
// the process and the URL; the test's end interrupts it.
func startServe(t *testing.T, dir string, args ...string) (*exec.Cmd, string) {
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
	return cmd, strings.TrimSpace(strings.TrimPrefix(line, prefix))
}

func TestServeHTTPTwoClientsAtOnce(t *testing.T) {
	dir := t.TempDir()
	url := serveHTTP(t, dir, "--demo", "--yes", "--settings", write(t, dir, "settings.json", "{}"))
	a, err := client.NewStreamableHttpClient(url, transport.WithHTTPLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	b, err := client.NewStreamableHttpClient(url, transport.WithHTTPLogger(slog.New(slog.DiscardHandler)))
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
error("b's note never appeared")`, 1)
		done <- answer{text, progress}
	}()
	<-started
	if text, _ := callExec(t, b, `return tools.mcp__notes__add_note{ title = "hi", tags = { "from-b" } }.id`, 0); text != "4" {
		t.Errorf("b's Exec = %q", text)
	}
	got := <-done
	if got.text != "saw b" {
		t.Errorf("a's Exec = %q", got.text)
	}
	if !strings.HasPrefix(got.progress[0], "1 tool call\nmcp__notes__list_notes") {
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

// serve --isolation process runs each Exec in a worker process, whose
// nested calls come back through serve's funnel.
func TestServeIsolationProcess(t *testing.T) {
	dir := t.TempDir()
	c, err := client.NewStdioMCPClient(binary, []string{"HOME=" + dir}, "serve", "--demo", "--yes", "--isolation", "process",
		"--settings", write(t, dir, "settings.json", "{}"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	initialize(t, c)
	text, progress := callExec(t, c, `return tools.mcp__demo__echo{ n = 7 }.n`, 1)
	if text != "7" || progress[0] != "1 tool call\nmcp__demo__echo" {
		t.Errorf("Exec = %q, progress %q", text, progress)
	}
}

// serve runs scripts in worker processes unless told otherwise: after
// one Exec, its /metrics counts live workers, and none with --isolation
// inprocess.
func TestServeIsolationDefaultsToProcess(t *testing.T) {
	for _, c := range []struct {
		args    []string
		workers bool
	}{
		{nil, true},
		{[]string{"--isolation", "inprocess"}, false},
	} {
		dir := t.TempDir()
		args := append([]string{"--demo", "--yes", "--settings", write(t, dir, "settings.json", "{}")}, c.args...)
		url := serveHTTP(t, dir, args...)
		mc, err := client.NewStreamableHttpClient(url, transport.WithHTTPLogger(slog.New(slog.DiscardHandler)))
		if err != nil {
			t.Fatal(err)
		}
		initialize(t, mc)
		if text, _ := callExec(t, mc, `return 6 * 7`, 0); text != "42" {
			t.Errorf("%v: Exec = %q", c.args, text)
		}
		mc.Close()
		resp, err := http.Get(strings.TrimSuffix(url, "/mcp") + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		live := grepLines(string(body), `execlua_workers{state="live"}`)
		n := 0
		if live != "" {
			fmt.Sscanf(strings.Fields(live)[1], "%d", &n)
		}
		if (n > 0) != c.workers {
			t.Errorf("%v: live workers %q, want some: %v", c.args, live, c.workers)
		}
	}
}

// grepLines returns the lines of text that contain sub.
func grepLines(text, sub string) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, sub) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// serve takes the same limits as run: --max-calls bounds every Exec run
// its clients make, refusing only the call over the cap (BUD-6).
func TestServeLimits(t *testing.T) {
	dir := t.TempDir()
	c, err := client.NewStdioMCPClient(binary, []string{"HOME=" + dir}, "serve", "--demo", "--yes", "--max-calls", "1", "--budget", "2s")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	initialize(t, c)
	text, _ := callExec(t, c, `
local first = tools.mcp__demo__echo{ n = 1 }
local ok, err = pcall(tools.mcp__demo__echo, { n = 2 })
return { first.n, ok, err }`, 0)
	if !strings.HasPrefix(text, `[1,false,"`) || !strings.Contains(text, "limit") {
		t.Errorf("Exec = %q, want the second call refused by the call cap", text)
	}
}

// serve --http refuses an address other machines can reach unless it has
// a token; a token named but missing is a usage error too.
func TestServeNeedsTokenOffLoopback(t *testing.T) {
	r := runCLI(t, "", "", "serve", "--demo", "--http", "0.0.0.0:0").want(t, exitUsage)
	if !strings.Contains(r.stderr, "needs a bearer token") || !strings.Contains(r.stderr, "hint: give --token-file or --token-env") {
		t.Errorf("stderr = %q", r.stderr)
	}
	r = runCLI(t, "", "", "serve", "--demo", "--http", "127.0.0.1:0", "--token-env", "EXECLUA_TEST_NO_SUCH_TOKEN").want(t, exitUsage)
	if !strings.Contains(r.stderr, "EXECLUA_TEST_NO_SUCH_TOKEN is empty or not set") {
		t.Errorf("stderr = %q", r.stderr)
	}
	r = runCLI(t, "", "", "serve", "--demo", "--http", "127.0.0.1:0", "--allow-origin", "evil.example").want(t, exitUsage)
	if !strings.Contains(r.stderr, "expected scheme://host[:port]") {
		t.Errorf("stderr = %q", r.stderr)
	}
}

// With a token, serve --http answers only clients that send it, and
// --audit records the client's runs under the token's name.
func TestServeHTTPWithToken(t *testing.T) {
	dir := t.TempDir()
	tokenFile := write(t, dir, "token.txt", "# clients\nsekrit\n")
	audit := filepath.Join(dir, "audit.jsonl")
	url := serveHTTP(t, dir, "--demo", "--yes", "--token-file", tokenFile, "--audit", audit, "--settings", write(t, dir, "settings.json", "{}"))
	anon, err := client.NewStreamableHttpClient(url, transport.WithHTTPLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { anon.Close() })
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.ProtocolVersion20250618
	if _, err := anon.Initialize(t.Context(), req); err == nil {
		t.Error("a client without the token was served")
	}
	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPLogger(slog.New(slog.DiscardHandler)),
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer sekrit"}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	initialize(t, c)
	if text, _ := callExec(t, c, `return tools.mcp__demo__echo{ n = 3 }.n`, 0); text != "3" {
		t.Errorf("Exec = %q", text)
	}
	data, err := os.ReadFile(audit)
	if err != nil {
		t.Fatal(err)
	}
	var lines []map[string]any
	for line := range strings.Lines(string(data)) {
		var l map[string]any
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		lines = append(lines, l)
	}
	if len(lines) != 2 || lines[0]["tool"] != "mcp__demo__echo" || lines[1]["tool"] != "Exec" || !strings.HasPrefix(lines[1]["client"].(string), "token:") {
		t.Errorf("audit log:\n%s", data)
	}
}
