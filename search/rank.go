package search

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// The ranking. Each keyword of a query scores each tool by its best
// match: the field it is found in (weights), how it is found (the word
// itself, a synonym, a prefix, a near spelling: qualities), and how rare
// its word is in the pool (idf, as in BM25). A tool's score is the sum
// over keywords, plus bonuses computed from its own name and description:
// how much of its name the query covers, words in the query's order, the
// word as written rather than its plural. Nothing is dropped: any tool a
// keyword matches is a hit, ranked by its score.
//
// For a single keyword the contract's tiers decide first (SRCH-5): a word
// of the name (the server's words count), a substring of the name, the
// searchHint, the description, an argument (the input schema), then a
// synonym, prefix or near spelling; MCP tools before builtins within a
// tier.
//
// The weights were chosen by measurement on the development halves of
// the evaluation sets (testdata/search/eval/dev.json and
// eval3/dev3.json) and the old set; docs/search.md lists what each signal is
// worth there.
var params = ranking{
	fields:    [nFields]float64{fName: 3, fServer: 3.5, fHint: 2, fDesc: 1.5, fSchema: 0.75},
	substring: 1,
	synonym:   0.6, related: 0.4, derived: 0.8, nouns: 0.4, prefix: 0.5, typo: 0.6,
	value: 0.3, stop: 0.15, implied: 0.5, phrasal: true,
	idfPower: 0.5,
	coord:    0.75,
	cover:    2, surface: 0.3, plural: 0.6, one: 1, named: 4, order: 0.5, head: 1, verb: 0.7,
	phrase: 0.2, descSurface: 0.1,
	intent: true, known: true, said: true, question: true, compound: true, folds: true, senses: true, wordStart: true,
	state: true, states: true, clauses: true, why: true, repeats: true, labelled: 0.6, through: true, asks: 5, phrasalQ: 0.8, medium: true,
}

type ranking struct {
	fields    [nFields]float64 // per field a keyword is found in
	substring float64          // a substring of the name (sql in mysql)
	// How a keyword reaches a word other than its own, relative to itself.
	synonym, related, derived, prefix, typo float64
	nouns                                   float64 // a past verb reaching the nouns derived from it (connected, connections)
	value                                   float64 // a keyword that looks like an argument value
	said                                    bool    // whether what a message is to say weighs as a value
	question                                bool    // whether a question reads, for the verb bonus
	known                                   bool    // whether a word the vocabulary knows is not taken for a prefix or a misspelling
	phrasal                                 bool    // whether phrasal verbs (spin up) mean their verbs
	compound                                bool    // whether two words the pool writes as one (on-call, oncall) are that word
	senses                                  bool    // whether a verb's object chooses its sense (open a page, open a door)
	state                                   bool    // whether a yes-no question asks for a state
	states                                  bool    // whether a word after is or are mid-query stands for itself (are open)
	clauses                                 bool    // whether a clause's verb, after a clause with none, is the query's
	why                                     bool    // whether a why-question asks to read errors
	repeats                                 bool    // whether a word said as a value and again not is no value
	labelled                                float64 // scales the tools of other servers when a label names one
	through                                 bool    // whether a server named after via, in or on says where to look, as a label does
	asks                                    float64 // a question against a tool named to change or destroy
	phrasalQ                                float64 // a phrasal verb reaching the verbs it means (tear down, delete)
	medium                                  bool    // whether a server's name first, before what to say, sends it
	wordStart                               bool    // whether, among other keywords, the start of a longer name word is no substring match (transit, transitions)
	folds                                   bool    // whether a word with no e to drop is no form of words whose e was dropped (taks, take)
	stop                                    float64 // a stop word, among other keywords
	idfPower                                float64 // flattens rarity: a rare word must not drown the rest
	coord                                   float64 // how much the share of the query a tool covers scales its score
	cover                                   float64 // times the share of the tool's own name the query covers
	surface                                 float64 // per keyword written as in the name (issue, not issues)
	plural                                  float64 // more for a plural keyword written as in the name (list_envelopes)
	one                                     float64 // less for a plural keyword whose singular is in the name (get_envelope)
	named                                   float64 // less for a name with the plural of a noun an id follows (order 4417, list_orders)
	order                                   float64 // per pair of neighbouring name words in the query's order
	phrase                                  float64 // per pair of description words next to each other in the query
	intent                                  bool    // whether annotations weigh against the query's intent
	descSurface                             float64 // per keyword written as in the description
	implied                                 float64 // a keyword a value implies (file for notes.md)
	head                                    float64 // the query's first word is the first word of the tool's name
	verb                                    float64 // the query's verb and the first verb of the tool's name mean alike (read, change, destroy, run)
}

// weigh is how well a tool's annotations fit the intent: a query that
// reads prefers tools that only read, one that changes things prefers
// tools that do, and only one that destroys prefers destructive tools.
// The factors are small: they decide between tools that match alike.
func (i intent) weigh(h effect) float64 {
	switch {
	case !params.intent:
		return 1
	case i == reads && h == destroys:
		return 0.8
	case i == reads && h == writes:
		return 0.93
	case i == acts && h == readsOnly:
		return 0.9
	case i == harms && h == destroys:
		return 1.1
	}
	return 1
}

// Single-keyword tiers (SRCH-5), strongest last.
const (
	tierNone int8 = iota
	tierSchema
	tierDesc
	tierHint
	tierSubstring
	tierName
)

func fieldTier(f int) int8 {
	switch f {
	case fName, fServer:
		return tierName
	case fHint:
		return tierHint
	case fSchema:
		return tierSchema
	}
	return tierDesc
}

// intent is what a query means to do, from its first word; a query that
// starts with a noun reads.
type intent int8

const (
	reads intent = iota
	acts
	harms
	runs          // run, execute: could read or write
	noVerb intent = -1
)

// plan is a keyword query, prepared.
type plan struct {
	kws       []keyword
	exact     []int32   // the tools the query names exactly
	single    bool      // one keyword: the tiers decide first
	meaning   float64   // how many keywords are not values
	weight    float64   // the keywords' weights, stop words aside
	intent    intent    // what the query means to do
	verb      intent    // the class of the query's first word when it is a verb, or noVerb
	positions int       // keywords that are not stop words
	head      int       // the query's first word (after stop words, values and server names), or -1
	servers   [][]int32 // the tools of each server a label names (algolia: ...)
	asks      bool      // the query is a question with no verb of its own: it reads
	// byStem maps every stem the query reaches (literally or not) to the
	// first keyword reaching it, for the name and phrase bonuses.
	byStem map[string]reach
}

type reach struct {
	k       int // the keyword
	pos     int // its position among the keywords that are not stop words
	literal bool
}

type keyword struct {
	word, stem string
	weight     float64
	also       []string // the verbs a phrasal verb means (create, start for spin up)
	sense      []string // the verbs a verb means with its object (navigate for open a page), instead of its synonyms
	particle   bool     // the up of spin up
	part       bool     // on or call of on-call, when oncall is a word of the pool
	joined     bool     // oncall of on-call
	misspelt   bool     // no word of the pool nor of the vocabulary: its near spellings stand for it
	single     bool     // a noun before an id: one thing of its kind (order 4417)
	stop       bool
	vars       []variant
}

