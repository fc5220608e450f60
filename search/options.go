package search

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/execlua/execlua/pool"
)

// Options configure an Index. The zero value is the ranking as measured
// (docs/search.md): the default weights, every rule and signal on.
type Options struct {
	// Weights replaces the default weights when not nil.
	Weights *Weights
	// Disable names analyzer rules (Rules) and scorer signals (Signals)
	// to turn off, for ablation: a rule off does nothing, a signal off
	// adds nothing (or scales by 1).
	Disable []string
}

// ErrUnknownName is returned for a name in Options.Disable that is no
// rule or signal.
var ErrUnknownName = errors.New("search: unknown rule or signal name")

// Weights are the ranking's weights: per field a keyword is found in,
// per way it reaches a word other than its own, and per signal.
type Weights struct {
	// Per field a keyword is found in: the tool's own name, its server's
	// name (and its namespace), the searchHint, the description, the input
	// schema's argument names and descriptions.
	Name, Server, Hint, Description, Schema float64
	// Substring is a keyword found inside a name (sql in mysql).
	Substring float64
	// How a keyword reaches a word other than its own, relative to
	// itself: a synonym or broader word, a looser relation, a derived form
	// (deployment for deploy), a past verb's nouns (connected,
	// connections), a prefix (repo, repository), a near spelling, and the
	// verbs a phrasal verb means (tear down, delete).
	Synonym, Related, Derived, Nouns, Prefix, Typo, Phrasal float64
	// Value weighs a keyword that looks like an argument value, Stop a
	// stop word among other keywords, Implied a word a value implies
	// (file for notes.md).
	Value, Stop, Implied float64
	// IDFPower flattens rarity: a rare word must not drown the rest.
	IDFPower float64
	// Coord is how much the share of the query a tool covers scales it;
	// Labelled scales the tools of other servers when a label names one.
	Coord, Labelled float64
	// The signals added to a tool's score, as Explain names them: the
	// share of its name covered, a keyword written as in the name, a
	// plural one, a plural whose singular is the name's word (taken
	// away), the query's first word
	// first in the name, the query's verb class the name's verb's, a
	// question against a name that changes things (taken away), query
	// words side by side in the description, keywords written as in the
	// description.
	Cover, Surface, Plural, One, Head, Verb, Asks, Phrase, DescSurface float64
	// Deprecated multiplies the score of a tool whose description says it
	// is deprecated (1: no effect).
	Deprecated float64
}

// DefaultWeights are the weights the ranking was measured with, chosen on
// the development halves of the evaluation sets (docs/search.md).
func DefaultWeights() Weights {
	return Weights{
		Name: 3, Server: 3.5, Hint: 2, Description: 1.5, Schema: 0.75,
		Substring: 1,
		Synonym:   0.6, Related: 0.4, Derived: 0.8, Nouns: 0.4, Prefix: 0.5, Typo: 0.6, Phrasal: 0.8,
		Value: 0.3, Stop: 0.15, Implied: 0.5,
		IDFPower: 0.5,
		Coord:    0.75, Labelled: 0.6,
		Cover: 2, Surface: 0.3, Plural: 0.6, One: 1, Head: 1, Verb: 0.7, Asks: 5,
		Phrase: 0.2, DescSurface: 0.1,
		Deprecated: deprecatedScale,
	}
}

// NewIndexWith prepares tools for searching under opts (nil for the
// defaults). It fails with ErrUnknownName for a name in opts.Disable that
// names no rule or signal.
func NewIndexWith(tools []pool.Tool, opts *Options) (*Index, error) {
	rk, err := newRanking(opts)
	if err != nil {
		return nil, err
	}
	return newIndex(tools, rk), nil
}

// ranking is Options resolved: the weights as the scorer reads them and
// the rules and switches that are on. An Index and every Index made from
// it share one, never written after it is made.
type ranking struct {
	fields                                                   [nFields]float64
	substring                                                float64
	synonym, related, derived, nouns, prefix, typo, phrasalQ float64
	value, stop, implied                                     float64
	idfPower, coord, labelled                                float64
	cover, surface, plural, one, head, verb                  float64
	asks, phrase, descSurface, deprecated                    float64
	// off holds the disabled rules and switches.
	off map[string]bool
	// The switches, resolved: whether a word with no e to drop is no
	// form of words whose e was dropped (folds, taks is no take), and
	// whether annotations weigh against the query's intent (intent).
	// descLength: whether a description match weighs by the
	// description's length (descNorm).
	folds, intent, descLength bool
	// alike: a joined word whose parts stay keywords is another reading
	// of them (alike), not a keyword more: the signal alike.
	alike bool
	// rules are the analyzer's rules that are on, by stage.
	rules ruleSet
}

