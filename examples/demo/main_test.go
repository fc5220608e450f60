package main

import (
	"strings"
	"testing"
)

// The demo is what `make demo` runs: it must keep working and keep showing
// what it claims.
func TestDemo(t *testing.T) {
	var out strings.Builder
	if code := run(&out); code != 0 {
		t.Fatalf("exit code %d:\n%s", code, out.String())
	}
	for _, want := range []string{
		"tools[] (",
		"mcp__weather__current\n",
		"nothing appended: the pool is unchanged",
		"Return value:\n{\"created\":16,\"open\":2}",
		"... 5 tool calls\nmcp__weather__current\nmcp__github__create_issue",
		"mcp__weather__current is not reachable",
		"ran over its execution budget (200ms",
		"-- for the host: 2 printed lines, value {\"created\":16,\"open\":2} --",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	// tools[] never changes while servers come and go.
	var sizes []string
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "tools[] (") {
			sizes = append(sizes, line)
		}
	}
	if len(sizes) != 3 || sizes[0] != sizes[1] || sizes[1] != sizes[2] {
		t.Errorf("tools[] lines differ: %q", sizes)
	}
}
