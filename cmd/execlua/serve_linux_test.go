//go:build linux

package main

import (
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/execlua/execlua/internal/leaktest"
)

// Shutdown of serve --http with a run in flight: on SIGTERM the run is
// cancelled past the grace period with a result that says so, serve exits
// 0, and every child it started (the stdio MCP server, the worker
// processes) is gone.
func TestServeShutdownEndsEveryChild(t *testing.T) {
	dir := t.TempDir()
	cmd, url := startServe(t, dir, "--demo", "--yes", "--grace", "100ms",
		"--settings", write(t, dir, "settings.json", "{}"), "--mcp-config", mcpConfig(t, dir, ""))
	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	initialize(t, c)
	shutdownEndsEveryChild(t, cmd, c)
}

// The same over stdio: the signal, not the client, ends serve.
func TestServeStdioShutdownEndsEveryChild(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(binary, "serve", "--demo", "--yes", "--grace", "100ms",
		"--settings", write(t, dir, "settings.json", "{}"), "--mcp-config", mcpConfig(t, dir, ""))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	c := client.NewClient(transport.NewIO(stdout, stdin, io.NopCloser(strings.NewReader(""))))
	t.Cleanup(func() { c.Close() })
	initialize(t, c)
	shutdownEndsEveryChild(t, cmd, c)
}

// shutdownEndsEveryChild checks the shutdown of a serve process cmd that
// c is connected to.
func shutdownEndsEveryChild(t *testing.T, cmd *exec.Cmd, c *client.Client) {
	t.Helper()
	// The fixture server runs; a worker ran the script.
	text, _ := callExec(t, c, `return tools["mcp__fix__get-item"]{ id = 1 }.pid`, 0)
	fixturePid, err := strconv.Atoi(text)
	if err != nil {
		t.Fatalf("Exec = %q", text)
	}
	kids := leaktest.ChildrenOf(cmd.Process.Pid)
	if !slices.Contains(kids, fixturePid) || len(kids) < 2 {
		t.Fatalf("children of serve = %v, want the fixture server %d and workers", kids, fixturePid)
	}

	// A run that outlives the grace period.
	started := make(chan struct{})
	var once sync.Once
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			once.Do(func() { close(started) })
		}
	})
	result := make(chan string, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "Exec"
		req.Params.Arguments = map[string]any{"code": `return tools.mcp__demo__sleep{ ms = 60000 }`}
		req.Params.Meta = &mcp.Meta{ProgressToken: 1}
		res, err := c.CallTool(t.Context(), req)
		if err != nil {
			result <- err.Error()
			return
		}
		result <- res.Content[len(res.Content)-1].(mcp.TextContent).Text
	}()
	<-started
	for _, pid := range leaktest.ChildrenOf(cmd.Process.Pid) {
		if !slices.Contains(kids, pid) {
			kids = append(kids, pid) // the worker running the script
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if got := <-result; !strings.Contains(got, "shutting down and cancelled this run") {
		t.Errorf("the run in flight = %q", got)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("serve exited with %v, want 0", err)
	}
	for _, pid := range kids {
		if _, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid))); err == nil {
			t.Errorf("child %d of serve is still there", pid)
		}
	}
}
