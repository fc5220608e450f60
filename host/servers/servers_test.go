package servers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host/internal/fixture"
	"github.com/execlua/execlua/host/settings"
	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func toolNames(tools []execlua.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.ServerTool)
	}
	slices.Sort(out)
	return out
}

// TestTransports drives every output shape through each transport: the
// pagination of tools/list, the mapping of entries (invalid names left out
// with a report, _meta, annotations, outputSchema), and ORCH-2's output
// mapping.
func TestTransports(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			rec := newRecorder()
			m, _ := connect(t, tr, rec)
			tools := m.Tools()
			want := slices.Sorted(slices.Values(fixture.Tools))
			if diff := cmp.Diff(want, toolNames(tools)); diff != "" {
				t.Fatalf("tools (-want +got):\n%s\nstatus: %+v", diff, m.Status())
			}
			select {
			case r := <-rec.reports:
				if r.Tool != "bad name" || !errors.Is(r.Err, execlua.ErrInvalidName) {
					t.Errorf("report = %+v, want the tool \"bad name\" left out for its name", r)
				}
			default:
				t.Error("no report for the tool with an invalid name")
			}
			for _, tool := range tools {
				switch tool.ServerTool {
				case "meta":
					if !tool.AlwaysLoad || tool.SearchHint != "find the meta things" || !tool.Annotations.ReadOnly() {
						t.Errorf("meta = %+v, want alwaysLoad, the searchHint and readOnlyHint", tool)
					}
				case "structured":
					if !strings.Contains(string(tool.OutputSchema), `"integer"`) || tool.Name != "mcp__fx__structured" {
						t.Errorf("structured = %+v, want its outputSchema kept", tool)
					}
				}
			}

			ctx := context.Background()
			call := func(tool, args string) (execlua.Output, error) { return m.Call(ctx, "fx", tool, json.RawMessage(args)) }

			out, err := call("structured", "{}")
			if err != nil || string(out.Structured) != `{"items":[],"nested":{"a":null},"value":42}` {
				t.Errorf("structured: %s, %v", out.Structured, err)
			}
			out, err = call("text", "{}")
			if err != nil || !slices.Equal(out.Text, []string{"line one", "line two"}) || out.Structured != nil {
				t.Errorf("text: %+v, %v", out, err)
			}
			out, err = call("image", "{}")
			if err != nil || len(out.Images) != 1 || out.Images[0].MIMEType != "image/png" || out.Text != nil || out.Structured != nil {
				t.Errorf("image: %+v, %v", out, err)
			}
			out, err = call("blocks", "{}")
			wantText := []string{
				"resource text",
				"[resource file:///data.bin (binary, 4 bytes) not shown]",
				"[audio (audio/wav, 4 bytes) not shown]",
				"[resource link: todo.md <file:///notes/todo.md> (text/markdown): the to-do list]",
			}
			if err != nil || !slices.Equal(out.Text, wantText) || len(out.Images) != 1 || out.Images[0].Data != "aGVsbG8=" {
				t.Errorf("blocks: %+v, %v; want text %q and the embedded image", out, err, wantText)
			}
			_, err = call("fail", "{}")
			var te *ToolError
			if !errors.As(err, &te) || err.Error() != "boom: bad input" {
				t.Errorf("fail: %v, want the tool's own text as the error", err)
			}
			// ORCH-3: arguments arrive field by field as written.
			args := `{"b":[],"a":{"x":[1,2.5,"s",null]},"c":true}`
			out, err = call("echo", args)
			var got, sent any
			_ = json.Unmarshal(out.Structured, &got)
			_ = json.Unmarshal([]byte(args), &sent)
			if err != nil || !cmp.Equal(got, sent) {
				t.Errorf("echo: %s, %v; want %s", out.Structured, err, args)
			}
			if _, err := call("nope", "{}"); err == nil || isTransport(err) {
				t.Errorf("unknown tool: %v, want the server's refusal", err)
			}
			if got := m.Status(); len(got) != 1 || got[0].State != Ready {
				t.Errorf("status after a refused call: %+v", got)
			}
		})
	}
}

// poll calls a counter tool until it says want or the deadline passes.
func poll(t *testing.T, m *Manager, tool, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for {
		out, err := m.Call(context.Background(), "fx", tool, json.RawMessage("{}"))
		if err == nil && len(out.Text) == 1 && out.Text[0] == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %+v, %v; want %s", tool, out, err, want)
		}
		<-tick.C
	}
}

