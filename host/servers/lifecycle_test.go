package servers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/execlua/execlua/host/internal/fixture"
	"github.com/execlua/execlua/host/settings"
	"github.com/execlua/execlua/internal/leaktest"
	"github.com/mark3labs/mcp-go/server"
)

// TestBackoff: a server that keeps failing to start is started again on
// the clock alone: at once after its first failure, then after the
// backoff, doubling; at the crash limit it is failed, calls fail at once
// saying so, and it is tried again on the slow timer.
func TestBackoff(t *testing.T) {
	rec := newRecorder()
	clk := newFakeClock()
	m := newManager(rec.options(&Options{Backoff: 10 * time.Second, CrashLimit: 4, SlowRetry: 5 * time.Minute}), clk)
	defer m.Close()
	m.Connect(context.Background(), map[string]settings.ServerConfig{"fx": stdioConfig(t, fixture.Never)})
	next := func(want State, wait time.Duration) {
		t.Helper()
		<-rec.reports
		st := m.Status()[0]
		if st.State != want || st.NextStart == nil || st.NextStart.Sub(clk.Now()) != wait {
			t.Fatalf("status %v, next start %v; want %v in %v", st.State, st.NextStart, want, wait)
		}
	}
	next(Restarting, 0)
	for i, wait := range []time.Duration{10 * time.Second, 20 * time.Second} {
		clk.Advance(time.Duration(i) * 10 * time.Second) // the wait before this start
		next(Restarting, wait)
	}
	clk.Advance(19 * time.Second) // not yet due
	select {
	case r := <-rec.reports:
		t.Fatalf("started within its backoff: %v", r)
	default:
	}
	clk.Advance(time.Second)
	next(Failed, 5*time.Minute)
	_, err := m.Call(context.Background(), "fx", "text", nil)
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "failed 4 times in a row") || !strings.Contains(err.Error(), "refusing to start") && !strings.Contains(err.Error(), "exit status 1") {
		t.Fatalf("a call to a failed server: %v", err)
	}
	clk.Advance(5 * time.Minute)
	next(Failed, 5*time.Minute)
	if st := m.Status()[0]; st.Restarts != 4 || st.Failures != 5 || !strings.Contains(st.StderrTail, "refusing to start") {
		t.Errorf("status after the slow retry: %+v", st)
	}
	// Revive tries a failed server at once.
	m.Revive()
	next(Failed, 5*time.Minute)
	if st := m.Status()[0]; st.Failures != 6 {
		t.Errorf("status after Revive: %+v", st)
	}
}

// TestNewEntryKeepsTools: a server restarted for a changed entry keeps its
// tools in the pool until it lists its own: the same tools change nothing;
// a disabled entry takes them away.
func TestNewEntryKeepsTools(t *testing.T) {
	rec := newRecorder()
	m := New(rec.options(&Options{}))
	defer m.Close()
	cfg := stdioConfig(t, fixture.Stdio)
	m.Connect(context.Background(), map[string]settings.ServerConfig{"fx": cfg})
	drain(rec.changes)
	cfg.Env = map[string]string{fixture.Env: fixture.Stdio, "CHANGED": "1"}
	m.Connect(context.Background(), map[string]settings.ServerConfig{"fx": cfg})
	if st := m.Status()[0]; st.State != Ready || st.ToolCount != len(fixture.Tools) || len(rec.changes) != 0 {
		t.Errorf("after a new entry: %+v, %d changes", st, len(rec.changes))
	}
	cfg.Disabled = true
	m.Connect(context.Background(), map[string]settings.ServerConfig{"fx": cfg})
	if st := m.Status()[0]; st.State != Disabled || len(m.Tools()) != 0 || len(rec.changes) != 1 {
		t.Errorf("after disabling: %+v, %d changes", st, len(rec.changes))
	}
}

