package search

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
)

// Search is Index.SearchContext with the host's semantics: a keyword
// query's result is the lexical ranking fused with the ranking by the
// similarity of the query's vector to the tools' (reciprocal rank fusion:
// a tool scores the sum of 1/(K+r) over the lists it is r-th in). What
// fusion never changes:
//
//   - select:, the empty query and an empty pool are answered as without
//     a Semantic;
//   - the tools the query names exactly come first, in the lexical order
//     (SRCH-3);
//   - for a single keyword the contract's tiers order the lexical hits
//     (SRCH-5): the semantic ranking only adds the tools they miss, after
//     them.
//
// Total counts the tools either ranking found: lexical hits, and tools
// whose similarity passes SemanticOptions.MinSimilarity.
//
// The embedder is waited for at most SemanticOptions.Timeout, under ctx.
// When ctx ends, Search returns its cause, as SearchContext does. When the
// embedder fails or is late, Search answers with the lexical ranking alone
// and says why in Result.Fallback (and to SemanticOptions.OnFallback);
// for SemanticOptions.Cooldown after that, searches do not call the
// embedder. The search itself never fails for it. A nil Semantic is the
// lexical ranking.
func (s *Semantic) Search(ctx context.Context, x *Index, args json.RawMessage) (Result, error) {
	if s == nil {
		return x.SearchContext(ctx, args)
	}
	q, text, fuses, err := readFused(ctx, x, args)
	if err != nil {
		return Result{}, err
	}
	if !fuses {
		ids, total := x.find(q)
		return x.result(ctx, ids, total)
	}
	lex := x.lexical(text, max(s.opts.Depth, q.limit))
	sem, err := s.semantic(ctx, x, text, lex)
	if ctx.Err() != nil {
		return Result{}, context.Cause(ctx)
	}
	if err != nil {
		res, rerr := x.result(ctx, lex.ids[:min(len(lex.ids), q.limit)], lex.total)
		res.Fallback = err
		s.failed(err)
		return res, rerr
	}
	return x.result(ctx, fusedIDs(s.fuse(x, lex, sem.ids, q.limit)), lex.total+sem.extra)
}

// readFused reads a query for Search and Explain: the query, its text,
// and whether fusion ranks it; a select: query, an empty one and an
// empty pool are the lexical ranking's alone.
func readFused(ctx context.Context, x *Index, args json.RawMessage) (q query, text string, fuses bool, err error) {
	if ctx.Err() != nil {
		return q, "", false, context.Cause(ctx)
	}
	if q, err = x.args.parse(args); err != nil {
		return q, "", false, err
	}
	text = strings.TrimSpace(q.text)
	_, sel := selectList(q.text)
	return q, text, !sel && text != "" && x.live > 0, nil
}

// fusedIDs are the ids of a fused ranking, in its order.
func fusedIDs(fs []fused) []int32 {
	ids := make([]int32, len(fs))
	for i, f := range fs {
		ids[i] = f.id
	}
	return ids
}

