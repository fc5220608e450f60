package pool_test

import (
	"testing"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/internal/realpool"
	"github.com/execlua/execlua/pool"
)

func realTools(b *testing.B, listings []realpool.Listing) []pool.Tool {
	var tools []pool.Tool
	for _, l := range listings {
		t, err := execlua.NewMCPTool(l.Server, l.Entry)
		if err != nil {
			b.Fatal(err)
		}
		tools = append(tools, t)
	}
	return tools
}

// Assembling 10,000 real MCP tools from scratch, beside BenchmarkAssemble1000.
func BenchmarkAssembleReal10k(b *testing.B) {
	tools := realTools(b, realpool.Pool(10_000))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := pool.Assemble(tools, execlua.Declaration(), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// Reassembling 10,000 real tools after a 24-tool server joined, after it
// left, and with nothing changed: what follows the change.
func BenchmarkReassembleReal10k(b *testing.B) {
	base := realTools(b, realpool.Pool(10_000))
	joined := append(base[:len(base):len(base)], realTools(b, realpool.Server("playwright", "late"))...)
	for _, bc := range []struct {
		name     string
		from, to []pool.Tool
	}{{"join", base, joined}, {"leave", joined, base}, {"same", base, base}} {
		b.Run(bc.name, func(b *testing.B) {
			from, err := pool.Assemble(bc.from, execlua.Declaration(), nil)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := from.Reassemble(bc.to); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
