package execlua

import (
	"testing"
	"time"

	"github.com/execlua/execlua/announce"
	"github.com/execlua/execlua/host/preset"
	"github.com/execlua/execlua/internal/cputime"
	"github.com/execlua/execlua/internal/realpool"
	"github.com/execlua/execlua/search"
)

// realTools is the preset builtins and n real MCP tools (package realpool):
// what a host with many real servers registers.
func realTools(tb testing.TB, listings []realpool.Listing) []Tool {
	tb.Helper()
	tools := preset.Builtins()
	for _, l := range listings {
		t, err := NewMCPTool(l.Server, l.Entry)
		if err != nil {
			tb.Fatal(err)
		}
		tools = append(tools, t)
	}
	return tools
}

// realRegistry is a 10,000-tool real pool, and the same pool with a
// 24-tool server (playwright, as "late") joined at the end.
func realRegistry(tb testing.TB) (base, joined []Tool) {
	base = realTools(tb, realpool.Pool(10_000))
	late := realTools(tb, realpool.Server("playwright", "late"))[len(preset.Builtins()):]
	joined = append(base[:len(base):len(base)], late...)
	return base, joined
}

func realOptions(tools []Tool) *Options {
	return &Options{Tools: tools, Exempt: preset.Exempt(), Guidance: testGuidance}
}

// A session made with a 10,000-tool real pool (target ≤ 60 ms), with the
// search index's share of its CPU time (the index built again from the
// session's pool, timed alone: package search's cost) and execlua's own.
func BenchmarkNewReal10k(b *testing.B) {
	base, _ := realRegistry(b)
	b.ReportAllocs()
	var total, index time.Duration
	for range b.N {
		total -= cputime.Now(b)
		s := newSession(b, &fakeFunnel{}, realOptions(base))
		total += cputime.Now(b)
		b.StopTimer()
		start := cputime.Now(b)
		search.NewIndex(nil).Update(s.cur.Load().asm.Pool())
		index += cputime.Now(b) - start
		b.StartTimer()
	}
	perOp := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) }
	b.ReportMetric(perOp(total), "cpu-ns/op")
	b.ReportMetric(perOp(index), "index-cpu-ns/op")
	b.ReportMetric(perOp(total-index), "own-cpu-ns/op")
}

// A 24-tool server joining a 10,000-tool real pool, leaving it, and
// SetTools with the registry unchanged (target ≤ 0.5 ms each). Besides
// SetTools' CPU time it reports the search index's share of it (the same
// Index.WithServer calls again, timed alone: package search's cost),
// execlua's own (the rest), and the first request after the change, which
// renders the new announcement.
func BenchmarkSetToolsReal10k(b *testing.B) {
	base, joined := realRegistry(b)
	s := newSession(b, &fakeFunnel{}, realOptions(base))
	s.Request(nil) // what a host does next: the announcement is built
	for _, bc := range []struct {
		name     string
		from, to []Tool
	}{
		{"join", base, joined},
		{"leave", joined, base},
		{"same", base, base},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var set, index, request time.Duration
			for range b.N {
				b.StopTimer()
				if err := s.SetTools(bc.from); err != nil {
					b.Fatal(err)
				}
				s.Request(nil)
				prev := s.cur.Load()
				b.StartTimer()
				set -= cputime.Now(b)
				if err := s.SetTools(bc.to); err != nil {
					b.Fatal(err)
				}
				set += cputime.Now(b)
				b.StopTimer()
				request -= cputime.Now(b)
				s.Request(nil)
				request += cputime.Now(b)
				index += indexShare(b, prev, s.cur.Load())
				b.StartTimer()
			}
			perOp := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) }
			b.ReportMetric(perOp(set), "cpu-ns/op")
			b.ReportMetric(perOp(index), "index-cpu-ns/op")
			b.ReportMetric(perOp(set-index), "own-cpu-ns/op")
			b.ReportMetric(perOp(request), "request-cpu-ns/op")
		})
	}
}

// indexShare is the CPU time of the search index's part of going from
// state prev to next: its WithServer calls, made again.
func indexShare(b *testing.B, prev, next *state) time.Duration {
	change, known := next.asm.PoolChange()
	if prev == next || !known {
		return 0
	}
	start := cputime.Now(b)
	index := prev.index
	for _, server := range change.Servers {
		index = index.WithServer(server, next.asm.PoolOf(server))
	}
	return cputime.Now(b) - start
}

// A request over a 10,020-name real pool whose announcement is in the
// history (target ≤ 1 ms): the common case of every turn.
func BenchmarkRequestReal10k(b *testing.B) {
	_, joined := realRegistry(b)
	s := newSession(b, &fakeFunnel{}, realOptions(joined))
	r := s.Request(nil)
	if r.Announcement == nil || len(r.Assembly.Pool()) < 10_024 {
		b.Fatalf("pool of %d tools, want 10,024 and more", len(r.Assembly.Pool()))
	}
	history := []announce.Message{{Text: "hello"}, {IsMeta: true, Text: r.Announcement.Text}, {Text: "go on"}}
	b.ReportAllocs()
	defer cputime.PerOp(b)()
	for b.Loop() {
		if s.Request(history).Announcement != nil {
			b.Fatal("re-announced an unchanged pool")
		}
	}
}