type variant struct {
	stem    string
	q       float64
	p       *post
	literal bool
	loose   bool // a looser relation: it scores, but covers no word of a name
}

// scores is one keyword query evaluated over an index.
type scores struct {
	sc    *scratch
	x     *Index
	plan  *plan
	score []float64 // per tool id
	tier  []int8    // per tool id, for a single keyword
	left  []int8    // per tool id: own-name words the query does not reach
	// covered is, per tool id, the weight of the keywords (stop words
	// aside) that reach it.
	covered []float64
	hits    []int32
	named   idSet // the tools of the servers a label names (plan.servers)
	phrases map[string]phraseWord
}

func (x *Index) idf(df int32) float64 {
	n := float64(x.live)
	return math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
}

// serverWord reports whether stem names a server (or a namespace) and no
// tool by its own name.
func (x *Index) serverWord(stem string) bool {
	p, ok := x.words.get(stem)
	return ok && len(p.f[fServer]) > 0 && len(p.f[fName]) == 0
}

// commonName reports whether keyword k is a whole word of the names of
// many tools.
func (x *Index) commonName(k keyword) bool {
	return len(k.vars) > 0 && k.vars[0].literal && len(k.vars[0].p.f[fName]) >= 32
}

// rarity weighs keyword k reaching a tool through v: by the more common
// of its own word and the word it reaches (open reaching create through a
// synonym is as common as create).
func (x *Index) rarity(k keyword, v variant) float64 {
	df := v.p.df
	if len(k.vars) > 0 && k.vars[0].literal {
		df = max(df, k.vars[0].p.df)
	}
	return math.Pow(x.idf(df), params.idfPower)
}

// scratch is the per-tool arrays one query needs, reused across queries
// (zeroed where a query wrote) so a search does not allocate and clear
// arrays the size of the pool.
type scratch struct {
	score, covered, cur, scale []float64
	tier, left                 []int8
	class                      []int16
}

var scratches sync.Pool

func getScratch(n int) *scratch {
	if sc, ok := scratches.Get().(*scratch); ok && len(sc.score) >= n {
		return sc
	}
	return &scratch{
		score: make([]float64, n), covered: make([]float64, n), cur: make([]float64, n), scale: make([]float64, n),
		tier: make([]int8, n), left: make([]int8, n), class: make([]int16, n),
	}
}

// release zeroes what the query wrote and returns its arrays for reuse.
func (s *scores) release() {
	for _, id := range s.hits {
		s.score[id], s.covered[id], s.tier[id], s.left[id] = 0, 0, 0, 0
		s.sc.scale[id], s.sc.class[id] = 0, 0
	}
	scratches.Put(s.sc)
}

func (x *Index) score(text string) *scores {
	p := x.plan(text)
	sc := getScratch(int(x.next))
	s := &scores{x: x, plan: p, sc: sc, score: sc.score, left: sc.left, covered: sc.covered, tier: sc.tier}
	cur := sc.cur
	var touched []int32
	set := func(id int32, v float64) {
		if cur[id] == 0 {
			touched = append(touched, id)
		}
		cur[id] = max(cur[id], v)
	}
	for _, k := range p.kws {
		for _, v := range k.vars {
			w := v.q * x.rarity(k, v)
			for f, ids := range v.p.f {
				if k.stop && f > fServer {
					break // a stop word counts only as a word of a name (get_me)
				}
				for _, id := range ids {
					set(id, params.fields[f]*w)
					if p.single && v.literal && !k.stop {
						s.tier[id] = max(s.tier[id], fieldTier(f))
					}
				}
			}
		}
		// A substring of a name (sql in mysql, log in worklog) counts for
		// keywords that are no values; for a word many names have whole
		// (list, get), only when it decides a tier (a single keyword): its
		// substrings would mostly find those names again.
		if c := compact(k.word); len(c) >= 3 && k.weight == 1 && (p.single || !x.commonName(k)) {
			subs := x.substrings(c)
			w := params.substring * math.Pow(x.idf(int32(len(subs))), params.idfPower)
			for _, id := range subs {
				// Among other keywords, the start of a longer word of
				// the name is another word (transit of transitions, time
				// of timezone): sql in mysql and log in worklog count.
				if !p.single && params.wordStart && x.startsWord(id, c) {
					continue
				}
				set(id, w)
				if p.single {
					s.tier[id] = max(s.tier[id], tierSubstring)
				}
			}
		}
		for _, id := range touched {
			if s.score[id] == 0 {
				s.hits = append(s.hits, id)
			}
			s.score[id] += cur[id] * k.weight
			if !k.stop {
				s.covered[id] += k.weight
			}
			cur[id] = 0
		}
		touched = touched[:0]
	}
	for _, id := range p.exact {
		if s.score[id] == 0 && !slices.Contains(s.hits, id) {
			s.hits = append(s.hits, id)
		}
	}
	if len(p.servers) > 0 {
		s.named = newIDSet(slices.Concat(p.servers...))
	}
	for _, id := range s.hits {
		s.sc.scale[id], s.sc.class[id] = s.computeScale(id), s.computeClass(id)
	}
	return s
}

// scale is what multiplies a tool's score and bonuses: the share of the
// query it covers, and how its annotations fit the query's intent.
func (s *scores) scale(id int32) float64 { return s.sc.scale[id] }

func (s *scores) computeScale(id int32) float64 {
	p := s.plan
	coord := 1.0
	if p.weight > 0 {
		coord = 1 - params.coord + params.coord*s.covered[id]/p.weight
	}
	if len(p.servers) > 0 && !s.named.has(id) {
		coord *= params.labelled
	}
	return coord * p.intent.weigh(s.x.meta(id).effect)
}

// best returns the k best hits in order. Bonuses cost a look at a tool's
// name and description, so they are added in two rounds, each only to the
// tools that can still reach the top k: a tool whose score with every
// bonus still to come stays below the k-th best score without them
// cannot. The name's bonuses are cheap; the description's phrases, which
// read the description again, are left for the few tools still in the
// running.
func (s *scores) best(k int) []int32 {
	cands := s.hits
	for _, round := range []struct {
		bound  func(id int32) float64
		finish func(id int32)
	}{
		{s.nameBound, s.finishName},
		{s.phraseBound, s.finishPhrase},
	} {
		cands = s.prune(cands, k, round.bound)
		for _, id := range cands {
			round.finish(id)
		}
	}
	return topBy(cands, k, s.compare)
}

// prune keeps the ids that can still reach the top k when each may still
// gain bound(id) before scaling.
func (s *scores) prune(ids []int32, k int, bound func(id int32) float64) []int32 {
	if len(ids) <= k {
		return ids
	}
	low := s.sc.cur // free after scoring: the score now, scaled
	for _, id := range ids {
		low[id] = s.score[id] * s.scale(id)
	}
	defer func() {
		for _, id := range ids {
			low[id] = 0
		}
	}()
	kth := topBy(ids, k, func(a, b int32) int {
		if ca, cb := s.class(a), s.class(b); ca != cb {
			return cb - ca
		}
		return cmp.Compare(low[b], low[a])
	})[k-1]
	ck := s.class(kth)
	var out []int32
	for _, id := range ids {
		if c := s.class(id); c > ck || c == ck && (s.score[id]+bound(id))*s.scale(id) >= low[kth] {
			out = append(out, id)
		}
	}
	return out
}