// TestCancellation: cancelling a call's context ends the call at once and
// reaches the server, which sees its handler cancelled.
func TestCancellation(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			m, _ := connect(t, tr, newRecorder())
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error)
			go func() {
				_, err := m.Call(ctx, "fx", "hang", json.RawMessage("{}"))
				done <- err
			}()
			poll(t, m, "started", "1")
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Errorf("hang: %v, want a cancellation", err)
			}
			poll(t, m, "cancelled", "1")
		})
	}
}

// TestSlowCall: a call that takes its time is waited for.
func TestSlowCall(t *testing.T) {
	m, _ := connect(t, transports[1], newRecorder())
	out, err := m.Call(context.Background(), "fx", "slow", json.RawMessage(`{"ms":300}`))
	if err != nil || !slices.Equal(out.Text, []string{"done"}) {
		t.Errorf("slow: %+v, %v", out, err)
	}
}

// TestCrashMidCall: a stdio server that exits during a call fails that
// call with its stderr, keeps its tools in the pool (no flapping), is
// started again at once, and its tools work again.
func TestCrashMidCall(t *testing.T) {
	rec := newRecorder()
	m, _ := connect(t, transports[1], rec)
	drain(rec.changes)
	_, err := m.Call(context.Background(), "fx", "crash", json.RawMessage("{}"))
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "fixture: crashing now") || !strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("crash: %v, want the disconnection with exit status and stderr", err)
	}
	if len(m.Tools()) != len(fixture.Tools) {
		t.Fatalf("after the crash: %d tools, want the last known %d", len(m.Tools()), len(fixture.Tools))
	}
	out, err := m.Call(context.Background(), "fx", "text", json.RawMessage("{}"))
	if err != nil || len(out.Text) != 2 {
		t.Fatalf("the call after the crash: %+v, %v; want it to wait for the restart", out, err)
	}
	st := m.Status()[0]
	if st.State != Ready || st.Restarts != 1 || !strings.Contains(st.LastError, "exit status 3") || !strings.Contains(st.StderrTail, "crashing now") {
		t.Errorf("status after the restart: %+v", st)
	}
	if len(rec.changes) != 0 {
		t.Errorf("a restart with the same tools told the host %d times that they changed", len(rec.changes))
	}
}

// TestMalformedArguments: arguments that are not JSON fail the call with
// ErrInvalidArguments and leave the connection alone.
func TestMalformedArguments(t *testing.T) {
	rec := newRecorder()
	m, _ := connect(t, transports[1], rec)
	_, err := m.Call(context.Background(), "fx", "text", json.RawMessage(`{"a":`))
	if !errors.Is(err, ErrInvalidArguments) || errors.Is(err, ErrUnavailable) {
		t.Fatalf("malformed: %v", err)
	}
	if st := m.Status(); st[0].State != Ready {
		t.Fatalf("after a malformed call: %+v", st)
	}
	if out, err := m.Call(context.Background(), "fx", "text", json.RawMessage("{}")); err != nil || len(out.Text) != 2 {
		t.Errorf("the next call: %+v, %v", out, err)
	}
}

func drain(ch chan struct{}) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}

