package search

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Explanation says why a query ranked the tools it did: the analyzer's
// rules that fired, the keywords and the stems each reaches, and for each
// result what its score is made of and what put it before the next.
type Explanation struct {
	Query string `json:"query"`
	// Select is set for a select: query, which ranks nothing.
	Select   bool               `json:"select,omitempty"`
	Rules    []Fired            `json:"rules"`
	Keywords []ExplainedKeyword `json:"keywords"`
	Results  []ExplainedResult  `json:"results"`
	// Total is how many tools matched, as Result.Total.
	Total int `json:"total"`
	// Fallback says why a Semantic's explanation is of the lexical
	// ranking alone (Result.Fallback), when it is.
	Fallback string `json:"fallback,omitempty"`
}

// ExplainedKeyword is one keyword of the query: its weight (1, less for
// a value or an implied word, Weights.Stop for a stop word) and the
// stems of the pool it reaches.
type ExplainedKeyword struct {
	Word     string           `json:"word"`
	Weight   float64          `json:"weight"`
	Stop     bool             `json:"stop,omitempty"`
	Variants []ExplainedReach `json:"variants"`
}

// ExplainedReach is a stem a keyword reaches, how (word, synonym,
// related, derived, noun, prefix, near spelling, phrasal verb, sense),
// and its quality, which multiplies the field's weight.
type ExplainedReach struct {
	Stem    string  `json:"stem"`
	How     string  `json:"how"`
	Quality float64 `json:"quality"`
}

// ExplainedResult is one result: for each keyword its best match, the
// signals added, the factors that scale the sum, and the score. Score is
// (sum of Matches' and Signals' points) times every Scale factor.
// TieBreak is the step of the order that put it before the next result
// (score, tier, MCP before builtin, ...).
type ExplainedResult struct {
	Name string `json:"name"`
	// Class is what orders the result before its score: named exactly,
	// and for a query of one keyword its tier (SRCH-5).
	Class    string         `json:"class,omitempty"`
	Matches  []FieldMatch   `json:"matches"`
	Signals  []SignalPoints `json:"signals"`
	Scale    []SignalPoints `json:"scale"`
	Score    float64        `json:"score"`
	TieBreak string         `json:"tieBreak,omitempty"`
	// Fusion is set when a Semantic ranked the result (Semantic.Explain):
	// its ranks and fused score. A tool only the semantic ranking found
	// has no matches, signals or lexical score.
	Fusion *ExplainedFusion `json:"fusion,omitempty"`
}

// ExplainedFusion is where a result stood in the rankings a Semantic
// fused: its place in the lexical ranking and in the semantic one (0:
// not in it), its fused score (the sum of 1/(K+rank) over the lists it is
// in; 0 when the contract's order placed it), and what placed it (By:
// the fused score, or the order fusion never changes: an exact name
// first, a single keyword's tiers).
type ExplainedFusion struct {
	Lexical  int     `json:"lexical"`
	Semantic int     `json:"semantic"`
	Score    float64 `json:"score"`
	By       string  `json:"by"`
}

// FieldMatch is a keyword's best match in a tool: the field (name,
// server, hint, description, schema, or substring of the name) and its
// weight, the stem it matched through, and its points (the field's
// weight times the stem's quality and rarity, times the keyword's
// weight).
type FieldMatch struct {
	Keyword string  `json:"keyword"`
	Field   string  `json:"field"`
	Weight  float64 `json:"weight"`
	Stem    string  `json:"stem"`
	Points  float64 `json:"points"`
	k       int     // the keyword's place in the plan
}

// SignalPoints is what one signal gave a tool: points added, or a factor
// for a scale signal, and why.
type SignalPoints struct {
	Signal string  `json:"signal"`
	Value  float64 `json:"value"`
	Reason string  `json:"reason"`
}

// fSubstring marks a match inside a name, beside the fields.
const fSubstring = nFields

var fieldNames = [...]string{fName: "name", fServer: "server", fHint: "hint", fDesc: "description", fSchema: "schema", fSubstring: "substring"}

// explainer records, while a query is scored, what Explain reports.
type explainer struct {
	rk    *ranking
	fired []Fired
	// from is, per tool, the best match so far of the keyword being
	// scored; tools is what each tool has gained.
	from  map[int32]FieldMatch
	tools map[int32]*ExplainedResult
}

