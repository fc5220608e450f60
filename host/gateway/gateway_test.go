package gateway_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/demo"
	"github.com/execlua/execlua/host/gateway"
	"github.com/execlua/execlua/host/serve"
	"github.com/execlua/execlua/internal/leaktest"
)

// gate is an in-process server whose one tool, wait, tells started and
// then waits for release (or its call's cancellation).
type gate struct {
	started chan struct{}
	release chan struct{}
}

func newGate() (*gate, *server.MCPServer) {
	g := &gate{started: make(chan struct{}, 16), release: make(chan struct{})}
	s := server.NewMCPServer("gate", "1")
	s.AddTool(mcp.NewTool("wait", mcp.WithDescription("Wait until released.")), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		g.started <- struct{}{}
		select {
		case <-g.release:
			return mcp.NewToolResultText("released"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	return g, s
}

// rig is a gateway on a real loopback listener in front of a host with
// the demo servers and a gate.
type rig struct {
	url     string // the /mcp endpoint
	base    string
	host    *host.Host
	gw      *gateway.Gateway
	gate    *gate
	served  chan error
	metrics *gateway.Metrics
}

type rigOptions struct {
	gw       gateway.Options
	serve    serve.Options
	settings string // a settings file for the host; "" for none
	// listener, when set, wraps the rig's listener.
	listener func(net.Listener) net.Listener
}

func start(t testing.TB, o rigOptions) *rig {
	t.Helper()
	t.Cleanup(leaktest.Check(t))
	t.Cleanup(http.DefaultClient.CloseIdleConnections)
	g, gateSrv := newGate()
	servers := demo.Servers()
	servers["gate"] = gateSrv
	opts := &host.Options{InProcess: servers, NoWatch: true,
		Prompter: host.PrompterFunc(func(context.Context, host.PermissionQuestion) (host.PermissionAnswer, error) {
			return host.AllowOnce, nil
		})}
	opts.Settings.User = o.settings
	h, err := host.New(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	m := gateway.NewMetrics(&gateway.MetricsOptions{
		Servers: func() []gateway.ServerState {
			return []gateway.ServerState{{Name: "demo", State: "ready", Restarts: 2}}
		},
		Workers: func() (int, int) { return 3, 1 },
	})
	o.serve.Observers = append(o.serve.Observers, m)
	srv, err := serve.New(h, &o.serve)
	if err != nil {
		t.Fatal(err)
	}
	o.gw.Metrics = m
	gw, err := gateway.New(srv, &o.gw)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if o.listener != nil {
		ln = o.listener(ln)
	}
	r := &rig{base: "http://" + ln.Addr().String(), host: h, gw: gw, gate: g, served: make(chan error, 1), metrics: m}
	r.url = r.base + "/mcp"
	go func() { r.served <- gw.Serve(ln) }()
	t.Cleanup(func() {
		close(g.release)
		// A connection the clients' transport opened and never sent a
		// request on would hold Shutdown for 5 s (net/http's rule).
		http.DefaultClient.CloseIdleConnections()
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // runs still in flight are cancelled at once
		if _, err := gw.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := <-r.served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return r
}

// dial connects an mcp-go streamable HTTP client with headers and
// initializes it; the error is the handshake's.
func dial(t testing.TB, url string, headers map[string]string, opts ...transport.StreamableHTTPCOption) (*client.Client, error) {
	t.Helper()
	opts = append(opts, transport.WithHTTPLogger(slog.New(slog.DiscardHandler)), transport.WithHTTPHeaders(headers))
	c, err := client.NewStreamableHttpClient(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Start(t.Context()); err != nil {
		return nil, err
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.ProtocolVersion20250618
	req.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
	_, err = c.Initialize(t.Context(), req)
	return c, err
}

func mustDial(t testing.TB, url string, headers map[string]string) *client.Client {
	t.Helper()
	c, err := dial(t, url, headers)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return c
}

// exec calls Exec and returns its text and whether it failed.
func exec(t testing.TB, c *client.Client, code string) (string, bool) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = "Exec"
	req.Params.Arguments = map[string]any{"code": code}
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("Exec: %v", err)
	}
	var out []string
	for _, content := range res.Content {
		if tc, ok := content.(mcp.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return out[len(out)-1], res.IsError
}

// post sends a raw initialize request and returns the response.
func post(t *testing.T, url string, headers map[string]string, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	req.Host = headers["Host"]
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// A browser origin is refused unless allowed; a client that sends none
// (not a browser) is served.
func TestOriginIsChecked(t *testing.T) {
	r := start(t, rigOptions{gw: gateway.Options{AllowedOrigins: []string{"https://app.example.com"}}})
	if _, err := dial(t, r.url, map[string]string{"Origin": "https://evil.example.net"}); err == nil {
		t.Error("a client from another site was served")
	}
	if resp := post(t, r.url, map[string]string{"Origin": "http://localhost.evil.example.net"}, initBody); resp.StatusCode != http.StatusForbidden {
		t.Errorf("status for another origin = %d, want 403", resp.StatusCode)
	}
	c := mustDial(t, r.url, map[string]string{"Origin": "https://app.example.com"})
	if text, failed := exec(t, c, `return tools.mcp__demo__echo{ a = 1 }.a`); failed || text != "1" {
		t.Errorf("Exec from an allowed origin = %q", text)
	}
	mustDial(t, r.url, nil)
	// A rebound name reaching the loopback listener is refused.
	if resp := post(t, r.url, map[string]string{"Host": "attacker.example.net"}, initBody); resp.StatusCode != http.StatusForbidden {
		t.Errorf("status for a foreign Host = %d, want 403", resp.StatusCode)
	}
}

// A missing or wrong token is refused with 401 and WWW-Authenticate; the
// right one is served.
func TestTokenIsRequired(t *testing.T) {
	r := start(t, rigOptions{gw: gateway.Options{Tokens: []string{"s3cret-one", "s3cret-two"}}})
	if _, err := dial(t, r.url, nil); err == nil {
		t.Error("a client without a token was served")
	}
	if _, err := dial(t, r.url, map[string]string{"Authorization": "Bearer wrong"}); err == nil {
		t.Error("a client with a wrong token was served")
	}
	resp := post(t, r.url, nil, initBody)
	if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("no token: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	resp = post(t, r.url, map[string]string{"Authorization": "Bearer s3cret-on"}, initBody)
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.Header.Get("WWW-Authenticate"), `error="invalid_token"`) {
		t.Errorf("wrong token: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	c := mustDial(t, r.url, map[string]string{"Authorization": "Bearer s3cret-two"})
	if text, failed := exec(t, c, `return tools.mcp__demo__echo{ a = 2 }.a`); failed || text != "2" {
		t.Errorf("Exec with the token = %q", text)
	}
	resp = get(t, r.base+"/metrics", nil)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("/metrics without a token: %d", resp.StatusCode)
	}
}

func get(t *testing.T, url string, headers map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// A client that sends its header, or its body, too slowly is cut off.
func TestSlowClientIsCutOff(t *testing.T) {
	r := start(t, rigOptions{gw: gateway.Options{ReadHeaderTimeout: 50 * time.Millisecond, BodyTimeout: 50 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))}})
	addr := strings.TrimPrefix(r.base, "http://")

	conn := rawConn(t, addr)
	// Half a header, then nothing: the server closes the connection.
	io.WriteString(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
	if got, err := io.ReadAll(conn); err != nil {
		t.Errorf("a slow header: the connection was not closed (%v; read %q)", err, got)
	}

	conn = rawConn(t, addr)
	// A whole header, then a tenth of the body it announced.
	io.WriteString(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"")
	got, err := io.ReadAll(conn)
	if err != nil {
		t.Errorf("a slow body: the connection was not closed (%v)", err)
	}
	if !strings.HasPrefix(string(got), "HTTP/1.1 408") {
		t.Errorf("a slow body was answered %q, want 408", got)
	}
}

// rawConn dials addr; its reads fail after a minute, a guard against a
// hang only.
func rawConn(t *testing.T, addr string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetReadDeadline(time.Now().Add(time.Minute))
	return conn
}

// A body over the cap is refused with 413, and the client's call fails.
func TestOversizedBodyIsRefused(t *testing.T) {
	r := start(t, rigOptions{gw: gateway.Options{MaxBody: 1024}})
	c := mustDial(t, r.url, nil)
	req := mcp.CallToolRequest{}
	req.Params.Name = "Exec"
	req.Params.Arguments = map[string]any{"code": "return '" + strings.Repeat("x", 4096) + "'"}
	if _, err := c.CallTool(t.Context(), req); err == nil {
		t.Error("an oversized call was served")
	}
	if resp := post(t, r.url, nil, initBody+strings.Repeat(" ", 2048)); resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("status = %d, want 413", resp.StatusCode)
	}
	// A body that does not announce its length is cut at the cap too.
	req2, _ := http.NewRequest(http.MethodPost, r.url, io.MultiReader(strings.NewReader(initBody), strings.NewReader(strings.Repeat(" ", 2048))))
	req2.Header.Set("Content-Type", "application/json")
	req2.ContentLength = -1
	resp, err := http.DefaultClient.Do(req2)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("status for a chunked body = %d, want 413", resp.StatusCode)
	}
}

// A client past its cap of runs in flight is told so at once; another
// client still runs, until the cap of all clients is reached.
func TestRunCaps(t *testing.T) {
	r := start(t, rigOptions{serve: serve.Options{MaxRunsPerClient: 1, MaxRuns: 2}})
	a := mustDial(t, r.url, nil)
	b := mustDial(t, r.url, nil)
	c := mustDial(t, r.url, nil)
	held := make(chan string, 2)
	go func() { text, _ := exec(t, a, `return tools.mcp__gate__wait{}`); held <- text }()
	<-r.gate.started
	text, failed := exec(t, a, `return 1`)
	if !failed || !strings.Contains(text, "this client already has 1 in flight") {
		t.Errorf("a's second run = %q (failed %v), want the per-client cap", text, failed)
	}
	go func() { text, _ := exec(t, b, `return tools.mcp__gate__wait{}`); held <- text }()
	<-r.gate.started
	text, failed = exec(t, c, `return 1`)
	if !failed || !strings.Contains(text, "the server already has 2 in flight") {
		t.Errorf("c's run = %q (failed %v), want the cap of all clients", text, failed)
	}
	r.gate.release <- struct{}{}
	r.gate.release <- struct{}{}
	for range 2 {
		if text := <-held; !strings.Contains(text, "released") {
			t.Errorf("held run = %q", text)
		}
	}
	if text, failed := exec(t, c, `return 1`); failed || text != "1" {
		t.Errorf("c's run after the others ended = %q", text)
	}
}

// /metrics is Prometheus text that counts the runs, the calls and the
// errors, with the server states and workers read at the scrape.
func TestMetricsCountRuns(t *testing.T) {
	r := start(t, rigOptions{})
	c := mustDial(t, r.url, nil)
	for i := range 3 {
		exec(t, c, fmt.Sprintf(`return tools.mcp__demo__echo{ i = %d }.i`, i))
	}
	exec(t, c, `error("boom")`)
	resp := get(t, r.base+"/metrics", nil)
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("/metrics does not parse: %v", err)
	}
	value := func(name string, labels map[string]string) float64 {
		f := families[name]
		if f == nil {
			t.Errorf("no %s", name)
			return -1
		}
	metrics:
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if want, ok := labels[l.GetName()]; ok && want != l.GetValue() {
					continue metrics
				}
			}
			switch {
			case m.Counter != nil:
				return m.Counter.GetValue()
			case m.Gauge != nil:
				return m.Gauge.GetValue()
			case m.Histogram != nil:
				return float64(m.Histogram.GetSampleCount())
			}
		}
		t.Errorf("no %s%v", name, labels)
		return -1
	}
	checks := []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"execlua_exec_runs_total", map[string]string{"outcome": "ok"}, 3},
		{"execlua_exec_runs_total", map[string]string{"outcome": "error"}, 1},
		{"execlua_errors_total", map[string]string{"kind": "script"}, 1},
		{"execlua_tool_calls_total", map[string]string{"outcome": "ok"}, 3},
		{"execlua_exec_duration_seconds", nil, 4},
		{"execlua_exec_runs_in_flight", nil, 0},
		{"execlua_server_state", map[string]string{"server": "demo", "state": "ready"}, 1},
		{"execlua_server_restarts_total", map[string]string{"server": "demo"}, 2},
		{"execlua_workers", map[string]string{"state": "live"}, 3},
	}
	for _, c := range checks {
		if got := value(c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
}

// syncBuffer is a buffer written from several goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Split(strings.TrimSpace(b.buf.String()), "\n")
}

// The audit log has a JSON line for each Exec call and each nested call,
// with who asked, what, who decided, the outcome and the duration.
func TestAuditLog(t *testing.T) {
	dir := t.TempDir()
	settings := dir + "/settings.json"
	block := dir + "/block.sh"
	writeFile(t, block, "cat >/dev/null; echo 'no sleeping' >&2; exit 2\n")
	os.Chmod(block, 0o700)
	writeFile(t, settings, `{"permissions":{"allow":["mcp__demo__echo"]},
"hooks":{"PreToolUse":[{"matcher":"mcp__demo__sleep","hooks":[{"type":"command","command":"`+block+`"}]}]}}`)
	var buf syncBuffer
	audit := gateway.NewAudit(&buf, &gateway.AuditOptions{MaxArgs: 64})
	r := start(t, rigOptions{settings: settings, gw: gateway.Options{Tokens: []string{"tok"}}, serve: serve.Options{Observers: []serve.Observer{audit}}})
	c := mustDial(t, r.url, map[string]string{"Authorization": "Bearer tok"})
	exec(t, c, `
tools.mcp__demo__echo{ text = string.rep("y", 100) }
local ok = pcall(tools.mcp__demo__sleep, { ms = 1 })
tools.mcp__notes__list_notes{}
return ok`)
	lines := buf.lines()
	if len(lines) != 4 {
		t.Fatalf("audit log has %d lines, want 4:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	var got []gateway.AuditLine
	for _, l := range lines {
		var line gateway.AuditLine
		if err := json.Unmarshal([]byte(l), &line); err != nil {
			t.Fatalf("audit line is not JSON: %v\n%s", err, l)
		}
		got = append(got, line)
		if line.Client == "" || line.Session == "" || line.Remote == "" || line.Time.IsZero() || line.Millis < 0 {
			t.Errorf("audit line lacks who or when: %s", l)
		}
	}
	echo, sleep, notes, run := got[0], got[1], got[2], got[3]
	if echo.Event != "call" || echo.Tool != "mcp__demo__echo" || echo.Decision != "allow" || echo.By != "rule" || echo.Rule != "mcp__demo__echo" || echo.Outcome != "ok" || !echo.ArgsCut {
		t.Errorf("echo line = %+v", echo)
	}
	if sleep.Tool != "mcp__demo__sleep" || sleep.Decision != "deny" || sleep.By != "hook" || sleep.Outcome != "error" || sleep.Kind != "blocked" || string(sleep.Args) != `{"ms":1}` {
		t.Errorf("sleep line = %+v", sleep)
	}
	if notes.Tool != "mcp__notes__list_notes" || notes.Decision != "allow" || notes.By != "user" || notes.Outcome != "ok" {
		t.Errorf("notes line = %+v", notes)
	}
	if run.Event != "exec" || run.Tool != "Exec" || run.Outcome != "ok" || run.Calls == nil || *run.Calls != 3 || run.Client != echo.Client {
		t.Errorf("exec line = %+v", run)
	}
}

// Shutdown with runs in flight: new runs are turned away, a run that ends
// within the grace period gets its result, one that does not is cancelled
// with a result that says so.
func TestShutdownWithRunsInFlight(t *testing.T) {
	r := start(t, rigOptions{})
	a := mustDial(t, r.url, nil)
	b := mustDial(t, r.url, nil)
	// A client with a listening stream, which Shutdown must end.
	late, err := dial(t, r.url, nil, transport.WithContinuousListening())
	if err != nil {
		t.Fatal(err)
	}
	results := make(chan string, 2)
	for _, c := range []*client.Client{a, b} {
		go func() { text, _ := exec(t, c, `return tools.mcp__gate__wait{}`); results <- text }()
		<-r.gate.started
	}
	grace, expire := context.WithCancel(context.Background())
	type shut struct {
		cancelled int
		err       error
	}
	done := make(chan shut, 1)
	go func() { n, err := r.gw.Shutdown(grace); done <- shut{n, err} }()
	// Once draining, /healthz says so and a new run is turned away.
	for {
		resp := get(t, r.base+"/healthz", nil)
		var health struct{ Status string }
		json.NewDecoder(resp.Body).Decode(&health)
		resp.Body.Close()
		if health.Status == "draining" {
			if resp.StatusCode != http.StatusServiceUnavailable {
				t.Errorf("/healthz while draining: %d", resp.StatusCode)
			}
			break
		}
	}
	if text, failed := exec(t, late, `return 1`); !failed || !strings.Contains(text, "shutting down") {
		t.Errorf("a run during shutdown = %q (failed %v)", text, failed)
	}
	r.gate.release <- struct{}{} // one run ends within the grace period
	if text := <-results; !strings.Contains(text, "released") {
		t.Errorf("the run that finished = %q", text)
	}
	expire() // the grace period is over
	if text := <-results; !strings.Contains(text, "shutting down and cancelled this run") {
		t.Errorf("the run past the grace period = %q", text)
	}
	if s := <-done; s.cancelled != 1 || s.err != nil {
		t.Errorf("Shutdown = %d, %v; want 1 run cancelled", s.cancelled, s.err)
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

type tWriter struct{ t *testing.T }

func (w tWriter) Write(p []byte) (int, error) { w.t.Log(string(p)); return len(p), nil }

// ErrorKind names an error by the first sentinel it matches, wrapped or
// not; any other error is a tool's.
func TestErrorKind(t *testing.T) {
	for err, want := range map[error]string{
		nil:                                "",
		serve.ErrNoToolsYet:                "no_tools_yet",
		fmt.Errorf("x: %w", serve.ErrBusy): "busy",
		&serve.BusyError{Limit: 1}:         "busy",
		errors.New("the server broke"):     "tool",
	} {
		if got := gateway.ErrorKind(err); got != want {
			t.Errorf("ErrorKind(%v) = %q, want %q", err, got, want)
		}
	}
}