// Explain is Index.Explain with the host's semantics: it answers as
// Search does, the fused ranking in its order, and says per result what
// the lexical ranking made of it (its matches, signals and score, as
// Index.Explain) and where fusion placed it (ExplainedResult.Fusion: its
// lexical and semantic ranks and fused score). A query fusion leaves
// alone (select:, the empty query) is Index.Explain's; when the embedder
// fails, the explanation is of the lexical ranking, and Fallback says
// why.
func (s *Semantic) Explain(ctx context.Context, x *Index, args json.RawMessage) (Explanation, error) {
	if s == nil {
		return x.Explain(args)
	}
	q, text, fuses, err := readFused(ctx, x, args)
	if err != nil {
		return Explanation{}, err
	}
	if !fuses {
		return x.Explain(args)
	}
	lex := x.lexical(text, max(s.opts.Depth, q.limit))
	sem, err := s.semantic(ctx, x, text, lex)
	if ctx.Err() != nil {
		return Explanation{}, context.Cause(ctx)
	}
	if err != nil {
		e, xerr := x.Explain(args)
		e.Fallback = err.Error()
		s.failed(err)
		return e, xerr
	}
	sc := x.score(text, newExplainer(x.rk))
	defer sc.release()
	sc.best(lex.depth) // the bonuses of the lexical list's tools, as lexical ranked them
	e := Explanation{Query: q.text, Rules: sc.ex.fired, Keywords: explainKeywords(sc.plan), Results: []ExplainedResult{}, Total: lex.total + sem.extra}
	for _, f := range s.fuse(x, lex, sem.ids, q.limit) {
		r := ExplainedResult{Name: x.entry(f.id).tool.Name, Matches: []FieldMatch{}, Signals: []SignalPoints{}, Scale: []SignalPoints{}}
		if lex.hit[f.id] {
			r = sc.explainResult(f.id, nil)
		}
		r.Fusion = &ExplainedFusion{Lexical: f.lexR, Semantic: f.semR, Score: f.score, By: fuseStepNames[f.how]}
		e.Results = append(e.Results, r)
	}
	return e, nil
}

// lexicalList is the built-in ranking's answer to a keyword query, as
// fusion reads it.
type lexicalList struct {
	ids   []int32 // best first, at most depth
	depth int     // how many of each ranking are fused
	// pinned is how many of ids the query names exactly: fusion leaves
	// them first, in this order.
	pinned int
	single bool   // one keyword: the tiers order the hits
	hit    []bool // by tool id: a lexical hit
	total  int
}

// lexical ranks text lexically, the depth best kept.
func (x *Index) lexical(text string, depth int) lexicalList {
	s := x.score(text, nil)
	defer s.release()
	l := lexicalList{ids: s.best(depth), depth: depth, single: s.plan.single, hit: make([]bool, x.next), total: len(s.hits)}
	for l.pinned < len(l.ids) && slices.Contains(s.plan.exact, l.ids[l.pinned]) {
		l.pinned++
	}
	for _, id := range s.hits {
		l.hit[id] = true
	}
	return l
}

// semanticList is the semantic ranking of a query.
type semanticList struct {
	ids   []int32 // best first, at most the fusion's depth
	extra int     // tools it ranks that are no lexical hits
}

// semantic ranks x's tools by their similarity to text, waiting for the
// embedder at most the timeout. Its error is an *EmbedError, unless ctx
// ended.
func (s *Semantic) semantic(ctx context.Context, x *Index, text string, lex lexicalList) (semanticList, error) {
	if err := s.resting(); err != nil {
		return semanticList{}, err
	}
	wait, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	t, err := s.toolVectors(wait, x)
	if err != nil {
		var ee *EmbedError
		if !errors.As(err, &ee) {
			err = &EmbedError{What: "tools", Err: err}
		}
		return semanticList{}, err
	}
	qv, err := s.embedQuery(wait, text)
	if err != nil {
		return semanticList{}, err
	}
	return rank(x, t, qv, lex, s.opts.MinSimilarity), nil
}

// simHit is a tool and its similarity to the query.
type simHit struct {
	id  int32
	sim float32
}

// rank returns the lex.depth tools most similar to qv above minSim, best
// first, ties by name, and counts those that are no lexical hits.
func rank(x *Index, t *table, qv []float32, lex lexicalList, minSim float32) semanticList {
	var out semanticList
	top := make([]simHit, 0, lex.depth+1)
	better := func(a, b simHit) int {
		if a.sim != b.sim {
			return cmp.Compare(b.sim, a.sim)
		}
		return strings.Compare(x.entry(a.id).lower, x.entry(b.id).lower)
	}
	for g, gv := range t.groups {
		for i, id := range g.ids {
			h := simHit{id, dot(qv, gv.vecs[i])}
			if h.sim <= minSim {
				continue
			}
			if !lex.hit[id] {
				out.extra++
			}
			if len(top) == lex.depth && better(h, top[len(top)-1]) >= 0 {
				continue
			}
			at, _ := slices.BinarySearchFunc(top, h, better)
			top = slices.Insert(top, at, h)
			top = top[:min(len(top), lex.depth)]
		}
	}
	out.ids = make([]int32, len(top))
	for i, h := range top {
		out.ids[i] = h.id
	}
	return out
}