func newExplainer(rk *ranking) *explainer {
	return &explainer{rk: rk, from: map[int32]FieldMatch{}, tools: map[int32]*ExplainedResult{}}
}

func (ex *explainer) tool(id int32) *ExplainedResult {
	r := ex.tools[id]
	if r == nil {
		r = &ExplainedResult{Matches: []FieldMatch{}, Signals: []SignalPoints{}, Scale: []SignalPoints{}}
		ex.tools[id] = r
	}
	return r
}

// best notes a better match of the keyword being scored.
func (ex *explainer) best(id int32, field int, stem string, v float64) {
	weight := ex.rk.substring
	if field < nFields {
		weight = ex.rk.fields[field]
	}
	ex.from[id] = FieldMatch{Field: fieldNames[field], Weight: weight, Stem: stem, Points: v}
}

// matched notes the points keyword n gave tool id, through its best match.
func (ex *explainer) matched(id int32, n int, points float64) {
	m, ok := ex.from[id]
	if !ok {
		return // a field of weight 0
	}
	delete(ex.from, id)
	m.k, m.Points = n, points
	r := ex.tool(id)
	r.Matches = append(r.Matches, m)
}

// signal notes what signal sig gave tool id.
func (ex *explainer) signal(id int32, sig signal, v float64, reason string) {
	r := ex.tool(id)
	sp := SignalPoints{Signal: signalNames[sig], Value: v, Reason: reason}
	if sig >= sigCoord {
		r.Scale = append(r.Scale, sp)
	} else if v != 0 {
		r.Signals = append(r.Signals, sp)
	}
}

// Explain runs a ToolSearch call as Search does, with the same args (a
// query and max_results, validated alike), and says why its results
// rank as they do. Its results are Search's, in the same order.
func (x *Index) Explain(args json.RawMessage) (Explanation, error) {
	q, err := x.args.parse(args)
	if err != nil {
		return Explanation{}, err
	}
	e := Explanation{Query: q.text, Rules: []Fired{}, Keywords: []ExplainedKeyword{}, Results: []ExplainedResult{}}
	if list, ok := selectList(q.text); ok {
		e.Select = true
		for _, id := range x.selectNames(list) {
			e.Results = append(e.Results, ExplainedResult{Name: x.entry(id).tool.Name, TieBreak: "named by select:, in its order"})
		}
		e.Total = len(e.Results)
		return e, nil
	}
	var s *scores
	var ids []int32
	if text := strings.TrimSpace(q.text); text == "" {
		s = &scores{x: x, plan: &plan{}}
		ids, e.Total = topBy(x.all(), q.limit+1, s.compare), x.live
	} else {
		s = x.score(text, newExplainer(x.rk))
		defer s.release()
		ids, e.Total = s.best(q.limit+1), len(s.hits)
		e.Rules = s.ex.fired
	}
	e.Keywords = explainKeywords(s.plan)
	for i, id := range ids[:min(len(ids), q.limit)] {
		e.Results = append(e.Results, s.explainResult(id, ids[i+1:]))
	}
	return e, nil
}

// explainKeywords lists a plan's keywords and what they reach.
func explainKeywords(p *plan) []ExplainedKeyword {
	out := []ExplainedKeyword{}
	for _, k := range p.kws {
		ek := ExplainedKeyword{Word: k.word, Weight: k.weight, Stop: k.stop, Variants: []ExplainedReach{}}
		for _, v := range k.vars {
			ek.Variants = append(ek.Variants, ExplainedReach{Stem: v.stem, How: howNames[v.how], Quality: v.q})
		}
		out = append(out, ek)
	}
	return out
}