// TestNeverStarts: servers that fail to start are reported (with stderr)
// and left out, while the others connect; those that may work on another
// try are restarting, those whose entry cannot work have failed.
func TestNeverStarts(t *testing.T) {
	rec := newRecorder()
	f := fixture.New(false)
	m := newManager(rec.options(&Options{
		InProcess: map[string]*server.MCPServer{"good": f.Server},
		Lookup:    func(string) (string, bool) { return "", false },
	}), newFakeClock()) // no timer fires: each server is tried once
	defer m.Close()
	silent := stdioConfig(t, fixture.Silent)
	silent.StartupTimeout = 2000
	m.Connect(context.Background(), map[string]settings.ServerConfig{
		"never":   stdioConfig(t, fixture.Never),
		"silent":  silent,
		"missing": {Command: "/nonexistent/execlua-no-such-server"},
		"novar":   {Command: "${EXECLUA_NO_SUCH_VAR}/bin/server"},
		"bad":     {Type: "carrier-pigeon"},
		"off":     {Command: "/nonexistent/never-started", Disabled: true},
	})
	reports := map[string]Report{}
	for len(reports) < 5 {
		r := <-rec.reports
		if r.Tool == "" {
			reports[r.Server] = r
		}
	}
	if r := reports["never"]; !strings.Contains(r.Stderr, "refusing to start") || !strings.Contains(r.Err.Error(), "exit status 1") {
		t.Errorf("never: %+v, want its stderr", r)
	}
	// The host stopped it: no "the server process exited" (which reads as
	// a crash), and the hint to raise the timeout.
	if msg := reports["silent"].Err.Error(); !strings.Contains(msg, "did not start within 2s") || !strings.Contains(msg, `set by "startupTimeout" in its mcpServers entry`) ||
		!strings.Contains(msg, "the host stopped it") || strings.Contains(msg, "exited") || strings.Contains(msg, "process ended") || !errors.Is(reports["silent"].Err, context.DeadlineExceeded) {
		t.Errorf("silent: %v", msg)
	}
	if r := reports["missing"]; !strings.Contains(r.Err.Error(), "could not start") {
		t.Errorf("missing: %v", r.Err)
	}
	if r := reports["novar"]; !errors.Is(r.Err, settings.ErrMissingVariable) || !strings.Contains(r.Err.Error(), "EXECLUA_NO_SUCH_VAR") {
		t.Errorf("novar: %v", r.Err)
	}
	if r := reports["bad"]; !strings.Contains(r.Err.Error(), "unknown server type") {
		t.Errorf("bad: %v", r.Err)
	}
	if got := len(m.Tools()); got != len(fixture.Tools) {
		t.Errorf("%d tools, want the good server's %d", got, len(fixture.Tools))
	}
	states := map[string]State{}
	for _, st := range m.Status() {
		states[st.Name] = st.State
	}
	want := map[string]State{"good": Ready, "never": Restarting, "silent": Restarting, "missing": Restarting, "novar": Failed, "bad": Failed, "off": Disabled}
	if diff := cmp.Diff(want, states); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
	if _, err := m.Call(context.Background(), "off", "text", nil); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "disabled") {
		t.Errorf("a call to a disabled server: %v", err)
	}
	if _, err := m.Call(context.Background(), "novar", "text", nil); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "cannot start") {
		t.Errorf("a call to a server that cannot start: %v", err)
	}
}

// TestListChanged: a tools/list_changed notification reads the list again
// and tells the host.
func TestListChanged(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			rec := newRecorder()
			m, _ := connect(t, tr, rec)
			drain(rec.changes)
			if _, err := m.Call(context.Background(), "fx", "add_tool", nil); err != nil {
				t.Fatal(err)
			}
			deadline := time.After(10 * time.Second)
			for !slices.Contains(toolNames(m.Tools()), "late") {
				select {
				case <-rec.changes:
				case <-deadline:
					t.Fatalf("tools after add_tool: %v", toolNames(m.Tools()))
				}
			}
			out, err := m.Call(context.Background(), "fx", "late", nil)
			if err != nil || out.Text[0] != "late" {
				t.Errorf("late: %+v, %v", out, err)
			}
		})
	}
}

// TestReconfigure: Connect with a new set closes servers no longer named
// and starts new ones.
func TestReconfigure(t *testing.T) {
	rec := newRecorder()
	m := New(rec.options(&Options{}))
	defer m.Close()
	m.Connect(context.Background(), map[string]settings.ServerConfig{"a": stdioConfig(t, fixture.Stdio)})
	m.Connect(context.Background(), map[string]settings.ServerConfig{"b": stdioConfig(t, fixture.Stdio)})
	st := m.Status()
	if len(st) != 1 || st[0].Name != "b" || st[0].State != Ready {
		t.Fatalf("status: %+v", st)
	}
	if _, err := m.Call(context.Background(), "a", "text", nil); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("a call to the removed server: %v", err)
	}
	// The server entry's alwaysLoad applies to all its tools (POOL-5).
	cfg := stdioConfig(t, fixture.Stdio)
	cfg.AlwaysLoad = true
	m.Connect(context.Background(), map[string]settings.ServerConfig{"b": cfg})
	for _, tool := range m.Tools() {
		if !tool.AlwaysLoad {
			t.Errorf("%s: alwaysLoad from the server entry is lost", tool.Name)
		}
	}
}

// TestInvalidServerName: a server whose name breaks the naming rule is
// left out whole, with one report.
func TestInvalidServerName(t *testing.T) {
	rec := newRecorder()
	m := New(rec.options(&Options{InProcess: map[string]*server.MCPServer{"bad\nname": fixture.New(false).Server}}))
	defer m.Close()
	m.Connect(context.Background(), nil)
	r := <-rec.reports
	if !errors.Is(r.Err, execlua.ErrInvalidName) || len(rec.reports) != 0 {
		t.Errorf("report %+v, %d more", r, len(rec.reports))
	}
	if st := m.Status(); st[0].State != Failed || len(m.Tools()) != 0 {
		t.Errorf("status %+v", st)
	}
}

