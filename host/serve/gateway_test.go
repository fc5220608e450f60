package serve_test

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/execlua/execlua"

	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/gateway"
	"github.com/execlua/execlua/host/internal/fixture"
	"github.com/execlua/execlua/host/serve"
	"github.com/execlua/execlua/host/servers"
	"github.com/execlua/execlua/host/settings"
	"github.com/execlua/execlua/internal/leaktest"
)

// serveGateway serves s as serve --http does: through package gateway's
// guard (loopback, Origin, bearer tokens, body and run limits) and its
// http.Server with its timeouts, on a loopback listener. It returns the
// /mcp endpoint and a stop that shuts the gateway down (cancelling the
// runs left at once); the test's end stops it too.
func serveGateway(t testing.TB, s *serve.Server, opts *gateway.Options) (url string, stop func()) {
	t.Helper()
	gw, err := gateway.New(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- gw.Serve(ln) }()
	stop = sync.OnceFunc(func() {
		// A connection the clients' transport opened and never sent a
		// request on would hold Shutdown for 5 s (net/http's rule).
		http.DefaultClient.CloseIdleConnections()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := gw.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	t.Cleanup(stop)
	return "http://" + ln.Addr().String() + "/mcp", stop
}

// bearer is a client option sending token, as a gateway with tokens
// requires.
func bearer(token string) transport.StreamableHTTPCOption {
	return transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token})
}

// TestExecOfferedBeforeAnyServerConnects: a gateway with servers configured
// offers Exec even while none of them has connected (POOL-3 keeps an empty
// pool's Exec out of a model's tools[]; a gateway's clients list their
// tools once). Exec then says where each server is: its state, last error,
// stderr and next try. Once the server starts, its tools are callable from
// the same client, without a reconnect or a new tools/list. A call made
// while it restarts waits, and past its timeout fails saying the server is
// restarting (POOL-10: the tools stay in the pool, the call cannot get
// through). Over the whole serve --http stack with a bearer token, and a
// real stdio server.
func TestExecOfferedBeforeAnyServerConnects(t *testing.T) {
	check := leaktest.Check(t)
	dir := t.TempDir()
	gate := filepath.Join(dir, "configured")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The server refuses to start until the gate file exists.
	script := filepath.Join(dir, "late.sh")
	writeFile(t, script, "#!/bin/sh\n[ -e \"$GATE\" ] || { echo 'late: not configured yet' >&2; exit 1; }\nexec \"$FIXTURE\"\n")
	if err := os.Chmod(script, 0o700); err != nil {
		t.Fatal(err)
	}
	settingsFile := filepath.Join(dir, "settings.json")
	writeFile(t, settingsFile, `{"permissions": {"allow": ["mcp__late"]}}`)
	states := make(chan host.ServerStatus, 1000)
	changed := make(chan struct{}, 1000)
	h, s := startServer(t, &host.Options{
		Servers: map[string]host.ServerConfig{"late": {Command: script,
			Env: map[string]string{"GATE": gate, "FIXTURE": exe, fixture.Env: fixture.Stdio}}},
		Settings:      settings.Paths{User: settingsFile},
		CallTimeout:   2 * time.Second, // how long a call waits for a restart
		OnServerState: func(st host.ServerStatus) { states <- st },
		OnChange:      func() { changed <- struct{}{} },
	})
	url, stop := serveGateway(t, s, &gateway.Options{Tokens: []string{"tok"}})
	c, _ := connect(t, url, bearer("tok"))
	listed := toolNames(t, c)
	if !slices.Equal(listed, []string{"Exec"}) {
		t.Fatalf("tools/list before any server connected = %v, want Exec", listed)
	}

	const call = `return tools.mcp__late__echo{ n = 1 }`
	res := execCall(t, c, call, false)
	got := strings.Join(texts(res), "\n")
	for _, want := range []string{"Exec did not run: no MCP server has given Exec any tools yet", "- late (stdio): ", "late: not configured yet", "(last error: ", "; retried "} {
		if !res.IsError || !strings.Contains(got, want) {
			t.Errorf("Exec before the server started: %q (error %v), want %q in it", got, res.IsError, want)
		}
	}

	for len(changed) > 0 {
		<-changed
	}
	writeFile(t, gate, "")
	waitReady(t, h, states)
	<-changed // the server's tools reached the host's sessions (they follow its state)
	got = strings.Join(texts(execCall(t, c, call, false)), "\n")
	if !strings.HasSuffix(got, `{"n":1}`) || !strings.Contains(got, "mcp__late__echo") {
		t.Errorf("Exec once the server started = %q, want the announcement then the call's result", got)
	}
	// The fixture's one alwaysLoad tool joins tools[] flat; Exec stays.
	listed = toolNames(t, c)
	if want := []string{"Exec", "mcp__late__meta"}; !slices.Equal(listed, want) {
		t.Errorf("tools/list once the server started = %v, want %v", listed, want)
	}

	// POOL-10 through a restart: the server exits and cannot start again.
	if err := os.Remove(gate); err != nil {
		t.Fatal(err)
	}
	got = strings.Join(texts(execCall(t, c, `pcall(tools.mcp__late__crash)
local ok, err = pcall(tools.mcp__late__echo, { n = 2 })
return err`, false)), "\n")
	if !strings.Contains(got, "MCP server late is restarting") || !strings.Contains(got, "stopped waiting for it") {
		t.Errorf("a call while the server restarts = %q, want it to say the server is restarting", got)
	}
	if now := toolNames(t, c); !slices.Equal(now, listed) {
		t.Errorf("tools/list changed from %v to %v through the restart", listed, now)
	}
	c.Close()
	stop()
	h.Close()
	check()
}

// A nested call's server progress reaches the client that sent a
// progress token with its Exec call, through the gateway, as lines of the
// live summary, in order and before the result (SUM-4).
func TestServerProgressReachesTheClient(t *testing.T) {
	h, s := startServer(t, &host.Options{InProcess: map[string]*server.MCPServer{"fx": fixture.New(false).Server}})
	url, _ := serveGateway(t, s, &gateway.Options{Tokens: []string{"tok"}})
	c, _ := connect(t, url, bearer("tok"))
	watch := fixture.WatchProgress(3, func() error {
		_, err := h.Call(context.Background(), execlua.Call{Name: "mcp__fx__release"})
		return err
	})
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			msg, _ := n.Params.AdditionalFields["message"].(string)
			watch.See(msg)
		}
	})
	res := execCall(t, c, `return tools.mcp__fx__progress{ n = 3 }`, true)
	if txt := texts(res); res.IsError || !strings.Contains(txt[len(txt)-1], "done") {
		t.Fatalf("Exec = %q", txt)
	}
	watch.Check(t)
}

// waitReady starts the host's servers again until they are all ready: at
// once (Revive), and once more after every start that failed.
func waitReady(t *testing.T, h *host.Host, states <-chan host.ServerStatus) {
	t.Helper()
	hang := time.After(2 * time.Minute) // a guard against a hang only
	for slices.ContainsFunc(h.Servers(), func(st host.ServerStatus) bool { return st.State != servers.Ready }) {
		h.Revive()
		select {
		case <-states:
		case <-hang:
			t.Fatalf("the servers never became ready: %+v", h.Servers())
		}
	}
}

func writeFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}