// explainResult is what tool id's score is made of, and what put it
// before the tool after it, if any (rest[0]).
func (s *scores) explainResult(id int32, rest []int32) ExplainedResult {
	r := ExplainedResult{Name: s.x.entry(id).tool.Name, Matches: []FieldMatch{}, Signals: []SignalPoints{}, Scale: []SignalPoints{}}
	if s.ex != nil && s.ex.tools[id] != nil {
		r = *s.ex.tools[id]
		r.Name = s.x.entry(id).tool.Name
		for i := range r.Matches {
			r.Matches[i].Keyword = s.plan.kws[r.Matches[i].k].word
		}
	}
	if s.score != nil {
		r.Score = s.score[id]
		r.Class = s.className(id)
	}
	if len(rest) > 0 {
		_, by := s.decide(id, rest[0])
		r.TieBreak = tieBreakNames[by]
	}
	return r
}

var tierNames = [...]string{tierNone: "", tierSchema: "argument", tierDesc: "description", tierHint: "hint", tierSubstring: "substring of the name", tierName: "word of the name"}

// className says what puts tool id before others whatever the scores.
func (s *scores) className(id int32) string {
	var parts []string
	if slices.Contains(s.plan.exact, id) {
		parts = append(parts, "named exactly")
	}
	if s.plan.single && s.tier[id] != tierNone {
		parts = append(parts, "single keyword, tier: "+tierNames[s.tier[id]])
	}
	return strings.Join(parts, "; ")
}

// String renders the explanation as text, for people.
func (e Explanation) String() string {
	var b strings.Builder
	tools := "tools"
	if e.Total == 1 {
		tools = "tool"
	}
	fmt.Fprintf(&b, "query %q: %d matching %s\n", e.Query, e.Total, tools)
	if len(e.Rules) > 0 {
		b.WriteString("\nrules that fired:\n")
		for _, f := range e.Rules {
			fmt.Fprintf(&b, "  %s: %s\n", f.Rule, f.Did)
		}
	}
	if len(e.Keywords) > 0 {
		b.WriteString("\nkeywords (weight: stems reached, how, quality):\n")
		for _, k := range e.Keywords {
			b.WriteString(k.String())
		}
	}
	if e.Fallback != "" {
		fmt.Fprintf(&b, "\nthe lexical ranking alone: %s\n", e.Fallback)
	}
	for i, r := range e.Results {
		fmt.Fprintf(&b, "\n%d. %s", i+1, r.String())
	}
	return b.String()
}

func (k ExplainedKeyword) String() string {
	var b strings.Builder
	stop := ""
	if k.Stop {
		stop = ", stop word"
	}
	fmt.Fprintf(&b, "  %s (%.2f%s):", k.Word, k.Weight, stop)
	if len(k.Variants) == 0 {
		b.WriteString(" nothing in the pool")
	}
	for i, v := range k.Variants {
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(&b, "%s %s (%s %.2f)", sep, v.Stem, v.How, v.Quality)
	}
	b.WriteString("\n")
	return b.String()
}

func (r ExplainedResult) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  score %.3f\n", r.Name, r.Score)
	if r.Class != "" {
		fmt.Fprintf(&b, "     (%s)\n", r.Class)
	}
	matches := slices.SortedStableFunc(slices.Values(r.Matches), func(a, b FieldMatch) int { return cmp.Compare(b.Points, a.Points) })
	for _, m := range matches {
		fmt.Fprintf(&b, "     %+7.3f  %s in %s (%s; field weight %g)\n", m.Points, m.Keyword, m.Field, m.Stem, m.Weight)
	}
	for _, sp := range r.Signals {
		fmt.Fprintf(&b, "     %+7.3f  %s: %s\n", sp.Value, sp.Signal, sp.Reason)
	}
	for _, sp := range r.Scale {
		fmt.Fprintf(&b, "     x%6.3f  %s: %s\n", sp.Value, sp.Signal, sp.Reason)
	}
	if r.TieBreak != "" {
		fmt.Fprintf(&b, "     before the next by: %s\n", r.TieBreak)
	}
	if f := r.Fusion; f != nil {
		fused := ""
		if f.Score != 0 {
			fused = fmt.Sprintf(", fused %.4f", f.Score)
		}
		fmt.Fprintf(&b, "     fusion: lexical %s, semantic %s%s; placed by %s\n", place(f.Lexical), place(f.Semantic), fused, f.By)
	}
	return b.String()
}

// place renders a rank, 0 as absent.
func place(r int) string {
	if r == 0 {
		return "-"
	}
	return fmt.Sprintf("#%d", r)
}
