package host_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/internal/fixture"
	"github.com/execlua/execlua/host/internal/soak"
	"github.com/execlua/execlua/internal/heapwatch"
	"github.com/execlua/execlua/internal/leaktest"
)

// TestSoak: three stdio servers that crash and hang at random, and an HTTP
// server that is stopped and started again, under concurrent runs. Every
// run is answered (each of its calls with a result or an error); tools[]
// never changes; afterwards every server's tools work again; closing the
// host leaves no goroutine or child process behind.
func TestSoak(t *testing.T) {
	check := leaktest.Check(t)
	web, err := fixture.ServeHTTP()
	if err != nil {
		t.Fatal(err)
	}
	stdio := stdioConfig(t)
	h, err := host.New(context.Background(), &host.Options{
		Servers: map[string]host.ServerConfig{"s1": stdio, "s2": stdio, "s3": stdio,
			"web": {Type: "http", URL: web.URL()}},
		Settings:    settingsWith(t, `{"permissions": {"allow": ["mcp__s1", "mcp__s2", "mcp__s3", "mcp__web"]}}`),
		NoWatch:     true,
		CallTimeout: 2 * time.Second, // ends the hanging calls
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := h.NewSession(nil)
	if err != nil {
		t.Fatal(err)
	}
	declared := s.Request(nil)

	const workers, callsPerRun = 4, 5
	runs := soak.Runs(t, 12)
	var mu sync.Mutex
	tally := map[string]int{}
	var took []time.Duration // each run's, for the report only
	var heapPeak uint64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			for i := range runs {
				if w == 0 && i%5 == 4 {
					web.Restart()
				}
				input, _ := json.Marshal(map[string]string{"code": soak.Script(rng, callsPerRun, "s1", "s2", "s3", "web")})
				start := time.Now()
				res := h.RunExec(context.Background(), s, input, nil)
				d := time.Since(start)
				heap := heapwatch.Objects()
				mu.Lock()
				tallyRun(t, tally, res, callsPerRun)
				took, heapPeak = append(took, d), max(heapPeak, heap)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	slices.Sort(took)
	t.Logf("%d runs, calls: %v, restarts: %v; run latency p50 %v, p99 %v; heap peak %d MiB",
		workers*runs, tally, soak.Restarts(h), took[len(took)/2], took[len(took)*99/100], heapPeak>>20)
	if tally["ok"] == 0 {
		t.Errorf("no call went through: %v", tally)
	}
	if now := s.Request(nil); !cmp.Equal(now.Tools, declared.Tools) || now.Announcement.Text != declared.Announcement.Text {
		t.Errorf("tools[] or the announcement changed")
	}
	for _, name := range []string{"s1", "s2", "s3", "web"} {
		if _, err := h.Call(context.Background(), execlua.Call{Name: "mcp__" + name + "__text"}); err != nil {
			t.Errorf("%s after the soak: %v", name, err)
		}
	}
	h.Close()
	web.Close()
	check()
}

// tallyRun counts how a run's calls ended; a run must end with one line
// per call.
func tallyRun(t *testing.T, tally map[string]int, res execlua.Result, calls int) {
	if res.IsError {
		t.Errorf("a run failed: %s", res.Text)
		return
	}
	lines := strings.Split(strings.TrimSpace(res.Text), "\n")
	if len(lines) != calls {
		t.Errorf("a run answered %d calls of %d:\n%s", len(lines), calls, res.Text)
	}
	for _, line := range lines {
		switch {
		case line == "ok":
			tally["ok"]++
		case strings.Contains(line, "did not finish within"):
			tally["timeout"]++
		case strings.Contains(line, "disconnected during the call"):
			tally["disconnected"]++
		case strings.Contains(line, "stopped waiting"):
			tally["waited too long"]++
		default:
			tally["other"]++
			t.Errorf("a call ended with an unclear error: %s", line)
		}
	}
}