// nameBound and phraseBound bound what finishName and finishPhrase add.
func (s *scores) nameBound(id int32) float64 {
	own := float64(s.x.meta(id).own)
	return params.head + params.verb + params.cover + (params.surface+params.plural)*own + params.order*max(own-1, 0) + s.phraseBound(id)
}

func (s *scores) phraseBound(int32) float64 {
	return params.phrase*float64(max(s.plan.positions-1, 0)) + params.descSurface*float64(s.plan.positions)
}

// class is the part of the order that comes before the score: named
// exactly, and for a single keyword its tier and MCP before builtin.
func (s *scores) class(id int32) int { return int(s.sc.class[id]) }

func (s *scores) computeClass(id int32) int16 {
	var c int16
	if slices.Contains(s.plan.exact, id) {
		c = 1 << 8
	}
	if s.plan.single {
		c += int16(s.tier[id]) << 1
		if s.x.meta(id).mcp {
			c++
		}
	}
	return c
}

// finishName adds the bonuses of tool id's own name and notes how much
// of it the query leaves out.
func (s *scores) finishName(id int32) {
	e := s.x.entry(id)
	p := s.plan
	var bonus float64
	words, covered, prev := 0, 0, -1
	verb := p.verb == noVerb
	for _, nw := range e.own {
		if nw.ns {
			continue
		}
		if !verb {
			if c := nw.verb; c != noVerb {
				verb = true
				if c == p.verb {
					bonus += params.verb
				}
				// A question asks to read: a tool named to change or
				// destroy is not its answer (what streams can I join).
				if p.asks && (c == acts || c == harms) {
					bonus -= params.asks
				}
			}
		}
		if words == 0 && p.head >= 0 && p.headStem(nw.stem) {
			bonus += params.head
		}
		r, ok := p.byStem[nw.stem]
		if !ok {
			// A stop word of a name (getTransitionsForJiraIssue) is
			// not left uncovered, unless it is the name's verb (like in
			// like_tweet).
			if !nw.stop || nw.verb != noVerb {
				words++
				prev = -1
			}
			continue
		}
		words++
		covered++
		if w := p.kws[r.k].word; r.literal && w == nw.word || !r.literal && len(w) >= 5 && oneEdit(w, nw.word) {
			bonus += params.surface
			if r.literal && singular(w) != w {
				bonus += params.plural
			}
		} else if r.literal && singular(w) != w && singular(w) == nw.word {
			bonus -= params.one // envelopes asks for many; get_envelope reads one
		} else if r.literal && p.kws[r.k].single && singular(nw.word) == w {
			bonus -= params.named // order QZ3M0P9RST reads one; list_orders lists many
		}
		if prev >= 0 && r.pos > prev {
			bonus += params.order
		}
		prev = r.pos
	}
	if words > 0 && covered > 0 {
		bonus += params.cover * float64(covered) / float64(words) * min(1, float64(covered)/p.meaning)
	}
	s.left[id] = int8(min(words-covered, 100))
	s.score[id] += bonus
}

// headStem reports whether name stem s is the query's first word, or
// for a phrasal verb (get out, tear down) one of the verbs it means: get
// out is no get.
func (p *plan) headStem(s string) bool {
	k := &p.kws[p.head]
	if k.also == nil {
		return k.stem == s || k.misspelt && slices.ContainsFunc(k.vars, func(v variant) bool { return v.stem == s && v.q == params.typo })
	}
	return slices.ContainsFunc(k.also, func(w string) bool { return stem(w) == s })
}

// finishPhrase adds a bonus per pair of keywords next to each other in the
// query that are next to each other in tool id's description (stop words
// aside), each pair once, and then scales the score.
func (s *scores) finishPhrase(id int32) {
	var pairs, written uint64
	prev := -2
	splitRaw(s.x.entry(id).tool.Description, func(raw string, upper, whole bool) {
		if whole {
			return
		}
		w := s.phraseWord(raw, upper)
		if w.stop {
			return
		}
		if !w.found {
			prev = -2
			return
		}
		r := w.r
		if r.pos == prev+1 && r.pos < 64 {
			pairs |= 1 << r.pos
		}
		if w.written && r.pos < 64 {
			written |= 1 << r.pos
		}
		prev = r.pos
	})
	s.score[id] = (s.score[id] + params.phrase*float64(bits.OnesCount64(pairs)) + params.descSurface*float64(bits.OnesCount64(written))) * s.scale(id)
}

// phraseWord is what finishPhrase reads from a word of a description:
// a stop word, or the keyword it reaches, if any, and whether as written.
type phraseWord struct {
	stop, found, written bool
	r                    reach
}

// phraseWord reads the description word raw (with a capital if upper),
// once per query: the tools in the running share most of their words.
func (s *scores) phraseWord(raw string, upper bool) phraseWord {
	if w, ok := s.phrases[raw]; ok {
		return w
	}
	if s.phrases == nil {
		s.phrases = map[string]phraseWord{}
	}
	word := raw
	if upper {
		word = strings.ToLower(raw)
	}
	var w phraseWord
	if w.stop = isStop(word); !w.stop {
		w.r, w.found = s.plan.byStem[stem(word)]
		w.written = w.found && w.r.literal && s.plan.kws[w.r.k].word == word
	}
	s.phrases[raw] = w
	return w
}

