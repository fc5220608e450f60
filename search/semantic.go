package search

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"weak"

	"github.com/execlua/execlua/pool"
)

// Embedder turns texts into vectors: the host's embedding model or
// service. execlua ships none; a host that has one plugs it in through a
// Semantic. Embed returns one vector per text, in order, every vector of
// the same dimension. It is called with up to SemanticOptions.Batch texts
// at a time, possibly from several goroutines at once, and should return
// when ctx is done (a search stops waiting for it then in any case).
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// EmbedderFunc adapts a function to Embedder.
type EmbedderFunc func(ctx context.Context, texts []string) ([][]float32, error)

// Embed calls f.
func (f EmbedderFunc) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return f(ctx, texts)
}

// The defaults of SemanticOptions.
const (
	// DefaultFusionK is reciprocal rank fusion's constant: a tool ranked
	// r-th in a list earns 1/(K+r) from it. 60 is the value of the paper
	// that introduced the method (Cormack, Clarke and Büttcher, 2009); a
	// larger K flattens the difference between the first ranks.
	DefaultFusionK = 60
	// DefaultFusionDepth is how many tools of each ranking are fused.
	DefaultFusionDepth = 50
	// DefaultEmbedTimeout bounds how long one search waits for the
	// embedder, tool texts and query together.
	DefaultEmbedTimeout = 2 * time.Second
	// DefaultEmbedBatch is how many texts one Embed call carries at most.
	DefaultEmbedBatch = 64
	// DefaultCooldown is how long searches leave the embedder alone
	// after it failed.
	DefaultCooldown = 30 * time.Second
)

// MaxToolTextBytes caps the text embedded for one tool (ToolText): small
// embedding models read 256 to 512 tokens, and the start of a description
// says what the tool does.
const MaxToolTextBytes = 2048

// SemanticOptions configure a Semantic. The zero value (and nil) takes
// every default.
type SemanticOptions struct {
	// K is the fusion constant (DefaultFusionK when 0).
	K int
	// Depth is how many tools of the lexical and of the semantic ranking
	// enter the fusion (DefaultFusionDepth when 0; at least the search's
	// max_results).
	Depth int
	// Timeout bounds one search's wait for the embedder
	// (DefaultEmbedTimeout when 0). Past it, the search answers with the
	// lexical ranking alone; the run's own context bounds it too.
	Timeout time.Duration
	// Batch is how many texts one Embed call carries at most
	// (DefaultEmbedBatch when 0).
	Batch int
	// MinSimilarity is the cosine similarity a tool must exceed to enter
	// the semantic ranking; 0 keeps every tool of positive similarity.
	MinSimilarity float32
	// Cooldown is how long searches answer lexically without calling the
	// embedder after it failed or was late (DefaultCooldown when 0; a
	// negative Cooldown calls it at every search): a service that is
	// down costs a run one Timeout, not one a search.
	Cooldown time.Duration
	// OnFallback, when set, is told each failure of the embedder that
	// made a search fall back to the lexical ranking alone (an
	// *EmbedError); the searches skipped during the Cooldown after it are
	// not told again. It may be called from several goroutines at once
	// and must return quickly.
	OnFallback func(error)
}

// ErrEmbed matches the error of a search that fell back to the lexical
// ranking because the embedder failed, returned something unusable, or
// did not answer within SemanticOptions.Timeout.
var ErrEmbed = errors.New("semantic ranking unavailable")

// EmbedError says why a search fell back to the lexical ranking. It
// matches ErrEmbed and unwraps to its cause (the embedder's error,
// context.DeadlineExceeded for a timeout).
type EmbedError struct {
	// What was being embedded: "tools" or "query".
	What string
	Err  error
	// Skipped says the embedder was not called: it failed less than
	// SemanticOptions.Cooldown ago, with Err.
	Skipped bool
}

func (e *EmbedError) Error() string {
	if e.Skipped {
		return fmt.Sprintf("%v: the embedder is not called for a while after it failed embedding the %s: %v", ErrEmbed, e.What, e.Err)
	}
	return fmt.Sprintf("%v: embedding the %s: %v", ErrEmbed, e.What, e.Err)
}

func (e *EmbedError) Unwrap() []error { return []error{ErrEmbed, e.Err} }