// TestCallWaitsForRestart: a call made while its server restarts waits for
// it and goes through once it is back; a call whose timeout ends first
// fails saying the server is restarting, with its last error and which
// timeout fired.
func TestCallWaitsForRestart(t *testing.T) {
	rec := newRecorder()
	clk := newFakeClock()
	m := newManager(rec.options(&Options{}), clk)
	defer m.Close()
	m.Connect(context.Background(), map[string]settings.ServerConfig{"fx": stdioConfig(t, fixture.Stdio)})
	if _, err := m.Call(context.Background(), "fx", "crash", nil); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("crash: %v", err)
	}
	rec.until(t, "the crash to be recorded", func(st Status) bool { return st.State == Restarting && st.NextStart != nil })

	ctx, cancel := context.WithTimeoutCause(context.Background(), time.Millisecond, &TimeoutError{Server: "fx", Tool: "text", After: time.Millisecond, From: hintCallHost})
	defer cancel()
	_, err := m.Call(ctx, "fx", "text", nil)
	var timeout *TimeoutError
	if !errors.Is(err, ErrUnavailable) || !errors.As(err, &timeout) || !strings.Contains(err.Error(), "MCP server fx is restarting (last error: disconnected: the server process ended: exit status 3)") ||
		!strings.Contains(err.Error(), "its tool timeout") || !strings.Contains(err.Error(), "MCP_TOOL_TIMEOUT") {
		t.Errorf("a call that times out waiting: %v", err)
	}

	done := make(chan error, 1)
	go func() {
		out, err := m.Call(context.Background(), "fx", "text", nil)
		if err == nil && len(out.Text) != 2 {
			err = errors.New("wrong output")
		}
		done <- err
	}()
	waitFor(t, "the call to wait", func() bool { return m.Status()[0].WaitingCalls == 1 })
	startWhenDue(t, clk, m)
	if err := <-done; err != nil {
		t.Fatalf("the waiting call: %v", err)
	}
	if st := m.Status()[0]; st.State != Ready || st.Restarts != 1 || st.WaitingCalls != 0 {
		t.Errorf("status: %+v", st)
	}
}

// waitFor polls ok; the deadline is a hang guard.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited too long for %s", what)
		}
		time.Sleep(time.Millisecond) // polling, not waiting for an event
	}
}

// TestHTTPReconnect: an HTTP server that restarts is reconnected: the call
// that finds the old session gone is made again on a new one; a call made
// while the server is down waits for it and goes through once it is back.
// The tools stay in the pool throughout.
func TestHTTPReconnect(t *testing.T) {
	site, m, rec, clk := connectSite(t, "http", &Options{})

	// A server that restarted between calls: the call goes through (on
	// the old session, or made again on a new one), or fails if the
	// connection broke under it; then the server is reconnected.
	site.down()
	site.up()
	if err := <-callLater(m); err != nil {
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "it is being restarted") {
			t.Fatalf("the call after the server restarted: %v", err)
		}
		startWhenDue(t, clk, m)
		if err := <-callLater(m); err != nil {
			t.Fatalf("the call after the reconnection: %v", err)
		}
	}

	// A server that is down: the call that finds it gone fails if the
	// server may have received it (the connection broke under it) or, if
	// it cannot have (refused), waits for the server; so do later calls.
	site.down()
	first := callLater(m)
	waitFor(t, "the server to be found down", func() bool { return m.Status()[0].State == Restarting })
	done := callLater(m)
	var firstErr error
	firstDone := false
	waitFor(t, "the calls to wait for the server", func() bool {
		select {
		case firstErr = <-first:
			firstDone = true
		default:
		}
		w := m.Status()[0].WaitingCalls
		return w == 2 || firstDone && w == 1
	})
	if firstDone && (!errors.Is(firstErr, ErrUnavailable) || !strings.Contains(firstErr.Error(), "it is being restarted")) {
		t.Errorf("the call that found the server gone: %v", firstErr)
	}
	site.upAgain(m, clk, done)
	if !firstDone {
		if err := <-first; err != nil {
			t.Fatalf("the call refused by the server that was down: %v", err)
		}
	}
	if st := m.Status()[0]; st.State != Ready || st.Restarts == 0 || st.LastError == "" {
		t.Errorf("status: %+v", st)
	}
	if len(rec.changes) != 0 {
		t.Errorf("the reconnections changed the tools %d times", len(rec.changes))
	}
}