// plan splits a query into keywords and looks their words up.
func (x *Index) plan(text string) *plan {
	p := &plan{byStem: map[string]reach{}, head: -1, verb: noVerb}
	bare := strings.ToLower(bareName(text))
	if ids, ok := x.names.get(bare); ok {
		for _, id := range ids {
			if x.entry(id).lower == bare {
				p.exact = append(p.exact, id)
			}
		}
		if len(p.exact) == 0 {
			p.exact = ids // a bare name: every tool of that name
		}
	}
	var all []keyword
	// first holds each word's first place in all, and noun says whether
	// all has a message noun: a word said again is looked up, so a query's
	// planning is linear in its length.
	first, noun := map[string]int{}, false
	add := func(k keyword) {
		if _, ok := first[k.word]; !ok {
			first[k.word] = len(all)
		}
		noun = noun || messageNouns[k.word]
		all = append(all, k)
	}
	kept, verb, said, told, posting, last := 0, false, false, false, false, -1
	medium := false // the query starts with a server's name used as a verb: whatsapp mom that ...
	// head makes keyword n the query's first word when none is yet.
	head := func(n int) {
		k := &all[n]
		if !verb && k.weight == 1 && !isStop(k.word) && !k.particle && !k.part && !x.serverWord(k.stem) {
			verb = true
			p.head = n
			p.verb = verbClass(k.word)
			if p.verb != noVerb {
				p.intent = p.verb
			}
		}
	}
	// imply adds word w, which the query implies (a file for notes.md,
	// errors for a why), at a lower weight, unless the query has it.
	imply := func(w string) {
		if _, ok := first[w]; !ok {
			add(keyword{word: w, stem: stem(w), weight: params.implied})
			kept++
		}
	}
	toks := tokens(text)
	for i, tok := range toks {
		// A service written as its domain or with a dot (rocket.chat,
		// monday.com) is its server's name, no file.
		if server, ok := x.dottedServer(tok); ok {
			tok = token{text: server}
		}
		ws := words(tok.text)
		lw := bareWord(tok.text)
		if long, ok := abbreviations[lw]; ok {
			ws = strings.Fields(long)
		}
		// What a message is to say ("tell them that the build is green",
		// "a note saying it is approved") is its content: values, not the
		// request.
		if params.said && len(ws) == 1 {
			if sayWords[lw] && (posting || medium || noun) || lw == "that" && (told || medium) {
				said = true
				told = told || medium
			}
			medium = medium || i == 0 && params.medium && (x.serverWord(stem(lw)) || mediumWords[lw]) && len(toks) > 1 && x.addressee(toks[1])
			told = told || tellWords[lw]
			posting = posting || told || postWords[lw]
		}
		// An id such as web-5d8 or i-0abc123 makes its whole token a
		// value. (A capitalized word the pool does not know, a person's
		// or a company's name, is not: it matches nothing anyway, and
		// weighing it down changed too few queries, for the worse.)
		// A server's name written in its own style (QuickBooks) is a
		// word of the pool, whatever its parts.
		_, whole := x.words.get(stem(compact(tok.text)))
		value := tok.value || said || slices.ContainsFunc(ws, func(w string) bool {
			_, known := x.words.get(stem(w))
			known = known || whole && len(ws) > 1
			return !known && mixed(w) || idLike(w)
		})
		// A day after next, this, every or on is a date (due next
		// monday), not a server of that name.
		if weekdays[lw] && i > 0 && dateWords[bareWord(toks[i-1].text)] {
			value = true
		}
		// A clause that begins with a verb, after one that has none,
		// says what to do (the customer got charged twice, refund one).
		// So does one after a clause whose verb is past (I finished the
		// groceries, tick it off) or denied (can't make it, drop the
		// reservation), and a verb of a phrasal pair (take it down) or
		// with senses (please file it as a ticket).
		if tok.clause && len(ws) > 0 && params.clauses && (p.verb == noVerb || p.head >= 0 && pastOrDenied(all, p.head)) {
			if w := strings.ToLower(ws[0]); verbClass(w) != noVerb || phrasalVerbs[w] || senses[w] != nil {
				verb = false
			}
		}
		// A noun before an id or a quoted name (order QZ3M0P9RST, device
		// 4455667788, catalog 'prod') names one of its kind.
		if last >= 0 && (value && (tok.opens || strings.ContainsFunc(tok.text, unicode.IsDigit)) || isNumber(lw)) && singular(all[last].word) == all[last].word {
			all[last].single = true
		}
		for j, w := range ws {
			prev := last
			last = -1
			if isNumber(w) {
				continue
			}
			// A word said again counts once; said as a value first
			// ('stripe-api-key' from key vault) and then not, it is no value.
			if j, ok := first[w]; ok {
				if !value && all[j].weight < 1 && !all[j].stop && params.repeats {
					all[j].weight = 1
					last = j
				}
				continue
			}
			k := keyword{word: w, stem: stem(w), weight: 1}
			// A verb denied (don't delete, never archive) is no request.
			if n := len(all) - 1; n >= 0 && negations[all[n].word] && verbClass(w) != noVerb {
				value = true
			}
			// After is or are that follow their subject, a verb of the
			// vocabulary is a state (tickets that are open), no request
			// to act: it stands for itself only.
			if n := len(all) - 1; n > 0 && copulas[all[n].word] && !questionWords[all[n-1].word] && params.states && verbWords[w] {
				k.sense = []string{}
			}
			if value {
				k.weight = params.value
			}
			// A verb's particle (spin up, tear down, roll back) makes the
			// pair mean another verb: the verb reaches it, the particle
			// weighs as a stop word, and the pair's class is the query's.
			if n := len(all) - 1; n >= 0 && params.phrasal {
				if to, ok := phrasal[all[n].word+" "+w]; ok {
					all[n].also = to
					k.particle = true
					if p.head == n {
						p.verb = verbClass(to[0])
						p.intent = max(p.verb, reads)
					}
				}
			}
			// Two words written apart or hyphenated (on-call, e mail, log
			// in) that the pool writes as one (oncall, email, login) are
			// that word too. When one part is a stop word (on-call, log
			// in), the pair is the word alone, and the parts weigh as stop
			// words: on-call is no call.
			joined := ""
			if prev >= 0 && params.compound && !value && all[prev].weight == 1 && !k.particle && len(w) > 1 && len(all[prev].word) > 1 { // week's is no weeks
				joined = all[prev].word + w
				// Written with a hyphen (to-do, e-mail), a short pair joins
				// too.
				short := len(joined) < 5 && !(j > 0 && len(joined) == 4)
				if _, ok := x.words.get(stem(joined)); !ok || short || isStop(joined) {
					joined = ""
				}
			}
			if joined != "" && isStop(w) && isStop(all[prev].word) && j == 0 {
				joined = "" // for me is no forme; to-do is todo
			}
			if joined != "" && (x.serverWord(stem(w)) && isStop(all[prev].word) || x.serverWord(all[prev].stem) && isStop(w)) {
				joined = "" // in box is no inbox when box is a server (key vault is keyvault)
			}
			// A pair joined to a third word (to-do lists, todolists) is
			// the longer word alone too.
			if joined != "" && (isStop(w) || isStop(all[prev].word) || all[prev].joined) {
				k.part = true
				all[prev].part = true
				if !isStop(all[prev].word) {
					kept--
				}
				if p.head == prev {
					verb, p.head, p.verb, p.intent = false, -1, noVerb, reads
				}
			}
			last = len(all)
			add(k)
			head(last)
			if !isStop(w) && !k.part {
				kept++
			}
			if joined != "" {
				add(keyword{word: joined, stem: stem(joined), weight: 1, joined: true})
				head(len(all) - 1)
				kept++
				last = len(all) - 1 // to-do lists: todolists
			}
		}
		// A value says what kind of thing it is: a URL, a person's
		// address (a user: offboard bob@acme.com), a file, a channel.
		for _, w := range strings.Fields(tok.implies) {
			imply(w)
		}
		// After a label that follows a verb of posting or telling ("tweet:
		// we are live", "post on bluesky: shipping today"), the rest is
		// what to post. A label alone ("snowflake: list warehouses")
		// qualifies what follows.
		if tok.label && posting && params.said {
			said = true
		}
		// A label that names a server (algolia: add a record) says where
		// to look.
		// So does one after via, using, in or on (send it via mailgun,
		// in snowflake, delete the rows).
		server := stem(lw)
		by := i > 0 && throughWords[bareWord(toks[i-1].text)] && params.through
		if (tok.label && !posting || by) && x.serverWord(server) {
			sp, _ := x.words.get(server)
			p.servers = append(p.servers, sp.f[fServer])
		}
	}
	// A verb's particle after its object (turn the dag back on, shut the
	// server down) makes the pair mean another verb, as next to it does.
	if h := p.head; h >= 0 && params.phrasal && all[h].also == nil {
		for j := h + 2; j < min(len(all), h+8); j++ {
			pair := all[h].word + " " + all[j].word
			to, ok := phrasal[pair]
			if other, differs := apart[pair]; differs {
				to, ok = other, other != nil
			}
			if ok && isParticle(all[j].word) {
				all[h].also = to
				all[j].particle = true
				p.verb = verbClass(to[0])
				p.intent = max(p.verb, reads)
				if !isStop(all[j].word) {
					kept--
				}
				break
			}
		}
	}
	// A medium used as the query's verb before whom or what it sends
	// (email the report to finance, text a customer) sends it; in a
	// question (what text is on the page) it is no verb.
	if h := p.head; h >= 0 && h+1 < len(all) && mediumWords[all[h].word] && params.medium && (isStop(all[h+1].word) || all[h+1].weight < 1) && (h == 0 || !determiners[all[h-1].word] && all[h-1].weight == 1) && !questionWords[firstWord(all)] {
		medium, said = true, true
	}
	// A server's name used as a verb before what to say (whatsapp mom
	// that I'm late, slack the team that the build is green) sends it.
	if medium && said && p.verb == noVerb {
		add(keyword{word: "send", stem: stem("send"), weight: 1}) // the query's verb
		p.verb, p.intent = acts, acts
		kept++
	}
	// Why something fails or does not show asks to read its errors.
	if params.why && firstWord(all) == "why" {
		imply("error")
		p.verb, p.intent, p.asks = reads, reads, true
	}
	// When something is asks for its date.
	if w, ok := questionImplies[firstWord(all)]; ok && params.question {
		imply(w)
	}
	// Doing things in one go, in one call or at once does them in bulk.
	for i := 1; i < len(all); i++ {
		if batchPhrases[[2]string{all[i-1].word, all[i].word}] {
			for _, k := range all[i-1 : i+1] {
				if !isStop(k.word) && !k.part {
					kept--
				}
			}
			all[i-1].part, all[i].part = true, true
			imply("batch")
			imply("multiple")
			imply("bulk")
			break
		}
	}
	// A question (what song is playing, which doors are open, who is on
	// call) reads, whatever its first word.
	// A question on what is (is our app allowed to ..., are the doors
	// open) asks, whatever word comes first after it.
	if params.question && copulas[firstWord(all)] {
		p.verb, p.intent = noVerb, reads
	}
	if params.question && p.verb == noVerb && questionWords[firstWord(all)] {
		p.verb, p.asks = reads, true
		// A yes-no question (is the door open, are the lights on) asks
		// for a state.
		if yesNo[all[0].word] && params.state && kept > 0 {
			imply("state")
		}
	}
	// "API" closing a query (bugsnag api, restaurant menu api) asks for
	// the service, not for a tool about APIs.
	if n := len(all) - 1; n > 0 && all[n].word == "api" && kept > 1 {
		all[n].part = true
		kept--
	}
	p.single = kept == 1
	if kept == 0 {
		p.single = len(all) == 1
	} else {
		// Stop words stay, weighed low and matched in names only: "who am
		// I" is get_me.
		for i := range all {
			if isStop(all[i].word) || all[i].particle || all[i].part {
				all[i].stop, all[i].weight = true, params.stop
			}
		}
	}
	p.kws = all[:min(len(all), maxKeywords)]
	if p.head >= len(p.kws) {
		p.head = -1 // the first word came after the cap
	}
	for _, k := range p.kws {
		if k.weight == 1 {
			p.meaning++
		}
		if !k.stop {
			p.weight += k.weight
		}
	}
	p.meaning = max(p.meaning, 1)
	// The sense of the query's verb, from its object: the first three
	// words after it that are no stop words.
	if h := p.head; h >= 0 && params.senses {
		// Turning or making something into something else converts it,
		// breaking it into parts splits it: the verb is convert, not turn
		// (on).
		if to, ok := intoVerbs[p.kws[h].word]; ok && slices.ContainsFunc(p.kws[h+1:], func(k keyword) bool { return k.word == "into" }) {
			p.kws[h].word, p.kws[h].stem = to, stem(to)
		}
		n := 0
		for j := h + 1; j < len(p.kws) && p.kws[h].sense == nil; j++ {
			if p.kws[j].stop {
				continue
			}
			n++
			for _, sn := range senses[p.kws[h].word] {
				// The place a thing is put comes after the thing (put
				// piano lessons on the calendar).
				if sn.objects[p.kws[j].stem] && (n <= 3 || sn.far) {
					p.kws[h].sense = sn.verbs
					break
				}
			}
		}
	}
	// Making something a state (make the entry live, make the video
	// password protected, make genre filterable) changes it; it does not
	// make a new one.
	if h := p.head; h >= 0 && params.senses && p.kws[h].word == "make" && p.kws[h].sense == nil {
		for _, k := range p.kws[h+1:] {
			if to, ok := madeStates[k.word]; ok && k.weight == 1 {
				p.kws[h].sense = to
			} else if strings.HasSuffix(k.word, "able") && k.weight == 1 && len(k.word) > 6 {
				p.kws[h].sense = []string{"update", "set"}
			}
		}
	}
	pos := 0
	for i := range p.kws {
		k := &p.kws[i]
		if !k.stop {
			pos++
		}
		x.variants(k)
		p.positions = pos
		for _, v := range k.vars {
			if v.loose {
				continue
			}
			if r, ok := p.byStem[v.stem]; !ok || v.literal && !r.literal {
				p.byStem[v.stem] = reach{k: i, pos: pos, literal: v.literal}
			}
		}
	}
	return p
}

