package servers

import (
	"context"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/execlua/execlua/host/internal/fixture"
	"github.com/execlua/execlua/host/settings"
	"github.com/mark3labs/mcp-go/server"
)

func TestMain(m *testing.M) {
	if fixture.Main() {
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// way is one way of reaching the fixture.
type way struct {
	name string
	// setup returns the manager options and configs that reach a fresh
	// fixture as server "fx", and the fixture when it runs in this
	// process.
	setup func(t *testing.T) (map[string]*server.MCPServer, map[string]settings.ServerConfig, *fixture.Fixture)
}

var transports = []way{
	{"in-process", func(t *testing.T) (map[string]*server.MCPServer, map[string]settings.ServerConfig, *fixture.Fixture) {
		f := fixture.New(false)
		return map[string]*server.MCPServer{"fx": f.Server}, nil, f
	}},
	{"stdio", func(t *testing.T) (map[string]*server.MCPServer, map[string]settings.ServerConfig, *fixture.Fixture) {
		return nil, map[string]settings.ServerConfig{"fx": stdioConfig(t, fixture.Stdio)}, nil
	}},
	{"http", func(t *testing.T) (map[string]*server.MCPServer, map[string]settings.ServerConfig, *fixture.Fixture) {
		f := fixture.New(false)
		srv := httptest.NewServer(server.NewStreamableHTTPServer(f.Server))
		t.Cleanup(srv.Close)
		return nil, map[string]settings.ServerConfig{"fx": {Type: "http", URL: srv.URL + "/mcp"}}, f
	}},
	{"sse", func(t *testing.T) (map[string]*server.MCPServer, map[string]settings.ServerConfig, *fixture.Fixture) {
		f := fixture.New(false)
		srv := httptest.NewServer(server.NewSSEServer(f.Server))
		t.Cleanup(srv.Close)
		return nil, map[string]settings.ServerConfig{"fx": {Type: "sse", URL: srv.URL + "/sse"}}, f
	}},
}

// stdioConfig runs this test binary as a fixture process of the given
// kind.
func stdioConfig(t testing.TB, kind string) settings.ServerConfig {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return settings.ServerConfig{Command: exe, Env: map[string]string{fixture.Env: kind}}
}

// recorder collects a manager's reports, change signals and states.
type recorder struct {
	changes chan struct{}
	reports chan Report
	states  chan Status
}

func newRecorder() *recorder {
	return &recorder{changes: make(chan struct{}, 100), reports: make(chan Report, 100), states: make(chan Status, 1000)}
}

func (r *recorder) options(o *Options) *Options {
	o.OnChange = func() { r.changes <- struct{}{} }
	o.OnReport = func(rep Report) { r.reports <- rep }
	o.OnState = func(st Status) { r.states <- st }
	return o
}

// until waits for a state change that ok accepts; the deadline is a hang
// guard.
func (r *recorder) until(t *testing.T, what string, ok func(Status) bool) Status {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case st := <-r.states:
			if ok(st) {
				return st
			}
		case <-deadline:
			t.Fatalf("no state change for %s", what)
		}
	}
}

// fakeClock is a clock whose timers fire only when the test advances it.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	at   time.Time
	f    func()
	done bool
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1e9, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) stopper {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return stopFunc(func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !t.done
		t.done = true
		return was
	})
}

type stopFunc func() bool

func (f stopFunc) Stop() bool { return f() }

// pending counts the timers not yet fired or stopped.
func (c *fakeClock) pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if !t.done {
			n++
		}
	}
	return n
}

// Advance moves the time on by d and fires the timers then due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []func()
	for _, t := range c.timers {
		if !t.done && !t.at.After(c.now) {
			t.done = true
			due = append(due, t.f)
		}
	}
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

// connect starts a manager over tr and closes it when the test ends.
func connect(t *testing.T, tr way, rec *recorder) (*Manager, *fixture.Fixture) {
	t.Helper()
	inproc, configs, f := tr.setup(t)
	m := New(rec.options(&Options{InProcess: inproc}))
	t.Cleanup(func() { m.Close() })
	m.Connect(context.Background(), configs)
	return m, f
}
