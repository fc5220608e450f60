package gateway_test

import (
	"context"
	"encoding/json"
	"testing"
)

// BenchmarkGatewayOverhead is one Exec call whose script makes one nested
// call to an in-process server: through the gateway over loopback HTTP by
// mcp-go's client (guard, metrics, streamable HTTP, JSON-RPC), and by a
// direct Session.Run in the same process. Their ratio is the gateway's
// overhead per Exec.
func BenchmarkGatewayOverhead(b *testing.B) {
	r := start(b, rigOptions{})
	const code = `return tools.mcp__demo__echo{ a = 1 }.a`
	b.Run("direct", func(b *testing.B) {
		s, err := r.host.NewSession(nil)
		if err != nil {
			b.Fatal(err)
		}
		input := json.RawMessage(`{"code":` + quote(code) + `}`)
		for b.Loop() {
			if res := s.Run(context.Background(), input, nil); res.Text != "1" {
				b.Fatalf("Run = %q", res.Text)
			}
		}
	})
	b.Run("http", func(b *testing.B) {
		c := mustDial(b, r.url, nil)
		for b.Loop() {
			if text, _ := exec(b, c, code); text != "1" {
				b.Fatalf("Exec = %q", text)
			}
		}
	})
}

func quote(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}