// variants finds the stems keyword k reaches: its own, its synonyms', and,
// only when its own is not in the pool and it is no stop word, the words
// it is a prefix of (repo, repository) and, for five letters or more, the
// words one edit away (screenshoot, screenshot; hurly, hourly), for four letters the
// words two neighbouring letters swapped away (lsit, list). A word whose
// stem the pool has only from words with an e the stemmer dropped (taks,
// of take and takes) is no form of them: it reaches them as a near
// spelling, and the near spellings too (task).
func (x *Index) variants(k *keyword) {
	p, ok := x.words.get(k.stem)
	doubt := ok && params.folds && p.plain == 0 && bareStem(k.word) && !foldsE(k.word)
	if ok && !doubt {
		k.vars = append(k.vars, variant{stem: k.stem, q: 1, p: p, literal: true})
	} else if !isStop(k.word) && !k.particle && !(params.known && x.knows(k)) { // can is no prefix of cancel; down of tear down no prefix of download
		k.misspelt = !ok
		if doubt {
			k.vars = append(k.vars, variant{stem: k.stem, q: params.typo, p: p})
		} else if len(k.stem) >= 3 {
			x.words.near(k.stem, func(key string, p *post) {
				k.vars = append(k.vars, variant{stem: key, q: params.prefix, p: p})
			})
		}
		if len(k.word) >= 4 || doubt {
			// A near spelling starts as the word does, or with its first
			// letters swapped (lsit, rleay).
			st := k.stem
			var starts []string // a stem can be two letters (sxes, sx)
			if len(st) >= 2 {
				starts = append(starts, st[:2])
			}
			if len(st) >= 3 {
				starts = append(starts, st[1:2]+st[:1], st[:1]+st[2:3])
			}
			// Its second letter dropped or mistyped (hurly, hourly), for
			// words long enough to be told apart from others so.
			if first := st[0] - 'a'; len(k.word) >= 5 && first < 26 {
				for _, pre := range letterPairs[first] {
					if !slices.Contains(starts, pre) {
						starts = append(starts, pre)
					}
				}
			}
			for i, pre := range starts {
				if i > 0 && pre == st[:2] {
					continue
				}
				x.words.near(pre, func(key string, p *post) {
					near := oneEdit(key, st) || oneEdit(key, k.word)
					if !near && strings.HasSuffix(key, "i") {
						near = oneEdit(key[:len(key)-1]+"y", k.word) // flaky as the pool has it, flaki as a stem
					}
					if len(k.word) < 5 {
						near = swapped(key, k.word)
					}
					if len(key) >= 4 && near && !strings.HasPrefix(key, st) {
						k.vars = append(k.vars, variant{stem: key, q: params.typo, p: p})
					}
				})
			}
		}
	}
	reach := func(stems []string, q float64, loose bool) {
		for _, s := range stems {
			if p, ok := x.words.get(s); ok && q > 0 {
				k.vars = append(k.vars, variant{stem: s, q: q, p: p, loose: loose})
			}
		}
	}
	reach(derive(k.word), params.derived, false)
	reach(nounsOf(k.word), params.nouns, false)
	for _, w := range k.also {
		reach([]string{stem(w)}, params.phrasalQ, false)
		reach(synonymTable[stem(w)], params.synonym, false)
	}
	for _, w := range k.sense {
		reach(append([]string{stem(w)}, synonymTable[stem(w)]...), params.synonym, false)
	}
	if k.sense != nil {
		return
	}
	key := tableKey(k.word)
	reach(synonymTable[key], params.synonym, false)
	reach(relatedTable[key], params.related, true)
}