// Semantic adds a host's embeddings to ToolSearch: Search fuses the
// built-in lexical ranking with the ranking by cosine similarity between
// the query's vector and the tools' (reciprocal rank fusion). It keeps the
// tools' vectors by a hash of their text (ToolText), so a text is embedded
// once however many Index versions hold it: a server joining costs the
// embedding of its own tools. Query vectors are never kept. A Semantic is
// safe for concurrent use; share one among the sessions of one model.
type Semantic struct {
	embedder Embedder
	opts     SemanticOptions
	// filling is a token held while tool texts are embedded, taken so
	// that waiting for it can be given up: one pool's texts are embedded
	// once, not by every search that finds them missing.
	filling chan struct{}

	mu     sync.Mutex
	vecs   map[textKey][]float32 // unit vectors by tool text
	dim    int                   // the embedder's dimension, once known
	tables []*table              // the latest Index versions', latest first
	// down is the embedder's last failure, and until when searches
	// leave it alone for it.
	down      *EmbedError
	downUntil time.Time
}

// maxTables is how many Index versions keep their table of vectors: a
// few sessions with different pools share a Semantic without rebuilding
// them at every search.
const maxTables = 8

// textKey is the hash of a tool's text.
type textKey [sha256.Size]byte

// table is one Index version's tools' vectors, per group. A group's
// vectors are filled all at once; a group with any text not yet embedded
// has none, and groups reused by the next version keep theirs.
type table struct {
	x      weak.Pointer[Index]
	groups map[*group]*groupVecs
	ready  bool // every group has its vectors
}

type groupVecs struct {
	keys []textKey
	vecs [][]float32 // aligned with the group's ids; nil until every text is embedded
}

// NewSemantic returns a Semantic over embedder. A nil embedder gives a
// nil Semantic, which ranks lexically.
func NewSemantic(embedder Embedder, opts *SemanticOptions) *Semantic {
	if embedder == nil {
		return nil
	}
	var o SemanticOptions
	if opts != nil {
		o = *opts
	}
	o.K = cmpOr(o.K, DefaultFusionK)
	o.Depth = cmpOr(o.Depth, DefaultFusionDepth)
	o.Timeout = cmpOr(o.Timeout, DefaultEmbedTimeout)
	o.Batch = cmpOr(o.Batch, DefaultEmbedBatch)
	if o.Cooldown == 0 {
		o.Cooldown = DefaultCooldown
	}
	return &Semantic{embedder: embedder, opts: o, filling: make(chan struct{}, 1), vecs: map[textKey][]float32{}}
}

// cmpOr is v when positive, else def.
func cmpOr[T int | time.Duration](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}

// ToolText is what a Semantic embeds for t, one part a line, empty parts
// left out: its own name (the name on its server for an MCP tool) with its
// words apart (list_issues: "list issues"), "server: " and its server,
// its searchHint, its description; cut at MaxToolTextBytes. Input schemas
// are left out: they are long, and their words reach the lexical ranking.
func ToolText(t *pool.Tool) string {
	own := t.Name
	if t.ServerTool != "" {
		own = t.ServerTool
	}
	var name []string
	splitWords(own, func(w string, whole bool) {
		if !whole {
			name = append(name, w)
		}
	})
	parts := []string{strings.Join(name, " ")}
	if t.Kind == pool.MCP && t.Server != "" {
		parts = append(parts, "server: "+t.Server)
	}
	for _, s := range []string{t.SearchHint, t.Description} {
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, s)
		}
	}
	text := strings.Join(parts, "\n")
	if len(text) > MaxToolTextBytes {
		cut := MaxToolTextBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	return text
}

// Prepare embeds the tool texts of x that are not embedded yet, so that
// the first search over a new pool does not pay for them. It returns ctx's
// cause when ctx ends first, or the embedder's failure (an *EmbedError).
// Unlike a search's wait, it is bounded by ctx alone, and it calls the
// embedder during a Cooldown too, ending it when it succeeds. A nil
// Semantic has nothing to prepare.
func (s *Semantic) Prepare(ctx context.Context, x *Index) error {
	if s == nil {
		return nil
	}
	if _, err := s.toolVectors(ctx, x); err != nil {
		return err
	}
	s.mu.Lock()
	s.down = nil // it works again: searches need not wait for the Cooldown
	s.mu.Unlock()
	return nil
}

