package servers

import (
	"context"
	"net/http/httptest"
	"os"
	"testing"

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

// recorder collects a manager's reports and change signals.
type recorder struct {
	changes chan struct{}
	reports chan Report
}

func newRecorder() *recorder {
	return &recorder{changes: make(chan struct{}, 100), reports: make(chan Report, 100)}
}

func (r *recorder) options(o *Options) *Options {
	o.OnChange = func() { r.changes <- struct{}{} }
	o.OnReport = func(rep Report) { r.reports <- rep }
	return o
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
