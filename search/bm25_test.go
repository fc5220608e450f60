//go:build eval

package search

import (
	"encoding/json"
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/execlua/execlua/pool"
)

// bm25 is the textbook baseline the real-pool figures are set against:
// Okapi BM25 (k1 = 1.2, b = 0.75) over one field, a tool's name,
// description and input schema (property names and every string in it)
// run together, with simple tokenizing (lower case, split at anything
// not a letter or digit and at lower-to-upper case changes). No stemming,
// stop words or synonyms.
type bm25 struct {
	names []string
	docs  []map[string]int // term frequencies per tool
	lens  []float64
	avg   float64
	df    map[string]int
}

func newBM25(tools []pool.Tool) *bm25 {
	m := &bm25{df: map[string]int{}}
	total := 0.0
	for _, t := range tools {
		terms := bm25Tokens(t.Name + " " + t.Description + " " + schemaText(t.InputSchema))
		tf := map[string]int{}
		for _, term := range terms {
			tf[term]++
		}
		for term := range tf {
			m.df[term]++
		}
		m.names = append(m.names, t.Name)
		m.docs = append(m.docs, tf)
		m.lens = append(m.lens, float64(len(terms)))
		total += float64(len(terms))
	}
	m.avg = total / float64(len(tools))
	return m
}

// top returns the names of the n best-scoring tools with a score above 0,
// ties in pool order.
func (m *bm25) top(query string, n int) []string {
	const k1, b = 1.2, 0.75
	terms := bm25Tokens(query)
	N := float64(len(m.docs))
	type scored struct {
		i int
		s float64
	}
	var hits []scored
	for i, tf := range m.docs {
		s := 0.0
		for _, term := range terms {
			f := float64(tf[term])
			if f == 0 {
				continue
			}
			df := float64(m.df[term])
			idf := math.Log(1 + (N-df+0.5)/(df+0.5))
			s += idf * f * (k1 + 1) / (f + k1*(1-b+b*m.lens[i]/m.avg))
		}
		if s > 0 {
			hits = append(hits, scored{i, s})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].s > hits[b].s })
	var out []string
	for _, h := range hits[:min(n, len(hits))] {
		out = append(out, m.names[h.i])
	}
	return out
}

func bm25Tokens(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevLower := false
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && prevLower {
				flush()
			}
			cur = append(cur, r)
			prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
		default:
			flush()
			prevLower = false
		}
	}
	flush()
	return out
}

// schemaText is the words of an input schema: its property names and
// every string value (descriptions, enums), in no particular order.
func schemaText(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if props, ok := v["properties"].(map[string]any); ok && k == "properties" {
					for name := range props {
						b.WriteString(name + " ")
					}
				}
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		case string:
			b.WriteString(v + " ")
		}
	}
	walk(v)
	return b.String()
}