// TestSSEReconnect: an SSE server that goes away is found down when its
// event stream ends; a call made while it is down waits for it; once it is
// back, it is started again after its backoff and the call goes through.
// The tools stay in the pool throughout.
func TestSSEReconnect(t *testing.T) {
	site, m, rec, clk := connectSite(t, "sse", &Options{PingInterval: -1})
	site.down() // ends the event stream
	rec.until(t, "the server to be found down", func(st Status) bool { return st.State == Restarting })
	done := callLater(m)
	waitFor(t, "the call to wait for the server", func() bool { return m.Status()[0].WaitingCalls == 1 })
	site.upAgain(m, clk, done)
	if st := m.Status()[0]; st.State != Ready || st.Restarts != 1 || st.LastError == "" {
		t.Errorf("status: %+v", st)
	}
	if len(rec.changes) != 0 {
		t.Errorf("the reconnection changed the tools %d times", len(rec.changes))
	}
}

// fixtureSite serves a fresh fixture at one loopback address over HTTP or
// SSE; down and up take it away and bring a new one back at the same
// address, as a server that restarts.
type fixtureSite struct {
	t    *testing.T
	kind string // "http" or "sse", as in an mcpServers entry
	addr string
	hs   *http.Server
}

// connectSite serves a fixture over kind and connects a manager with opts,
// on a fake clock, to it as server "fx"; the manager, then the server,
// close when the test ends.
func connectSite(t *testing.T, kind string, opts *Options) (*fixtureSite, *Manager, *recorder, *fakeClock) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	site := &fixtureSite{t: t, kind: kind, addr: ln.Addr().String()}
	site.serve(ln)
	t.Cleanup(site.down)
	rec, clk := newRecorder(), newFakeClock()
	m := newManager(rec.options(opts), clk)
	t.Cleanup(func() { m.Close() })
	path := map[string]string{"http": "/mcp", "sse": "/sse"}[kind]
	m.Connect(context.Background(), map[string]settings.ServerConfig{"fx": {Type: kind, URL: "http://" + site.addr + path}})
	drain(rec.changes)
	return site, m, rec, clk
}

func (s *fixtureSite) serve(ln net.Listener) {
	mcp := fixture.New(false).Server
	var h http.Handler = server.NewStreamableHTTPServer(mcp)
	if s.kind == "sse" {
		h = server.NewSSEServer(mcp)
	}
	s.hs = &http.Server{Handler: h}
	go s.hs.Serve(ln)
}

// down closes the server and its connections.
func (s *fixtureSite) down() { s.hs.Close() }

// up serves a fresh fixture at the same address.
func (s *fixtureSite) up() {
	s.t.Helper()
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		s.t.Fatal(err)
	}
	s.serve(ln)
}

// upAgain checks that m kept the server's tools while it was down, serves
// it again and waits for done, a call made meanwhile, to go through.
func (s *fixtureSite) upAgain(m *Manager, clk *fakeClock, done <-chan error) {
	s.t.Helper()
	if len(m.Tools()) != len(fixture.Tools) {
		s.t.Errorf("the tools left the pool while the server was down")
	}
	s.up()
	startWhenDue(s.t, clk, m)
	if err := <-done; err != nil {
		s.t.Fatalf("the call made while the server was down: %v", err)
	}
}

// callLater calls fx's text tool on m in the background; the channel
// gets its error.
func callLater(m *Manager) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, err := m.Call(context.Background(), "fx", "text", nil)
		done <- err
	}()
	return done
}

