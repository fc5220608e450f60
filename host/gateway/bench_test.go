package gateway_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/execlua/execlua/internal/cputime"
)

// BenchmarkGatewayOverhead is one Exec call whose script makes one nested
// call to an in-process server, made both ways in each iteration: through
// the gateway over loopback HTTP by mcp-go's client (guard, streamable
// HTTP, JSON-RPC, the host's Exec hooks and permission check, metrics), and
// by a direct Session.Run in the same process. It reports the CPU of each
// per Exec (client and gateway together for HTTP) and their ratio,
// x-direct: the gateway's overhead per Exec.
func BenchmarkGatewayOverhead(b *testing.B) {
	const batch = 20 // Execs of each kind per measurement, above the CPU clock's grain
	r := start(b, rigOptions{})
	const code = `return tools.mcp__demo__echo{ a = 1 }.a`
	s, err := r.host.NewSession(nil)
	if err != nil {
		b.Fatal(err)
	}
	input := json.RawMessage(`{"code":` + quote(code) + `}`)
	direct := func() {
		for range batch {
			if res := s.Run(context.Background(), input, nil); res.Text != "1" {
				b.Fatalf("Run = %q", res.Text)
			}
		}
	}
	c := mustDial(b, r.url, nil)
	overHTTP := func() {
		for range batch {
			if text, _ := exec(b, c, code); text != "1" {
				b.Fatalf("Exec = %q", text)
			}
		}
	}
	direct() // warm both paths: the first runs build the states and connections
	overHTTP()
	var directCPU, httpCPU time.Duration
	for b.Loop() {
		directCPU += cputime.Spent(b, direct)
		httpCPU += cputime.Spent(b, overHTTP)
	}
	execs := float64(b.N * batch)
	b.ReportMetric(float64(directCPU.Nanoseconds())/execs, "direct-cpu-ns/exec")
	b.ReportMetric(float64(httpCPU.Nanoseconds())/execs, "http-cpu-ns/exec")
	b.ReportMetric(float64(httpCPU)/float64(directCPU), "x-direct")
}

func quote(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}
