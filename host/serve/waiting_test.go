package serve

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/servers"
)

// An Exec made while no server has given a tool names each server's
// state, its last error, and whether and when it is retried.
func TestNoToolsYetSaysWhereEachServerIs(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	later := now.Add(4 * time.Second)
	status := []host.ServerStatus{
		{Name: "a", Transport: "stdio", State: servers.Starting},
		{Name: "b", Transport: "http", State: servers.Restarting, Failures: 2, LastError: "connection refused", NextStart: &later},
		{Name: "c", Transport: "stdio", State: servers.Failed, Failures: 5, LastError: "exit status 1", NextStart: &later, StderrTail: "no key\nbye"},
		{Name: "d", Transport: "stdio", State: servers.Failed, LastError: "no command given"},
		{Name: "e", Transport: "stdio", State: servers.Disabled},
		{Name: "f", Transport: "sse", State: servers.Restarting, Failures: 1, LastError: "EOF"},
		{Name: "g", Transport: "in-process", State: servers.Ready, ToolCount: 1, Tools: []host.ToolStatus{{Name: "mcp__g__flat"}}},
		{Name: "h", Transport: "in-process", State: servers.Ready, ToolCount: 2, Tools: []host.ToolStatus{{Name: "mcp__h__a"}, {Name: "mcp__h__b"}}},
		{Name: "i", Transport: "in-process", State: servers.Ready},
	}
	known := func(name string) bool { return name == "mcp__g__flat" }
	res := noToolsYet(status, known, now)
	want := []string{
		"- a (stdio): starting: its first start is under way",
		"- b (http): restarting after 2 failures in a row (last error: connection refused); retried in 4s",
		"- c (stdio): failed after 5 failures in a row (last error: exit status 1); retried in 4s\n  last lines of its stderr: no key | bye",
		"- d (stdio): failed (last error: no command given); not retried until its entry changes",
		`- e (stdio): disabled ("disabled": true in its entry), never started`,
		"- f (sse): restarting after 1 failure (last error: EOF); retried now",
		"- g (in-process): ready; every tool it has (1) is outside Exec's pool (declared flat, or denied)",
		"- h (in-process): ready; its tools (2) are joining the pool now: call Exec again",
		"- i (in-process): ready; it has no tools",
	}
	for _, w := range want {
		if !strings.Contains(res.Text, w) {
			t.Errorf("result lacks %q:\n%s", w, res.Text)
		}
	}
	if !res.IsError || !errors.Is(res.Err, ErrNoToolsYet) {
		t.Errorf("result = %+v, want an error matching ErrNoToolsYet", res)
	}
	if res := noToolsYet(nil, known, now); !strings.Contains(res.Text, "No MCP server is configured.") {
		t.Errorf("with no server: %q", res.Text)
	}
}