// startWhenDue advances the clock to the first server's next start, once
// it is scheduled.
func startWhenDue(t *testing.T, clk *fakeClock, m *Manager) {
	t.Helper()
	waitFor(t, "the next start to be scheduled", func() bool { return m.Status()[0].NextStart != nil })
	clk.Advance(m.Status()[0].NextStart.Sub(clk.Now()))
}

// TestTimeouts: the start and call timeouts come from a server's entry,
// else Options, else MCP_TIMEOUT and MCP_TOOL_TIMEOUT, else the defaults;
// a call past its timeout says which one fired and how to raise it.
func TestTimeouts(t *testing.T) {
	env := map[string]string{EnvStartTimeout: "45000", EnvCallTimeout: "250"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	cfg := stdioConfig(t, fixture.Stdio)
	own := cfg
	own.Timeout, own.StartupTimeout = 20, 60000
	for _, tc := range []struct {
		name        string
		opts        Options
		cfg         settings.ServerConfig
		start, call int64
		hint        string
	}{
		{"defaults", Options{}, cfg, 30000, 0, ""},
		{"env", Options{Lookup: lookup}, cfg, 45000, 250, "MCP_TOOL_TIMEOUT"},
		{"options", Options{Lookup: lookup, ConnectTimeout: time.Minute, CallTimeout: 30 * time.Millisecond}, cfg, 60000, 30, "--mcp-tool-timeout"},
		{"entry", Options{Lookup: lookup, CallTimeout: time.Minute}, own, 60000, 20, `"timeout" in its mcpServers entry: raise it there`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.opts.Lookup == nil {
				tc.opts.Lookup = func(string) (string, bool) { return "", false }
			}
			m := New(&tc.opts)
			defer m.Close()
			m.Connect(context.Background(), map[string]settings.ServerConfig{"fx": tc.cfg})
			st := m.Status()[0]
			if st.StartTimeoutMs != tc.start || st.CallTimeoutMs != tc.call {
				t.Fatalf("timeouts %d, %d; want %d, %d", st.StartTimeoutMs, st.CallTimeoutMs, tc.start, tc.call)
			}
			if tc.call == 0 {
				return
			}
			_, err := m.Call(context.Background(), "fx", "hang", json.RawMessage("{}"))
			var timeout *TimeoutError
			if !errors.As(err, &timeout) || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "did not finish within") || !strings.Contains(err.Error(), tc.hint) {
				t.Errorf("a hanging call: %v", err)
			}
		})
	}
	start := (&TimeoutError{Server: "fx", After: time.Second, From: hintStartHost}).Error()
	if !strings.Contains(start, "did not start within 1s") || !strings.Contains(start, "--mcp-timeout") || !strings.Contains(start, "MCP_TIMEOUT") {
		t.Errorf("the start timeout's message: %s", start)
	}
	bad := New(&Options{Lookup: func(k string) (string, bool) { return "soon", k == EnvCallTimeout }, OnReport: func(r Report) {
		if !strings.Contains(r.Err.Error(), `MCP_TOOL_TIMEOUT="soon" is not a positive number of milliseconds`) {
			t.Errorf("report: %v", r)
		}
	}})
	bad.Close()
}

