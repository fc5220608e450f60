package serve_test

import (
	"testing"
)

// BenchmarkExecOverHTTP is one Exec call from a client over loopback HTTP
// whose script makes one nested call to an in-process server.
func BenchmarkExecOverHTTP(b *testing.B) {
	url, _, _ := fleet(b)
	c, _ := connect(b, url)
	for b.Loop() {
		if got := texts(execCall(b, c, `return tools.mcp__demo__echo{ a = 1 }`, false)); got[0] != `{"a":1}` {
			b.Fatalf("Exec = %q", got)
		}
	}
}
