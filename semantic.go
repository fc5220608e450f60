package execlua

import (
	"context"

	"github.com/execlua/execlua/search"
)

// Semantics from the host: ToolSearch ranks lexically, and a host that
// has an embedding model or service adds it through Options.Semantic
// (package search, Semantic, says how the rankings are fused).
type (
	// Embedder turns texts into vectors: the host's model or service
	// (search.Embedder).
	Embedder = search.Embedder
	// EmbedderFunc adapts a function to Embedder.
	EmbedderFunc = search.EmbedderFunc
	// Semantic fuses an Embedder's ranking into ToolSearch and keeps the
	// tools' vectors (search.Semantic).
	Semantic = search.Semantic
	// SemanticOptions configure a Semantic; the zero value takes the
	// defaults (search.SemanticOptions).
	SemanticOptions = search.SemanticOptions
	// EmbedError says why a search fell back to the lexical ranking.
	EmbedError = search.EmbedError
)

// ErrEmbed matches why a search fell back to the lexical ranking: the
// embedder failed or was late (search.ErrEmbed).
var ErrEmbed = search.ErrEmbed

// NewSemantic returns a Semantic over embedder, for Options.Semantic
// (search.NewSemantic); nil for a nil embedder.
func NewSemantic(embedder Embedder, opts *SemanticOptions) *Semantic {
	return search.NewSemantic(embedder, opts)
}

// PrepareSearch embeds the tool texts of the current pool that the
// session's Semantic has not embedded yet, so that the first ToolSearch
// after a pool change does not wait for them: what a host calls after
// SetTools when it can. Without a Semantic it does nothing.
func (s *Session) PrepareSearch(ctx context.Context) error {
	st := s.cur.Load()
	return st.semantic.Prepare(ctx, st.index)
}