// resting returns the error of a search skipped after a failure, or nil
// when the embedder may be called.
func (s *Semantic) resting() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down == nil || !time.Now().Before(s.downUntil) {
		return nil
	}
	return &EmbedError{What: s.down.What, Err: s.down.Err, Skipped: true}
}

// failed records the embedder's failure for the Cooldown and tells the
// host; a skipped search's error is no new failure.
func (s *Semantic) failed(err error) {
	var ee *EmbedError
	if !errors.As(err, &ee) || ee.Skipped {
		return
	}
	s.mu.Lock()
	s.down, s.downUntil = ee, time.Now().Add(s.opts.Cooldown)
	s.mu.Unlock()
	if s.opts.OnFallback != nil {
		s.opts.OnFallback(err)
	}
}

// toolVectors returns x's table with every vector filled, embedding the
// texts it lacks.
func (s *Semantic) toolVectors(ctx context.Context, x *Index) (*table, error) {
	if t := s.ready(x); t != nil {
		return t, nil
	}
	if err := s.fill(ctx, x); err != nil {
		return nil, err
	}
	if t := s.ready(x); t != nil {
		return t, nil
	}
	return nil, &EmbedError{What: "tools", Err: errors.New("the pool's vectors are incomplete after embedding")}
}

// fill embeds the texts of x not embedded yet, in batches, one filling at
// a time: a search that finds texts missing while another embeds them
// waits for that one's call, then finds them embedded.
func (s *Semantic) fill(ctx context.Context, x *Index) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	select {
	case s.filling <- struct{}{}:
	case <-ctx.Done():
		return context.Cause(ctx)
	}
	texts, keys := s.missing(x)
	if len(texts) == 0 || ctx.Err() != nil {
		<-s.filling
		return context.Cause(ctx) // nil while ctx lasts
	}
	done := make(chan error, 1)
	// The embedding goes on beside the search, which stops waiting when
	// ctx ends even if the embedder ignores it; the token is given back
	// only when the embedder has returned, so a slow embedder is never
	// called twice over for the same texts.
	go func() {
		defer func() { <-s.filling }()
		done <- s.embedTexts(ctx, texts, keys)
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// ready returns x's table if every group of it has its vectors.
func (s *Semantic) ready(x *Index) *table {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tableOf(x)
	if !t.ready {
		return nil
	}
	return t
}

// tableOf returns x's table, made from the other tables' groups and the
// vectors of texts embedded before, its vectors completed where all of a
// group's texts are known. Called with mu held.
func (s *Semantic) tableOf(x *Index) *table {
	ptr := weak.Make(x)
	var t *table
	for i, old := range s.tables {
		if old.x == ptr {
			t = old
			copy(s.tables[1:i+1], s.tables[:i]) // latest first
			s.tables[0] = t
			break
		}
	}
	if t == nil {
		t = &table{x: ptr, groups: make(map[*group]*groupVecs, len(x.groups))}
		for _, g := range x.groups {
			t.groups[g] = s.knownGroup(g)
		}
		s.tables = append([]*table{t}, s.tables...)
		s.tables = s.tables[:min(len(s.tables), maxTables)]
	}
	if t.ready {
		return t
	}
	t.ready = true
	for g, gv := range t.groups {
		if gv.vecs == nil {
			gv.vecs = s.lookup(gv.keys)
		}
		t.ready = t.ready && (gv.vecs != nil || len(g.ids) == 0)
	}
	if t.ready {
		s.prune(x.Len())
	}
	return t
}

// knownGroup is g's vectors as another table holds them, or its keys alone.
func (s *Semantic) knownGroup(g *group) *groupVecs {
	for _, old := range s.tables {
		if gv, ok := old.groups[g]; ok {
			return gv
		}
	}
	gv := &groupVecs{keys: make([]textKey, len(g.tools))}
	for i := range g.tools {
		gv.keys[i] = sha256.Sum256([]byte(ToolText(&g.tools[i])))
	}
	return gv
}

// lookup returns the vectors of keys, or nil if any is not embedded.
func (s *Semantic) lookup(keys []textKey) [][]float32 {
	out := make([][]float32, len(keys))
	for i, k := range keys {
		v, ok := s.vecs[k]
		if !ok {
			return nil
		}
		out[i] = v
	}
	return out
}

// prune drops the vectors of texts no kept Index version holds once there
// are many more of them than of texts held: servers that changed their
// descriptions or left. live is the tools of the latest version, which
// it holds at least. Called with mu held.
func (s *Semantic) prune(live int) {
	if len(s.vecs) <= 2*live+1024 {
		return // too few to be worth counting what is held
	}
	held := map[textKey]bool{}
	for _, t := range s.tables {
		if t.x.Value() == nil {
			continue
		}
		for _, gv := range t.groups {
			for _, k := range gv.keys {
				held[k] = true
			}
		}
	}
	if len(s.vecs) <= 2*len(held)+1024 {
		return
	}
	for k := range s.vecs {
		if !held[k] {
			delete(s.vecs, k)
		}
	}
}

// missing lists the texts of x's tools not embedded yet, each once.
func (s *Semantic) missing(x *Index) ([]string, []textKey) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tableOf(x)
	var texts []string
	var keys []textKey
	seen := map[textKey]bool{}
	for g, gv := range t.groups {
		if gv.vecs != nil {
			continue
		}
		for i, k := range gv.keys {
			if _, ok := s.vecs[k]; !ok && !seen[k] {
				seen[k] = true
				texts = append(texts, ToolText(&g.tools[i]))
				keys = append(keys, k)
			}
		}
	}
	return texts, keys
}