// TestListChangedDebounced: a burst of list changes is read once.
func TestListChangedDebounced(t *testing.T) {
	for _, tr := range transports[:2] {
		t.Run(tr.name, func(t *testing.T) {
			rec := newRecorder()
			m, _ := connect(t, tr, rec)
			drain(rec.changes)
			if _, err := m.Call(context.Background(), "fx", "add_many", nil); err != nil {
				t.Fatal(err)
			}
			changes := 0
			deadline := time.After(10 * time.Second)
			for !slices.Contains(toolNames(m.Tools()), "many5") {
				select {
				case <-rec.changes:
					changes++
				case <-deadline:
					t.Fatalf("tools: %v", toolNames(m.Tools()))
				}
			}
			if changes > 2 {
				t.Errorf("five list changes were read %d times", changes)
			}
		})
	}
}

// TestExitWhileIdle: a stdio server that exits between calls is reported
// at once with its stderr, keeps its tools, and is started again.
func TestExitWhileIdle(t *testing.T) {
	rec := newRecorder()
	m, _ := connect(t, transports[1], rec)
	drain(rec.changes)
	if out, err := m.Call(context.Background(), "fx", "exit_soon", nil); err != nil || out.Text[0] != "bye" {
		t.Fatalf("exit_soon: %+v, %v", out, err)
	}
	r := <-rec.reports
	for r.Tool != "" { // the tool left out at the start
		r = <-rec.reports
	}
	if !strings.Contains(r.Err.Error(), "exit status 4") || !strings.Contains(r.Stderr, "leaving while idle") {
		t.Errorf("report: %v", r)
	}
	rec.until(t, "the restart", func(st Status) bool { return st.State == Ready && st.Restarts == 1 })
	if len(m.Tools()) != len(fixture.Tools) || len(rec.changes) != 0 {
		t.Errorf("%d tools, %d changes; want the same tools throughout", len(m.Tools()), len(rec.changes))
	}
}

// callerKey marks a caller's context in TestInProcessSeesNoCallerValues.
type callerKey struct{}

// TestInProcessSeesNoCallerValues: an in-process server's handler gets
// the caller's cancellation but none of its values (mcp-go would take the
// HTTP headers of a request the host is serving for the in-process call's
// own), while the server's own values still reach it.
func TestInProcessSeesNoCallerValues(t *testing.T) {
	srv := server.NewMCPServer("peek", "1", server.WithToolCapabilities(true))
	srv.AddTool(mcp.NewTool("peek"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		own := server.ServerFromContext(ctx) == srv
		return mcp.NewToolResultText(fmt.Sprintf("caller %v, own %v", ctx.Value(callerKey{}), own)), nil
	})
	m := New(&Options{InProcess: map[string]*server.MCPServer{"in": srv}})
	defer m.Close()
	m.Connect(context.Background(), nil)
	ctx := context.WithValue(context.Background(), callerKey{}, "outer")
	out, err := m.Call(ctx, "in", "peek", json.RawMessage("{}"))
	if err != nil || !slices.Equal(out.Text, []string{"caller <nil>, own true"}) {
		t.Errorf("peek: %+v, %v", out, err)
	}
}

// TestReportWaitsForStderr: a server whose stdout closes before it exits
// (the host finds it gone while reading its tools again) is reported with
// the stderr it writes on its way out.
func TestReportWaitsForStderr(t *testing.T) {
	rec := newRecorder()
	m, _ := connect(t, transports[1], rec)
	if out, err := m.Call(context.Background(), "fx", "hang_up", nil); err != nil || out.Text[0] != "hanging up" {
		t.Fatalf("hang_up: %+v, %v", out, err)
	}
	r := <-rec.reports
	for r.Tool != "" { // the tool left out at the start
		r = <-rec.reports
	}
	if !strings.Contains(r.Stderr, "fixture: hung up") {
		t.Errorf("report: %v", r)
	}
}

// A result that arrives with its structured content as a value only (no
// transport kept bytes of it) is encoded once, for hooks and recordings,
// and handed over decoded, so the script's table is built from the value.
func TestValueOnlyStructuredContent(t *testing.T) {
	value := map[string]any{"n": 1, "tags": []any{}}
	out, err := output("t", &mcp.CallToolResult{StructuredContent: value})
	if err != nil || string(out.Structured) != `{"n":1,"tags":[]}` || !cmp.Equal(out.Decoded, any(value)) {
		t.Errorf("output = %+v, %v; want the value encoded once and handed over as it is", out, err)
	}
	if _, err := output("t", &mcp.CallToolResult{StructuredContent: func() {}}); err == nil || !strings.Contains(err.Error(), "cannot be encoded") {
		t.Errorf("a value JSON cannot encode: %v", err)
	}
}
