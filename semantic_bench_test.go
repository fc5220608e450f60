package execlua

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/execlua/execlua/internal/cputime"
	"github.com/execlua/execlua/internal/embedtest"
	"github.com/execlua/execlua/internal/heapwatch"
)

// semanticQueries are a few queries of each kind, as ToolSearch gets them.
var semanticQueries = []string{
	`{"query":"list issues"}`,
	`{"query":"take a screenshot of the page"}`,
	`{"query":"what columns does the orders table have in postgres"}`,
	`{"query":"stash the customer in the archive"}`,
	`{"query":"get"}`,
}

// ToolSearch over 10,000 real tools, lexical and fused with a stand-in
// embedder of 384 dimensions (package internal/embedtest), its tool
// vectors prepared: the difference is what fusion costs a query (the
// stand-in's own work on the query included, a model's excluded). The
// fused sub-benchmark reports the heap the tool vectors hold.
func BenchmarkSemanticSearchReal10k(b *testing.B) {
	base, _ := realRegistry(b)
	for _, bc := range []struct {
		name     string
		semantic bool
	}{{"lexical", false}, {"fused", true}} {
		b.Run(bc.name, func(b *testing.B) {
			opts := realOptions(base)
			if bc.semantic {
				// Vector records nothing: the heap measured is the vectors'.
				stand := embedtest.New(384, nil)
				opts.Semantic = NewSemantic(EmbedderFunc(func(_ context.Context, texts []string) ([][]float32, error) {
					out := make([][]float32, len(texts))
					for i, text := range texts {
						out[i] = stand.Vector(text)
					}
					return out, nil
				}), nil)
			}
			s := newSession(b, &fakeFunnel{}, opts)
			st := s.cur.Load()
			var vectors int64
			if bc.semantic {
				before := int64(heapwatch.Live())
				if err := s.PrepareSearch(context.Background()); err != nil {
					b.Fatal(err)
				}
				vectors = int64(heapwatch.Live()) - before
			}
			b.ReportAllocs()
			start, n := cputime.Now(b), 0
			for b.Loop() {
				for _, args := range semanticQueries {
					if _, err := st.search(context.Background(), json.RawMessage(args)); err != nil {
						b.Fatal(err)
					}
				}
				n++
			}
			b.ReportMetric(float64((cputime.Now(b)-start).Nanoseconds())/float64(n*len(semanticQueries)), "cpu-ns/query")
			if bc.semantic {
				b.ReportMetric(float64(vectors)/(1<<20), "vectors-MiB")
			}
		})
	}
}

// The Semantic's work when a 24-tool server joins or leaves 10,000 real
// tools whose vectors it holds (PrepareSearch after SetTools, the
// SetTools not counted): the new pool version's table, reusing every
// unchanged server's vectors; the joining server's texts are embedded
// at the first join only.
func BenchmarkSemanticPoolChangeReal10k(b *testing.B) {
	base, joined := realRegistry(b)
	opts := realOptions(base)
	opts.Semantic = NewSemantic(embedtest.New(384, nil), nil)
	s := newSession(b, &fakeFunnel{}, opts)
	ctx := context.Background()
	if err := s.PrepareSearch(ctx); err != nil {
		b.Fatal(err)
	}
	var cpu time.Duration
	n := 0
	for b.Loop() {
		for _, tools := range [][]Tool{joined, base} {
			if err := s.SetTools(tools); err != nil {
				b.Fatal(err)
			}
			cpu -= cputime.Now(b)
			if err := s.PrepareSearch(ctx); err != nil {
				b.Fatal(err)
			}
			cpu += cputime.Now(b)
			n++
		}
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/change")
}