// embedTexts embeds texts in batches and keeps each batch's vectors as it
// comes, even after ctx ended, so that work done before a failure or a
// timeout is not lost; it starts no batch after ctx ended.
func (s *Semantic) embedTexts(ctx context.Context, texts []string, keys []textKey) error {
	for start := 0; start < len(texts); start += s.opts.Batch {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		end := min(start+s.opts.Batch, len(texts))
		vecs, err := s.embed(ctx, texts[start:end])
		if err != nil {
			return &EmbedError{What: "tools", Err: err}
		}
		s.mu.Lock()
		for i, v := range vecs {
			s.vecs[keys[start+i]] = v
		}
		s.mu.Unlock()
	}
	return nil
}

// embedQuery returns the query's unit vector, waiting for the embedder
// only while ctx lasts.
func (s *Semantic) embedQuery(ctx context.Context, text string) ([]float32, error) {
	done := make(chan []float32, 1)
	fail := make(chan error, 1)
	go func() {
		vecs, err := s.embed(ctx, []string{text})
		if err != nil {
			fail <- err
			return
		}
		done <- vecs[0]
	}()
	select {
	case v := <-done:
		return v, nil
	case err := <-fail:
		return nil, &EmbedError{What: "query", Err: err}
	case <-ctx.Done():
		return nil, &EmbedError{What: "query", Err: context.Cause(ctx)}
	}
}

// embed calls the embedder and checks what it returns: one finite vector
// per text, all of the embedder's one dimension; they come back scaled to
// unit length, so that a dot product is their cosine. A panic of the
// embedder is its error.
func (s *Semantic) embed(ctx context.Context, texts []string) (_ [][]float32, err error) {
	// The embedder runs on a goroutine of its own, where nothing else
	// would recover its panic: it would end the host's process.
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the embedder panicked: %v", p)
		}
	}()
	vecs, err := s.embedder.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("the embedder returned %d vectors for %d texts", len(vecs), len(texts))
	}
	s.mu.Lock()
	dim := s.dim
	if dim == 0 && len(vecs[0]) > 0 {
		dim, s.dim = len(vecs[0]), len(vecs[0])
	}
	s.mu.Unlock()
	out := make([][]float32, len(vecs))
	for i, v := range vecs {
		if len(v) != dim || dim == 0 {
			return nil, fmt.Errorf("the embedder returned a vector of %d dimensions, want %d (one model per Semantic)", len(v), dim)
		}
		if out[i] = unit(v); out[i] == nil {
			return nil, errors.New("the embedder returned a vector that is not finite")
		}
	}
	return out, nil
}

// unit returns a copy of v scaled to length 1 (a zero vector stays zero),
// or nil if v holds a NaN or an infinity.
func unit(v []float32) []float32 {
	var sum float64
	for _, f := range v {
		sum += float64(f) * float64(f)
	}
	if math.IsNaN(sum) || math.IsInf(sum, 0) {
		return nil
	}
	out := make([]float32, len(v))
	if sum == 0 {
		return out
	}
	scale := 1 / math.Sqrt(sum)
	for i, f := range v {
		out[i] = float32(float64(f) * scale)
	}
	return out
}
