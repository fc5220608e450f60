package serve_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"

	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/gateway"
	"github.com/execlua/execlua/host/internal/fixture"
	"github.com/execlua/execlua/host/internal/soak"
	"github.com/execlua/execlua/host/settings"
	"github.com/execlua/execlua/internal/heapwatch"
	"github.com/execlua/execlua/internal/leaktest"
)

func TestMain(m *testing.M) {
	if fixture.Main() { // the stdio servers of the soak
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestServeSoak: serve --http's whole stack (the gateway's guard with
// bearer tokens, its http.Server and timeouts) in front of stdio servers
// that crash and hang at random and an HTTP server that is stopped and
// started again, with several clients on the real mcp-go client, each
// with its own token, running Exec at once. Every Exec is answered, one
// line per call of its script (a result or a clear error, never a hang
// past the call timeout); the servers work again afterwards; nothing is
// left running. It logs the figures of the README's soak line.
// EXECLUA_SOAK sets the runs per client (make soak).
func TestServeSoak(t *testing.T) {
	check := leaktest.Check(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	web, err := fixture.ServeHTTP()
	if err != nil {
		t.Fatal(err)
	}
	stdio := host.ServerConfig{Command: exe, Env: map[string]string{fixture.Env: fixture.Stdio}}
	file := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(file, []byte(`{"permissions": {"allow": ["mcp__s1", "mcp__s2", "mcp__web"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	h, s := startServer(t, &host.Options{
		Servers:     map[string]host.ServerConfig{"s1": stdio, "s2": stdio, "web": {Type: "http", URL: web.URL()}},
		Settings:    settings.Paths{User: file},
		CallTimeout: 2 * time.Second, // ends the hanging calls
	})
	const clients, calls = 3, 4
	tokens := []string{"token-a", "token-b", "token-c"}
	url, stop := serveGateway(t, s, &gateway.Options{Tokens: tokens})

	runs := soak.Runs(t, 8)
	var mu sync.Mutex
	var took []time.Duration
	var heapPeak uint64
	tally := map[string]int{}
	var wg sync.WaitGroup
	var open []*client.Client
	for i := range clients {
		c, _ := connect(t, url, bearer(tokens[i]))
		open = append(open, c)
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), 2))
			for run := range runs {
				if i == 0 && run%3 == 2 {
					web.Restart()
				}
				start := time.Now()
				res := execCall(t, c, soak.Script(rng, calls, "s1", "s2", "web"), false)
				d := time.Since(start)
				mu.Lock()
				took, heapPeak = append(took, d), max(heapPeak, heapwatch.Objects())
				countCalls(t, tally, texts(res), calls)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	slices.Sort(took)
	t.Logf("%d Exec over HTTP, calls: %v, restarts: %v; Exec latency p50 %v, p99 %v; heap peak %d MiB",
		len(took), tally, soak.Restarts(h), took[len(took)/2], took[len(took)*99/100], heapPeak>>20)
	if tally["ok"] == 0 {
		t.Errorf("no call went through: %v", tally)
	}
	c, _ := connect(t, url, bearer(tokens[0]))
	open = append(open, c)
	after := `return tools.mcp__s1__echo{ n = 1 }, tools.mcp__s2__echo{ n = 2 }, tools.mcp__web__echo{ n = 3 }`
	if got := texts(execCall(t, c, after, false)); len(got) != 1 || got[0] != `[{"n":1},{"n":2},{"n":3}]` {
		t.Errorf("after the soak: %q", got)
	}
	for _, c := range open { // their listening streams hold the server open
		c.Close()
	}
	stop()
	h.Close()
	web.Close()
	check()
}

// countCalls tallies how an Exec's calls ended: its last text block (what
// comes before it is an announcement) has one line per call.
func countCalls(t *testing.T, tally map[string]int, blocks []string, calls int) {
	t.Helper()
	if len(blocks) == 0 {
		t.Errorf("an Exec came back empty")
		return
	}
	lines := strings.Split(strings.TrimSpace(blocks[len(blocks)-1]), "\n")
	if len(lines) != calls {
		t.Errorf("an Exec answered %d calls of %d: %q", len(lines), calls, blocks)
	}
	for _, line := range lines {
		switch {
		case line == "ok":
			tally["ok"]++
		case strings.Contains(line, "did not finish within"), strings.Contains(line, "timeout"):
			tally["timeout"]++
		case strings.Contains(line, "restart"), strings.Contains(line, "disconnect"), strings.Contains(line, "closed"), strings.Contains(line, "exited"):
			tally["server down"]++
		default:
			tally["other: "+line]++
		}
	}
}
