package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/internal/leaktest"
	"github.com/execlua/execlua/sandbox"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// faulty is an in-process MCP server whose tools misbehave in the ways a
// host must survive: a huge result, a result that does not encode, and a
// flood of list_changed notifications.
func faulty() *server.MCPServer {
	s := server.NewMCPServer("faulty", "1.0.0", server.WithToolCapabilities(true))
	s.AddTool(mcp.NewTool("huge", mcp.WithDescription("An 8 MiB text block.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(strings.Repeat("x", 8<<20)), nil
		})
	s.AddTool(mcp.NewTool("malformed", mcp.WithDescription("Structured content that is not JSON.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultStructuredOnly(map[string]any{"f": func() {}}), nil
		})
	s.AddTool(mcp.NewTool("flood", mcp.WithDescription("Adds 200 tools, one list_changed each.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			for i := range 200 {
				s.AddTool(mcp.NewTool(fmt.Sprintf("extra%d", i), mcp.WithDescription("Added.")),
					func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
						return mcp.NewToolResultText("extra"), nil
					})
			}
			return mcp.NewToolResultText("flooded"), nil
		})
	return s
}

// Fault injection on the MCP side, in both isolation modes: a server that
// crashes mid-call, hangs (BUD-12 and BUD-10), returns a huge or a
// malformed result, or floods list_changed (BUD-11). Each run ends with a result (failed where the call
// failed), nothing panics, and no goroutine or process outlives the test.
func TestMCPFaultsInBothModes(t *testing.T) {
	for _, isolation := range []execlua.Isolation{execlua.InProcess, execlua.Process} {
		t.Run(string(isolation), func(t *testing.T) {
			t.Cleanup(leaktest.Check(t))
			e := setup(t, map[string]string{"local": `{"permissions": {"allow": ["mcp__fx", "mcp__faulty"]}}`},
				&host.Options{Servers: map[string]host.ServerConfig{"fx": stdioConfig(t)},
					InProcess: map[string]*server.MCPServer{"faulty": faulty()}})
			workers := execlua.NewWorkerPool(&execlua.WorkerOptions{Idle: 1})
			t.Cleanup(func() { workers.Close() })
			session := func(limits execlua.Limits) *execlua.Session {
				s, err := e.h.NewSession(&execlua.Options{Isolation: isolation, Workers: workers, Limits: limits})
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
			plain := session(execlua.Limits{MaxStringBytes: 32 << 20})
			capped := session(execlua.Limits{MaxNestedWait: 300 * time.Millisecond})
			run := func(ctx context.Context, code string, opts *execlua.RunOptions) execlua.Result {
				s := plain
				if strings.Contains(code, "hang") {
					s = capped
				}
				input, _ := json.Marshal(map[string]string{"code": code})
				return e.h.RunExec(ctx, s, input, opts)
			}

			res := run(context.Background(), `return #tools.mcp__faulty__huge()`, nil)
			if res.IsError || res.Text != "8388608" {
				t.Errorf("huge: %.200s", res.Text)
			}
			res = run(context.Background(), `local r = tools.mcp__faulty__flood() return r .. " " .. tools.mcp__fx__text()`, nil)
			if res.IsError || res.Text != "flooded line one\nline two" {
				t.Errorf("flood: %+v", res)
			}

			res = run(context.Background(), `return tools.mcp__faulty__malformed()`, nil)
			if !res.IsError || !errors.Is(res.Err, sandbox.ErrScript) {
				t.Errorf("malformed: %+v", res)
			}
			res = run(context.Background(), `tools.mcp__fx__hang()`, nil)
			if !errors.Is(res.Err, sandbox.ErrNestedWaitExceeded) {
				t.Errorf("hang past the wait cap: %+v", res)
			}
			ctx, cancel := context.WithCancel(context.Background())
			res = run(ctx, `tools.mcp__fx__hang()`, &execlua.RunOptions{Progress: func(string) { cancel() }})
			if !errors.Is(res.Err, sandbox.ErrCanceled) {
				t.Errorf("hang, cancelled: %+v", res)
			}
			// The server saw every hanging call it started cancelled (the
			// second run was cancelled as it made its call, which may not
			// have reached the server).
			e.until("the hanging calls to be cancelled", func() bool {
				started, err1 := e.h.Call(context.Background(), execlua.Call{Name: "mcp__fx__started"})
				cancelled, err2 := e.h.Call(context.Background(), execlua.Call{Name: "mcp__fx__cancelled"})
				return err1 == nil && err2 == nil && started.Text[0] != "0" && started.Text[0] == cancelled.Text[0]
			})

			res = run(context.Background(), `tools.mcp__fx__crash()`, nil)
			if !res.IsError || !errors.Is(res.Err, sandbox.ErrScript) || !strings.Contains(res.Text, "fixture: crashing now") {
				t.Errorf("crash mid-call: %+v", res)
			}
		})
	}
}