// dot is the dot product of two vectors of one length.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

// fused is a tool of a fused ranking: its fused score and its ranks in
// the lexical and the semantic lists (0 where it is not in one). A pinned
// tool (named exactly) and, for a single keyword, the lexical hits keep
// the lexical order whatever their scores (how).
type fused struct {
	id         int32
	score      float64
	lexR, semR int
	how        fuseStep
}

// fuseStep is what placed a tool in a fused ranking.
type fuseStep int8

const (
	byFusedScore fuseStep = iota
	byPin
	byLexicalTier
	bySemanticAfter
)

var fuseStepNames = [...]string{
	byFusedScore:    "fused score (reciprocal rank fusion), ties to the better lexical, then semantic rank",
	byPin:           "named exactly: first, in the lexical order",
	byLexicalTier:   "single keyword: the lexical hits in their tiers' order",
	bySemanticAfter: "single keyword: the semantic ranking's other tools, after the lexical hits",
}

// fuse merges the lexical and the semantic rankings, the best limit kept:
// the pinned tools first; for a single keyword the lexical hits in their
// order, then the semantic ranking's other tools; otherwise by the sum of
// 1/(K+rank) over the lists, ties to the better lexical rank, then the
// better semantic rank, then the name.
func (s *Semantic) fuse(x *Index, lex lexicalList, sem []int32, limit int) []fused {
	semRank := map[int32]int{}
	for _, id := range sem {
		if !slices.Contains(lex.ids[:lex.pinned], id) {
			semRank[id] = len(semRank) + 1
		}
	}
	var out []fused
	for i, id := range lex.ids[:lex.pinned] {
		out = append(out, fused{id: id, lexR: i + 1, how: byPin})
	}
	if lex.single {
		for i, id := range lex.ids[lex.pinned:] {
			out = append(out, fused{id: id, lexR: lex.pinned + i + 1, semR: semRank[id], how: byLexicalTier})
		}
		for _, id := range sem {
			if !lex.hit[id] && len(out) < limit {
				out = append(out, fused{id: id, semR: semRank[id], how: bySemanticAfter})
			}
		}
		return out[:min(len(out), limit)]
	}
	absent := len(lex.ids) + len(sem) + 1
	at := map[int32]int{}
	var all []fused
	add := func(id int32, rank int, ofLex bool) {
		i, ok := at[id]
		if !ok {
			i, at[id] = len(all), len(all)
			all = append(all, fused{id: id, lexR: absent, semR: absent})
		}
		f := &all[i]
		f.score += 1 / float64(s.opts.K+rank)
		if ofLex {
			f.lexR = rank
		} else {
			f.semR = rank
		}
	}
	for i, id := range lex.ids[lex.pinned:] {
		add(id, i+1, true)
	}
	for _, id := range sem {
		if r, ok := semRank[id]; ok {
			add(id, r, false)
		}
	}
	slices.SortFunc(all, func(a, b fused) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.lexR, b.lexR), cmp.Compare(a.semR, b.semR),
			strings.Compare(x.entry(a.id).lower, x.entry(b.id).lower))
	})
	for _, f := range all[:min(len(all), max(limit-len(out), 0))] {
		if f.lexR == absent {
			f.lexR = 0
		} else {
			f.lexR += lex.pinned
		}
		if f.semR == absent {
			f.semR = 0
		}
		out = append(out, f)
	}
	return out[:min(len(out), limit)]
}
