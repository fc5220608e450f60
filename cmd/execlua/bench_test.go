package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/internal/cputime"
)

// A nested call through `execlua run --demo` to the in-process demo
// server (the MCP client and server of mcp-go, the host's funnel with its
// rules and hooks, the live summary), beside the same call through the
// library with a funnel that answers at once, in one run: CPU per call,
// each the difference between a script of many calls and one of few, and
// the CLI's as a multiple of the library's (x-library).
func BenchmarkDemoCall(b *testing.B) {
	const calls = 500
	dir := b.TempDir()
	b.Setenv("HOME", dir)
	cli := func(n int) func() {
		path := filepath.Join(dir, fmt.Sprint(n, ".lua"))
		code := fmt.Sprintf(`for i = 1, %d do tools.mcp__demo__echo{ i = i } end return 1`, n)
		if err := os.WriteFile(path, []byte(code), 0o644); err != nil {
			b.Fatal(err)
		}
		return func() {
			var out, errs bytes.Buffer
			if status := run([]string{"execlua", "run", "--demo", "--yes", "--max-calls", "100000", path}, strings.NewReader(""), &out, &errs); status != 0 {
				b.Fatalf("exit status %d: %s%s", status, out.String(), errs.String())
			}
		}
	}
	echo := execlua.FunnelFunc(func(_ context.Context, c execlua.Call) (execlua.Output, error) {
		return execlua.Output{Structured: c.Args}, nil
	})
	tool := execlua.NewBuiltinTool("echo", "Echoes.", nil)
	tool.ShouldDefer = true
	s, err := execlua.New(echo, &execlua.Options{Tools: []execlua.Tool{tool}})
	if err != nil {
		b.Fatal(err)
	}
	s.Request(nil)
	lib := func(n int) func() {
		input := fmt.Appendf(nil, `{"code":"for i = 1, %d do tools.echo{ i = i } end return 1"}`, n)
		return func() {
			if res := s.Run(context.Background(), input, &execlua.RunOptions{MaxCalls: calls}); res.IsError {
				b.Fatal(res.Text)
			}
		}
	}
	perCall := func(many, few func()) time.Duration {
		return (cputime.Spent(b, many) - cputime.Spent(b, few)) / (calls - 1)
	}
	cliMany, cliFew, libMany, libFew := cli(calls), cli(1), lib(calls), lib(1)
	var cliCPU, libCPU time.Duration
	for range b.N {
		cliCPU += perCall(cliMany, cliFew)
		libCPU += perCall(libMany, libFew)
	}
	b.ReportMetric(float64(cliCPU.Nanoseconds())/float64(b.N), "cli-cpu-ns/call")
	b.ReportMetric(float64(libCPU.Nanoseconds())/float64(b.N), "lib-cpu-ns/call")
	b.ReportMetric(float64(cliCPU)/float64(libCPU), "x-library")
}