// TestProgressOrder: a call made with a progress sink sends its server a
// token, and the server's notifications reach the sink in order: over
// stdio every one; over HTTP, where the server sends some on its standing
// stream, those that come late are dropped, never delivered out of order.
// A call without a sink sends no token.
func TestProgressOrder(t *testing.T) {
	for _, tr := range transports[1:3] { // stdio and streamable HTTP
		t.Run(tr.name, func(t *testing.T) {
			m, _ := connect(t, tr, newRecorder())
			var mu sync.Mutex
			var got []string
			released := make(chan error, 1)
			ctx := WithProgress(context.Background(), func(p Progress) {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, p.Server+" "+p.Tool+" "+p.String())
				if p.Progress == p.Total {
					go func() {
						_, err := m.Call(context.Background(), "fx", "release", nil)
						released <- err
					}()
				}
			})
			out, err := m.Call(ctx, "fx", "progress", json.RawMessage(`{"n":20}`))
			if err != nil || !strings.HasPrefix(out.Text[0], "done, token execlua-") {
				t.Fatalf("progress: %+v, %v", out, err)
			}
			var want []string
			for i := 1; i <= 20; i++ {
				want = append(want, fmt.Sprintf("fx progress %d/20 step %d", i, i))
			}
			if err := <-released; err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			seen := slices.Clone(got)
			mu.Unlock()
			if tr.name == "http" {
				// In order: a subsequence of want.
				want = slices.DeleteFunc(want, func(w string) bool { return !slices.Contains(seen, w) })
			}
			if !slices.Equal(seen, want) {
				t.Errorf("progress seen:\n%v\nwant\n%v", seen, want)
			}
			out, err = m.Call(context.Background(), "fx", "progress", nil)
			if err != nil || out.Text[0] != "done, token <nil>" {
				t.Errorf("without a sink: %+v, %v", out, err)
			}
		})
	}
}

// TestNoLeaksAfterClose: a Manager closed while a server is restarting,
// another is waiting for its slow retry and calls wait leaves no goroutine
// and no child process behind.
func TestNoLeaksAfterClose(t *testing.T) {
	check := leaktest.Check(t)
	rec := newRecorder()
	m := New(rec.options(&Options{CrashLimit: 3, Backoff: time.Hour}))
	m.Connect(context.Background(), map[string]settings.ServerConfig{
		"fx":    stdioConfig(t, fixture.Stdio),
		"never": stdioConfig(t, fixture.Never),
	})
	if _, err := m.Call(context.Background(), "fx", "crash", nil); err == nil {
		t.Fatal("crash went through")
	}
	waiting := make(chan error, 1)
	go func() {
		_, err := m.Call(context.Background(), "never", "text", nil)
		waiting <- err
	}()
	waitFor(t, "the call to wait", func() bool {
		return slices.ContainsFunc(m.Status(), func(st Status) bool { return st.WaitingCalls == 1 })
	})
	m.Close()
	if err := <-waiting; !errors.Is(err, ErrUnavailable) {
		t.Errorf("a call waiting at Close: %v", err)
	}
	check()
}

// TestHTTPPing: an idle HTTP server that stops answering is found by its
// ping, with no call made, and reconnected once it answers again.
func TestHTTPPing(t *testing.T) {
	rec := newRecorder()
	clk := newFakeClock()
	var hung atomic.Bool
	stop := make(chan struct{})
	mcpHandler := server.NewStreamableHTTPServer(fixture.New(false).Server)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hung.Load() && r.Method == http.MethodPost {
			select { // accepts the request, never answers
			case <-r.Context().Done():
			case <-stop:
			}
			return
		}
		mcpHandler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	defer close(stop)
	cfg := settings.ServerConfig{Type: "http", URL: srv.URL + "/mcp", StartupTimeout: 200}
	m := newManager(rec.options(&Options{PingInterval: time.Minute}), clk)
	defer m.Close()
	m.Connect(context.Background(), map[string]settings.ServerConfig{"fx": cfg})
	clk.Advance(time.Minute) // a ping that is answered changes nothing
	waitFor(t, "the next ping to be scheduled", func() bool { return clk.pending() == 1 })
	hung.Store(true)
	clk.Advance(time.Minute)
	st := rec.until(t, "the ping to fail", func(st Status) bool { return st.State == Restarting && st.NextStart != nil })
	if !strings.Contains(st.LastError, "ping failed: the server did not answer a ping within 200ms") {
		t.Errorf("status after the failed ping: %+v", st)
	}
	hung.Store(false)
	startWhenDue(t, clk, m)
	rec.until(t, "the reconnection", func(st Status) bool { return st.State == Ready })
	if _, err := m.Call(context.Background(), "fx", "text", nil); err != nil {
		t.Errorf("after the reconnection: %v", err)
	}
}