// defaultRanking is the zero Options resolved, shared by every Index
// made without options.
var defaultRanking = resolve(DefaultWeights(), nil)

// newRanking resolves opts, checking that Disable names only rules and
// signals.
func newRanking(opts *Options) (*ranking, error) {
	if opts == nil {
		return defaultRanking, nil
	}
	for _, name := range opts.Disable {
		if _, ok := signalOff[name]; !ok && !slices.Contains(switchNames, name) && !slices.Contains(RuleNames(), name) {
			return nil, fmt.Errorf("%w: %q (rules: %s; signals: %s)", ErrUnknownName, name,
				strings.Join(RuleNames(), ", "), strings.Join(SignalNames(), ", "))
		}
	}
	w := DefaultWeights()
	if opts.Weights != nil {
		w = *opts.Weights
	}
	return resolve(w, opts.Disable), nil
}

// resolve is the ranking of weights w with the rules and signals named in
// disable (all known) turned off.
func resolve(w Weights, disable []string) *ranking {
	rk := &ranking{
		fields:    [nFields]float64{fName: w.Name, fServer: w.Server, fHint: w.Hint, fDesc: w.Description, fSchema: w.Schema},
		substring: w.Substring,
		synonym:   w.Synonym, related: w.Related, derived: w.Derived, nouns: w.Nouns, prefix: w.Prefix, typo: w.Typo, phrasalQ: w.Phrasal,
		value: w.Value, stop: w.Stop, implied: w.Implied,
		idfPower: w.IDFPower, coord: w.Coord, labelled: w.Labelled,
		cover: w.Cover, surface: w.Surface, plural: w.Plural, one: w.One, head: w.Head, verb: w.Verb,
		asks: w.Asks, phrase: w.Phrase, descSurface: w.DescSurface, deprecated: w.Deprecated,
		off: map[string]bool{}, alike: true,
	}
	for _, name := range disable {
		if off, ok := signalOff[name]; ok {
			off(rk)
		} else {
			rk.off[name] = true
		}
	}
	rk.rules = enabledRules(rk.off)
	rk.folds, rk.intent = !rk.off["folds"], !rk.off["intent"]
	rk.descLength = !rk.off["desc-length"]
	return rk
}

// signalOff turns a weighed signal off: what its weight is without it.
var signalOff = map[string]func(*ranking){
	"fields":       func(r *ranking) { r.fields = [nFields]float64{1, 1, 1, 1, 1} },
	"schema":       func(r *ranking) { r.fields[fSchema] = 0 },
	"idf":          func(r *ranking) { r.idfPower = 0 },
	"substring":    func(r *ranking) { r.substring = 0 },
	"synonym":      func(r *ranking) { r.synonym = 0 },
	"related":      func(r *ranking) { r.related = 0 },
	"derived":      func(r *ranking) { r.derived = 0 },
	"nouns":        func(r *ranking) { r.nouns = 0 },
	"prefix":       func(r *ranking) { r.prefix = 0 },
	"typo":         func(r *ranking) { r.typo = 0 },
	"value":        func(r *ranking) { r.value = 1 },
	"stop":         func(r *ranking) { r.stop = 0 },
	"coord":        func(r *ranking) { r.coord = 0 },
	"cover":        func(r *ranking) { r.cover = 0 },
	"surface":      func(r *ranking) { r.surface = 0 },
	"plural":       func(r *ranking) { r.plural, r.one = 0, 0 },
	"one":          func(r *ranking) { r.one = 0 },
	"phrase":       func(r *ranking) { r.phrase = 0 },
	"head":         func(r *ranking) { r.head = 0 },
	"verb":         func(r *ranking) { r.verb = 0 },
	"implied":      func(r *ranking) { r.implied = 0 },
	"desc-surface": func(r *ranking) { r.descSurface = 0 },
	"asks":         func(r *ranking) { r.asks = 0 },
	"labelled":     func(r *ranking) { r.labelled = 1 },
	"deprecated":   func(r *ranking) { r.deprecated = 1 },
	"alike":        func(r *ranking) { r.alike = false },
}

// switchNames are the switches outside the analyzer's rules: how a
// keyword's variants are looked up, substrings, and the intent signal.
var switchNames = []string{"folds", "intent", "desc-length"}

// SignalNames are the names of the scorer's signals and switches, which
// Options.Disable turns off.
func SignalNames() []string {
	out := slices.Clone(switchNames)
	for name := range signalOff {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// WithOptions returns an Index of x's tools ranked under opts (nil for
// the defaults). It shares everything x has read, so it costs nothing in
// proportion to the pool.
func (x *Index) WithOptions(opts *Options) (*Index, error) {
	rk, err := newRanking(opts)
	if err != nil {
		return nil, err
	}
	y := *x
	y.rk = rk
	return &y, nil
}