// letterPairs are the two-letter prefixes, by their first letter: made
// once, as a near spelling tries all 26 of its first letter's.
var letterPairs = func() (pairs [26][26]string) {
	for a := range pairs {
		for b := range pairs[a] {
			pairs[a][b] = string([]byte{byte('a' + a), byte('a' + b)})
		}
	}
	return pairs
}()

// knows reports whether the vocabulary reaches a word of the pool from
// keyword k: then k is a word in its own right (transit reaches
// directions), neither cut short nor misspelled, and is not looked up
// as a prefix (of transition) or a near spelling.
func (x *Index) knows(k *keyword) bool {
	key := tableKey(k.word)
	for _, ss := range [][]string{synonymTable[key], relatedTable[key], derive(k.word)} {
		for _, s := range ss {
			if _, ok := x.words.get(s); ok {
				return true
			}
		}
	}
	return false
}

// dottedServer returns the server a token such as rocket.chat or
// monday.com names: the letters of the whole token, or of what comes
// before its last dot, when they are a server's name, or the name of a
// server written with a hyphen for the dot (booking-com).
func (x *Index) dottedServer(tok token) (string, bool) {
	if tok.implies != "file" || strings.ContainsAny(tok.text, "/@") {
		return "", false
	}
	f := strings.ToLower(strings.Trim(tok.text, "\"'`“”‘’()<>,.;:!?"))
	for _, c := range []string{compact(f), compact(f[:max(strings.LastIndexByte(f, '.'), 0)])} {
		if len(c) >= 3 && x.serverWord(stem(c)) {
			return c, true
		}
	}
	// A server whose name has the dot as a hyphen (booking.com, booking-com);
	// of two such names (cal-com, calcom), the first in order, so that a
	// query is always read alike.
	c, found := compact(f), ""
	for server := range x.groups {
		if server != "" && sameLetters(server, c) && (found == "" || server < found) {
			found = server
		}
	}
	return strings.ReplaceAll(found, "-", " "), found != ""
}

// sameLetters reports whether compact(s) is c, without making it.
func sameLetters(s, c string) bool {
	for _, r := range s {
		if k := compactRune(r); k >= 0 {
			d, size := utf8.DecodeRuneInString(c)
			if size == 0 || d != k {
				return false
			}
			c = c[size:]
		}
	}
	return c == ""
}

// addressee reports whether tok can be whom a server used as
// a verb sends to (whatsapp mom, slack the team): a stop word, a value or
// a word the pool does not have, not an object of the server's own
// (woocommerce products).
func (x *Index) addressee(tok token) bool {
	w := bareWord(tok.text)
	_, known := x.words.get(stem(w))
	return tok.value || isStop(w) || !known
}

// bareWord is a token's text lowercased, without the punctuation and
// quotes around it.
func bareWord(text string) string {
	return strings.ToLower(strings.Trim(text, ".,:;!?\"'()"))
}

// firstWord is the first keyword's word, or "".
func firstWord(all []keyword) string {
	if len(all) == 0 {
		return ""
	}
	return all[0].word
}

// pastOrDenied reports whether the verb at h is past (finished) or
// denied (can't make, never got): no request.
func pastOrDenied(all []keyword, h int) bool {
	w := all[h].word
	if strings.HasSuffix(w, "ed") {
		return true
	}
	for j := max(h-2, 0); j < h; j++ {
		if negations[all[j].word] {
			return true
		}
	}
	return false
}

// negations deny the verb after them.
var negations = wordSet("not", "t", "never", "cannot", "cant", "dont", "no")

// phrasalVerbs are the verbs of the phrasal pairs (take of take down).
var phrasalVerbs = func() map[string]bool {
	out := map[string]bool{}
	for pair := range phrasal {
		v, _, _ := strings.Cut(pair, " ")
		out[v] = true
	}
	return out
}()

