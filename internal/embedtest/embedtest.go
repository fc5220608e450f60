// Package embedtest is a deterministic stand-in for an embedding model,
// for tests and benchmarks of ToolSearch's semantics (search.Semantic):
// a text's vector counts its words, each word first mapped to its concept
// by a small synonym table (customer and client are contact), one axis a
// concept. Texts that share concepts are similar, paraphrases included as
// far as the table knows them; nothing else is. It counts what it embeds.
package embedtest

import (
	"context"
	"strings"
	"sync"
	"unicode"
)

// Paraphrases is the default table: the stand-in's whole knowledge of
// meaning.
var Paraphrases = map[string]string{
	"stash": "archive", "shelve": "archive", "hide": "archive", "hidden": "archive", "ice": "archive",
	"customer": "contact", "client": "contact", "person": "contact",
}

// stop are the words the stand-in ignores, as a model weighs them little:
// function words, and the server line of every MCP tool's text.
var stop = func() map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields("a an the to it its s so on in of for from is no or and my this that server") {
		set[w] = true
	}
	return set
}()

// StandIn embeds texts as described in the package's doc. Its methods are
// safe for concurrent use.
type StandIn struct {
	dim      int
	concepts map[string]string

	mu    sync.Mutex
	axes  map[string]int
	calls int
	texts []string
}

// New returns a StandIn of dim dimensions over concepts (Paraphrases when
// nil). Past dim concepts, axes are shared (for benchmarks at a model's
// dimension).
func New(dim int, concepts map[string]string) *StandIn {
	if concepts == nil {
		concepts = Paraphrases
	}
	return &StandIn{dim: dim, concepts: concepts, axes: map[string]int{}}
}

// Embed returns one vector per text and records the call.
func (e *StandIn) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.mu.Lock()
	e.calls++
	e.texts = append(e.texts, texts...)
	e.mu.Unlock()
	out := make([][]float32, len(texts))
	for i, text := range texts {
		out[i] = e.Vector(text)
	}
	return out, nil
}

// Vector is text's vector, not recorded as embedded.
func (e *StandIn) Vector(text string) []float32 {
	v := make([]float32, e.dim)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if stop[w] {
			continue
		}
		w = strings.TrimSuffix(w, "s")
		if c, ok := e.concepts[w]; ok {
			w = c
		}
		v[e.axis(w)%e.dim]++
	}
	return v
}

// axis numbers each concept as first seen: similarities do not depend on
// which text came first, and below dim concepts no two share an axis.
func (e *StandIn) axis(concept string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	a, ok := e.axes[concept]
	if !ok {
		a = len(e.axes)
		e.axes[concept] = a
	}
	return a
}

// Calls is how many times Embed was called.
func (e *StandIn) Calls() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.calls
}

// Texts are the texts embedded so far, in order, repeats included.
func (e *StandIn) Texts() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.texts...)
}