// weekdays are the days of the week, and dateWords what comes before
// one that is a date.
var (
	weekdays  = wordSet("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
	dateWords = wordSet("next", "this", "last", "every", "on", "by", "until", "till", "before", "after", "since", "from", "to")
)

// politeWords begin a clause before its verb.
var politeWords = wordSet("please", "pls", "can", "could", "would", "will", "you", "u", "kindly", "just", "also", "then", "and", "now", "so")

// throughWords, before a server's name, say it is where to look.
var throughWords = wordSet("via", "using", "through", "with", "in", "on", "from")

// determiners come before a noun: the email of "Karen's email" or "the
// email" is no verb.
var determiners = wordSet("s", "the", "a", "an", "my", "your", "our", "their", "his", "her", "its", "this", "that")

// isParticle reports whether w is an adverb particle that can stand after a
// verb's object (turn it on, shut it down, let them know), unlike a
// preposition (look into, buy from).
func isParticle(w string) bool { return particles[w] }

var particles = wordSet("on", "off", "up", "down", "out", "back", "away", "over", "know")

// copulas begin a question on what is, which has no verb of action.
var copulas = wordSet("is", "are", "was", "were")

// questionImplies are the words a question's first word asks for: when
// a date, and where is my package asks to track it (not for a place).
// Who is left out: who maintains a gem asks for its owners, not users.
var questionImplies = map[string]string{"when": "date", "where": "track"}

// batchPhrases ask for many things done by one call.
var batchPhrases = map[[2]string]bool{
	{"one", "go"}: true, {"one", "call"}: true, {"one", "request"}: true,
	{"at", "once"}: true, {"one", "shot"}: true, {"one", "batch"}: true,
}

// yesNo begin a question answered yes or no.
var yesNo = wordSet("is", "are", "does", "do")

// questionWords begin a question.
var questionWords = wordSet("what", "which", "who", "whose", "is", "are", "does", "do", "how", "when", "where", "whats")

// postWords are verbs of posting: after one, the text after a label is
// what to post.
var postWords = wordSet("post", "tweet", "send", "publish", "comment", "text", "email", "mail", "skeet", "toot", "share", "reply", "respond")

// mediumWords, first in a query, are verbs of sending by a medium (email
// the team that ...).
var mediumWords = wordSet("email", "mail", "text", "sms")

// messageNouns are what a message is written as: before saying, its
// content follows (a note saying it is approved).
var messageNouns = wordSet("note", "message", "comment", "reply", "email", "mail", "post", "text", "tweet", "status", "announcement", "sms", "dm", "card", "letter", "update", "toot", "skeet", "memo", "notice", "banner", "title", "subject", "body", "description")

// sayWords begin a message's content; after tellWords, so does that.
var (
	sayWords  = wordSet("saying", "says", "stating")
	tellWords = wordSet("tell", "telling", "notify", "inform", "let", "say", "remind",
		"reply", "respond", "answer", "warn", "confirm", "announce", "message", "ping", "dm", "ask", "write", "note", "remember")
)

// token is one whitespace-separated piece of a query; value marks what
// looks like an argument rather than a description of the tool: quoted
// text, paths, owner/repo, URLs, addresses, #channels and @people.
type token struct {
	text    string
	value   bool
	label   bool   // it ended in a colon, now dropped
	clause  bool   // a comma or a semicolon came before it
	opens   bool   // it opens a quoted value
	implies string // the kind of thing a value is, as a word: url, email, file, channel
}

func tokens(text string) []token {
	var out []token
	quote := rune(0)
	fs, clauses := fields(text)
	for n, f := range fs {
		t := token{text: f, value: quote != 0, clause: clauses[n] && quote == 0}
		// A clause begins after its polite or modal words too (please
		// file it, can you log it).
		if n > 0 && out[n-1].clause && politeWords[strings.ToLower(out[n-1].text)] {
			t.clause = true
		}
		// A word ending in a colon is a label (tweet:, snowflake:), no
		// value.
		if label := strings.TrimSuffix(f, ":"); len(label) < len(f) && label != "" && !strings.ContainsAny(label, "@/:") {
			t.label = true
			f = label
		}
		first, _ := utf8.DecodeRuneInString(f)
		if quote == 0 && strings.ContainsRune("\"'`“‘", first) {
			quote = first
			t.value, t.opens = true, true
		}
		if quote != 0 && len(f) > 1 && strings.ContainsAny(f[len(f)-1:], "\"'`”’") || quote != 0 && len(f) == 1 && t.value && f[0] != byte(quote) {
			quote = 0
		}
		if dot := strings.LastIndexByte(f, '.'); !t.label && strings.ContainsAny(f, "@/:") || strings.ContainsRune("#!@$", first) || dot > 0 && dot < len(f)-1 {
			t.value = true
			t.implies = valueKind(f)
		}
		if phoneNumber(f) {
			t.value, t.implies = true, "phone"
		}
		// An argument written out (run_date=2026-12-01, kind=api) is a
		// value, its name too.
		if eq := strings.IndexByte(f, '='); eq > 0 && eq < len(f)-1 {
			t.value = true
		}
		// Two decimal numbers in a row are a place's coordinates.
		if n := len(out); n > 0 && decimal(f) && decimal(out[n-1].text) && out[n-1].implies == "" {
			t.implies = "coordinates"
		}
		out = append(out, t)
	}
	sqlStatements(out)
	return out
}

// fields splits text at spaces, commas and semicolons, and reports for
// each piece whether a comma, a semicolon or a dash written apart came
// before it: it begins a clause (it went wrong, refund it).
func fields(text string) (fs []string, clauses []bool) {
	start, clause := -1, false
	for i, r := range text + " " {
		sep := r == ',' || r == ';'
		if !sep && !unicode.IsSpace(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if f := text[max(start, 0):i]; start >= 0 && strings.Trim(f, "-–—") == "" {
			clause, start = true, -1 // a dash written apart: it changed — fix it
		}
		if start >= 0 {
			fs, clauses = append(fs, text[start:i]), append(clauses, clause)
			start, clause = -1, false
		}
		clause = clause || sep
	}
	return fs, clauses
}

// sqlStatements marks an SQL statement written in a query (SELECT name
// FROM orders WHERE total > 100) as a value that implies an SQL query:
// its table and column names are the statement's, not the request's. A
// statement starts at a capitalized SELECT, INSERT, UPDATE, DELETE or
// WITH followed by a capitalized FROM, INTO, SET, WHERE or VALUES (a
// SELECT or WITH reads, the others write), and
// runs past the last of them to the first stop word written in
// lowercase (in the local sqlite file) or the end.
func sqlStatements(toks []token) {
	for i := 0; i < len(toks); i++ {
		if !sqlStart[toks[i].text] {
			continue
		}
		last := -1
		for j := i + 1; j < len(toks) && !sqlStart[toks[j].text]; j++ {
			if sqlClause[strings.Trim(toks[j].text, "(),")] {
				last = j
			}
		}
		if last < 0 {
			continue
		}
		end := last + 1
		for end < len(toks) && !isStop(toks[end].text) {
			end++
		}
		for j := i; j < end; j++ {
			toks[j].value = true
		}
		toks[i].implies = "sql query write"
		if toks[i].text == "SELECT" || toks[i].text == "WITH" {
			toks[i].implies = "sql query read"
		}
		i = end - 1
	}
}

var (
	sqlStart  = wordSet("SELECT", "INSERT", "UPDATE", "DELETE", "WITH")
	sqlClause = wordSet("FROM", "INTO", "SET", "WHERE", "VALUES")
)

// valueKind names what a value token is, when its shape says: a URL, an
// email address (whose user), a #channel, a file name or path, an owner/name
// repository.
func valueKind(f string) string {
	f = strings.Trim(f, "\"'`“”‘’()<>,.;")
	slash, dot := strings.LastIndexByte(f, '/'), strings.LastIndexByte(f, '.')
	switch {
	case strings.Contains(f, "://") || strings.HasPrefix(f, "www."):
		return "url"
	case strings.Count(f, "@") == 1 && dot > strings.IndexByte(f, '@') && f[0] != '@':
		return "user"
	case strings.HasPrefix(f, "#") && len(f) > 1:
		return "channel hashtag"
	case strings.HasPrefix(f, "/") || strings.HasPrefix(f, "./") || strings.HasPrefix(f, "~/"),
		dot > slash+1 && dot < len(f)-1 && dot >= len(f)-5 && !strings.Contains(f, "@") &&
			strings.IndexFunc(f[dot+1:], unicode.IsLetter) >= 0: // 40.7 and logs-2024.06 are no files
		return "file"
	case strings.HasPrefix(f, "r/") && len(f) > 2:
		return "subreddit" // r/programming
	case strings.Count(f, "/") == 1 && slash > 0 && slash < len(f)-1 && dot < 0:
		return "repository" // owner/name
	}
	return ""
}

// phoneNumber reports a phone number written as one token: +14155550123,
// 415-908-3801, (415)908-3801; seven digits or more, with nothing but
// separators between them, and no date (2026-11-01).
func phoneNumber(f string) bool {
	f = strings.Trim(f, ",.;:!?\"'")
	digits := 0
	for i, r := range f {
		switch {
		case unicode.IsDigit(r):
			digits++
		case r == '+' && i == 0, r == '-', r == '(', r == ')', r == '.':
		default:
			return false
		}
	}
	_, date := time.Parse(time.DateOnly, f)
	return digits >= 7 && (f[0] == '+' || strings.ContainsAny(f, "-()")) && date != nil
}

// decimal reports a number with a fraction, such as -73.98.
func decimal(f string) bool {
	whole, frac, ok := strings.Cut(strings.TrimPrefix(f, "-"), ".")
	return ok && whole != "" && frac != "" && isNumber(whole) && isNumber(frac)
}

func isNumber(w string) bool {
	return strings.IndexFunc(w, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
}

// mixed reports a word of letters and digits: a name such as s3 or ec2,
// or an id (5d8, 0abc123) when the pool does not know it.
func mixed(w string) bool {
	return strings.IndexFunc(w, unicode.IsDigit) >= 0 && strings.IndexFunc(w, unicode.IsLetter) >= 0
}

// idLike reports a word that letters and digits alternate in three
// times or more (y4xb93i, 5KsDBWseXY6Qeg): an id, even when a tool's
// description gives it as an example, unlike names (s3, base64, i18n).
func idLike(w string) bool {
	turns, digit := 0, false
	for i, r := range w {
		d := unicode.IsDigit(r)
		if i > 0 && d != digit {
			turns++
		}
		digit = d
	}
	return turns >= 3
}

// bareName strips what a model may copy along with a name: quotes and the
// call form around it (tools.x, tools["x"], x()).
func bareName(text string) string {
	t := strings.TrimSpace(text)
	t = strings.TrimSuffix(t, "()")
	if strings.HasPrefix(t, "tools[") && strings.HasSuffix(t, "]") {
		t = t[len("tools[") : len(t)-1]
	}
	t = strings.TrimPrefix(t, "tools.")
	return strings.Trim(t, "\"'` ")
}

// maxKeywords bounds the work one query can cause (the host, not the
// script's budget, pays for a search); later words are ignored.
const maxKeywords = 32

// startsWord reports whether sub begins a longer word of tool id's own
// name.
func (x *Index) startsWord(id int32, sub string) bool {
	for _, nw := range x.entry(id).own {
		if len(nw.word) > len(sub) && strings.HasPrefix(nw.word, sub) && !x.compound(nw.word[len(sub):]) {
			return true
		}
	}
	return false
}

// compound reports whether rest, what follows a word at the start of a
// longer one, is a word of the pool itself: outbound is out and bound,
// codeclimate code and climate, but transitions is no transit and ions.
func (x *Index) compound(rest string) bool {
	_, ok := x.words.get(stem(rest))
	return len(rest) >= 4 && ok
}

// substrings returns the tools whose compact name contains sub.
func (x *Index) substrings(sub string) []int32 {
	var out []int32
	var want bloom
	want.of(sub)
	for _, g := range x.groups {
		if !g.pairs.holds(&want) {
			continue
		}
		for pos := 0; ; {
			j := strings.Index(g.names[pos:], sub)
			if j < 0 {
				break
			}
			// The name holding the match is the last one starting at or before it.
			i, _ := slices.BinarySearch(g.starts, int32(pos+j)+1)
			i--
			out = append(out, g.ids[i])
			if i+1 >= len(g.starts) {
				break
			}
			pos = int(g.starts[i+1])
		}
	}
	return out
}

// compare orders two tools, better first: the tools the query names;
// for a single keyword, the tier and then MCP before builtin (SRCH-5);
// the score; MCP before builtin; the tool with less of its name left
// unmatched (list_issues before list_issue_comments); for a query that
// reads, the tool that does not destroy; and only then the name.
func (s *scores) compare(a, b int32) int {
	p := s.plan
	if xa, xb := slices.Contains(p.exact, a), slices.Contains(p.exact, b); xa != xb {
		if xa {
			return -1
		}
		return 1
	}
	ea, eb := s.x.entry(a), s.x.entry(b)
	if p.single {
		if s.tier[a] != s.tier[b] {
			return int(s.tier[b]) - int(s.tier[a])
		}
		if ea.mcp != eb.mcp {
			return kindOrder(ea, eb)
		}
	}
	if s.score != nil && s.score[a] != s.score[b] {
		if s.score[a] > s.score[b] {
			return -1
		}
		return 1
	}
	if ea.mcp != eb.mcp {
		return kindOrder(ea, eb)
	}
	if len(p.kws) > 0 {
		if ea.effect != eb.effect {
			return int(ea.effect) - int(eb.effect)
		}
	}
	if s.left != nil && s.left[a] != s.left[b] {
		return int(s.left[a]) - int(s.left[b])
	}
	if ba, bb := browses(ea), browses(eb); ba != bb {
		if ba {
			return -1
		}
		return 1
	}
	if c := strings.Compare(ea.lower, eb.lower); c != 0 {
		return c
	}
	return int(a) - int(b)
}

// browses reports whether a tool is named for searching or listing: of
// tools tied on a query (a server's name alone), the one to start from.
func browses(e *entry) bool {
	for _, w := range e.own {
		if !w.ns {
			return browseVerbs[w.word]
		}
	}
	return false
}

var browseVerbs = wordSet("search", "list", "query", "find", "browse")

func kindOrder(a, b *entry) int {
	if a.mcp {
		return -1
	}
	return 1
}

// topBy returns the best k of ids in order by less, without sorting all
// of them.
func topBy(ids []int32, k int, less func(a, b int32) int) []int32 {
	out := make([]int32, 0, k+1)
	for _, h := range ids {
		if len(out) == k && less(h, out[k-1]) >= 0 {
			continue
		}
		at, _ := slices.BinarySearchFunc(out, h, less)
		out = slices.Insert(out, at, h)
		if len(out) > k {
			out = out[:k]
		}
	}
	return out
}
