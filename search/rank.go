package search

import (
	"cmp"
	"math"
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
// The weights (Weights) were chosen by measurement on the development
// halves of the evaluation sets (testdata/search/eval/dev.json and
// eval3/dev3.json) and the old set; docs/search.md lists what each signal
// is worth there.

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
	rk     *ranking
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
	// alt: a joined word whose two parts stay keywords (task list,
	// tasklist): another reading of them, not more of the query (alike).
	alt      bool
	misspelt bool // no word of the pool nor of the vocabulary: its near spellings stand for it
	stop     bool
	vars     []variant
}

type variant struct {
	stem    string
	q       float64
	p       *post
	literal bool
	loose   bool // a looser relation: it scores, but covers no word of a name
	how     howReached
}

// howReached is how a keyword reaches a stem.
type howReached int8

const (
	howWord howReached = iota
	howSynonym
	howRelated
	howDerived
	howNouns
	howPrefix
	howTypo
	howPhrasal
	howSense
)

var howNames = [...]string{
	howWord: "word", howSynonym: "synonym", howRelated: "related", howDerived: "derived", howNouns: "noun",
	howPrefix: "prefix", howTypo: "near spelling", howPhrasal: "phrasal verb", howSense: "sense",
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
	touched []int32    // the tools the keyword being scored reached
	ex      *explainer // nil unless explaining
	named   idSet      // the tools of the servers a label names (plan.servers)
	words   []phraseWord
	names   map[*nameWord]nameScan // per shared name, its words read
	// parts holds, per tool, the points the two parts of the next
	// alternative keyword gave it and the fields of their best matches;
	// field, while such a keyword or part is scored, its best match's
	// (alike).
	parts map[int32]partPoints
	field map[int32]int
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
func (x *Index) commonName(k *keyword) bool {
	return len(k.vars) > 0 && k.vars[0].literal && len(k.vars[0].p.f[fName]) >= 32
}

// rarity weighs keyword k reaching a tool through v: by the more common
// of its own word and the word it reaches (open reaching create through a
// synonym is as common as create).
func (x *Index) rarity(k *keyword, v variant) float64 {
	rk := x.rk
	df := v.p.df
	if len(k.vars) > 0 && k.vars[0].literal {
		df = max(df, k.vars[0].p.df)
	}
	return math.Pow(x.idf(df), rk.idfPower)
}

// scratch is the per-tool arrays one query needs, reused across queries
// (zeroed where a query wrote) so a search does not allocate and clear
// arrays the size of the pool.
type scratch struct {
	score, covered, cur, scale []float64
	tier, left                 []int8
	class                      []int16
	hits, touched              []int32 // emptied, for scores' lists
	phrase                     []phraseWord
	phraseSet                  []int32 // the ids of phrase written
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
	s.sc.hits, s.sc.touched = s.hits[:0], s.touched[:0]
	s.sc.releasePhrases()
	scratches.Put(s.sc)
}

func (x *Index) score(text string, ex *explainer) *scores {
	var trace *[]Fired
	if ex != nil {
		trace = &ex.fired
	}
	p := x.plan(text, trace)
	sc := getScratch(int(x.next))
	s := &scores{x: x, plan: p, sc: sc, score: sc.score, left: sc.left, covered: sc.covered, tier: sc.tier, ex: ex, hits: sc.hits, touched: sc.touched}
	for i := range p.kws {
		k := &p.kws[i]
		s.trackFields(i)
		s.matchFields(k)
		s.matchSubstrings(k)
		s.addKeyword(i)
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

// set notes v as a match of tool id to the keyword being scored, from
// field (or fSubstring) through stem: the keyword scores its best.
func (s *scores) set(id int32, v float64, field int, stem string) {
	cur := s.sc.cur
	if cur[id] == 0 {
		s.touched = append(s.touched, id)
	}
	if s.field != nil && v > cur[id] {
		s.field[id] = field
	}
	if s.ex != nil && v > cur[id] {
		s.ex.best(id, field, stem, v)
	}
	cur[id] = max(cur[id], v)
}

// matchFields matches keyword k in every field of every tool, through
// each of its variants, weighed by the field, the variant's quality and
// its rarity.
func (s *scores) matchFields(k *keyword) {
	x, p, rk := s.x, s.plan, s.x.rk
	for _, v := range k.vars {
		w := v.q * x.rarity(k, v)
		for f, ids := range v.p.f {
			if k.stop && f > fServer {
				break // a stop word counts only as a word of a name (get_me)
			}
			for _, id := range ids {
				fw := rk.fields[f]
				if f == fDesc && rk.descLength {
					fw *= float64(x.meta(id).descNorm) // a long description says more by chance
				}
				s.set(id, fw*w, f, v.stem)
				if p.single && v.literal && !k.stop {
					s.tier[id] = max(s.tier[id], fieldTier(f))
				}
			}
		}
	}
}

// matchSubstrings matches keyword k inside names. A substring of a name
// (sql in mysql, log in worklog) counts for keywords that are no values;
// for a word many names have whole (list, get), only when it decides a
// tier (a single keyword): its substrings would mostly find those names
// again.
func (s *scores) matchSubstrings(k *keyword) {
	x, p, rk := s.x, s.plan, s.x.rk
	c := compact(k.word)
	if len(c) < 3 || k.weight != 1 || !p.single && x.commonName(k) {
		return
	}
	subs := x.substrings(c)
	w := rk.substring * math.Pow(x.idf(int32(len(subs))), rk.idfPower)
	for _, id := range subs {
		s.set(id, w, fSubstring, c)
		if p.single {
			s.tier[id] = max(s.tier[id], tierSubstring)
		}
	}
}

// addKeyword adds keyword n's best match to the score of each tool it
// reached, and readies the pass for the next keyword.
func (s *scores) addKeyword(n int) {
	k, cur := &s.plan.kws[n], s.sc.cur
	part := s.plan.partOfAlt(n)
	for _, id := range s.touched {
		if s.score[id] == 0 {
			s.hits = append(s.hits, id)
		}
		v := cur[id] * k.weight
		cur[id] = 0
		if s.ex != nil {
			s.ex.matched(id, n, v)
		}
		switch {
		case part:
			s.parts[id] = s.parts[id].add(v, s.field[id])
		case k.alt:
			v = s.alike(id, v, k.word)
		}
		s.score[id] += v
		if !k.stop && !k.alt {
			s.covered[id] += k.weight
		}
	}
	if k.alt {
		clear(s.parts)
	}
	clear(s.field)
	s.touched = s.touched[:0]
}

// scale is what multiplies a tool's score and bonuses: the share of the
// query it covers, and how its annotations fit the query's intent.
func (s *scores) scale(id int32) float64 { return s.sc.scale[id] }

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
	rk := s.x.rk
	own := float64(s.x.meta(id).own)
	return rk.head + rk.verb + rk.cover + (rk.surface+rk.plural)*own + s.phraseBound(id)
}

func (s *scores) phraseBound(int32) float64 {
	rk := s.x.rk
	return rk.phrase*float64(max(s.plan.positions-1, 0)) + rk.descSurface*float64(s.plan.positions)
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

// headStem reports whether name stem s is the query's first word, or
// for a phrasal verb (get out, tear down) one of the verbs it means: get
// out is no get.
func (p *plan) headStem(s string) bool {
	k := &p.kws[p.head]
	if k.also == nil {
		return k.stem == s || k.misspelt && slices.ContainsFunc(k.vars, func(v variant) bool { return v.stem == s && v.q == p.rk.typo })
	}
	return slices.ContainsFunc(k.also, func(w string) bool { return stem(w) == s })
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
	rk := x.rk
	p, ok := x.words.get(k.stem)
	doubt := ok && rk.folds && p.plain == 0 && bareStem(k.word) && !foldsE(k.word)
	if ok && !doubt {
		k.vars = append(k.vars, variant{stem: k.stem, q: 1, p: p, literal: true, how: howWord})
	} else if !isStop(k.word) && !k.particle { // can is no prefix of cancel; down of tear down no prefix of download
		k.misspelt = !ok
		if doubt {
			k.vars = append(k.vars, variant{stem: k.stem, q: rk.typo, p: p, how: howTypo})
		} else if len(k.stem) >= 3 {
			x.words.near(k.stem, func(key string, p *post) {
				k.vars = append(k.vars, variant{stem: key, q: rk.prefix, p: p, how: howPrefix})
			})
		}
		if len(k.word) >= 4 || doubt {
			x.nearSpellings(k)
		}
	}
	x.related(k)
}

// nearSpellings adds the words of the pool one edit away from keyword
// k's (two neighbouring letters swapped, under five letters). A near
// spelling starts as the word does, or with its first letters swapped
// (lsit, rleay), or, for words long enough to be told apart from others
// so, with its second letter dropped or mistyped (hurly, hourly).
func (x *Index) nearSpellings(k *keyword) {
	st := k.stem
	var starts []string // a stem can be two letters (sxes, sx)
	if len(st) >= 2 {
		starts = append(starts, st[:2])
	}
	if len(st) >= 3 {
		starts = append(starts, st[1:2]+st[:1], st[:1]+st[2:3])
	}
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
				k.vars = append(k.vars, variant{stem: key, q: x.rk.typo, p: p, how: howTypo})
			}
		})
	}
}

// related adds the words of the pool keyword k reaches through the
// vocabulary: derived forms, a past verb's nouns, the verbs a phrasal
// verb or the verb's sense means, its synonyms and looser relations.
func (x *Index) related(k *keyword) {
	rk := x.rk
	reach := func(stems []string, q float64, how howReached) {
		for _, s := range stems {
			if p, ok := x.words.get(s); ok && q > 0 {
				k.vars = append(k.vars, variant{stem: s, q: q, p: p, loose: how == howRelated, how: how})
			}
		}
	}
	reach(derive(k.word), rk.derived, howDerived)
	reach(nounsOf(k.word), rk.nouns, howNouns)
	for _, w := range k.also {
		reach([]string{stem(w)}, rk.phrasalQ, howPhrasal)
		reach(synonymTable[stem(w)], rk.synonym, howSynonym)
	}
	for _, w := range k.sense {
		reach(append([]string{stem(w)}, synonymTable[stem(w)]...), rk.synonym, howSense)
	}
	if k.sense != nil {
		return
	}
	key := tableKey(k.word)
	reach(synonymTable[key], rk.synonym, howSynonym)
	reach(relatedTable[key], rk.related, howRelated)
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

// verbsOf is the verbs of phrasal verbs pairs (take of take down):
// phrasalVerbs of phrasal.
func verbsOf(pairs map[string][]string) map[string]bool {
	out := map[string]bool{}
	for pair := range pairs {
		v, _, _ := strings.Cut(pair, " ")
		out[v] = true
	}
	return out
}

// isParticle reports whether w is an adverb particle that can stand after a
// verb's object (turn it on, shut it down, let them know), unlike a
// preposition (look into, buy from).
func isParticle(w string) bool { return particles[w] }

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
	return namedValues(out)
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

// substrings returns the tools whose compact name contains sub: in its
// group's prefix, in its own part, or across the two.
func (x *Index) substrings(sub string) []int32 {
	var out []int32
	var want bloom
	want.of(sub)
	found := map[*nameList][]int32{}
	for _, g := range x.groups {
		if strings.Contains(g.prefix, sub) {
			out = append(out, g.ids...)
			continue
		}
		// Most lists cannot hold sub: their bloom says so before the map.
		in, ok := []int32(nil), !g.own.pairs.holds(&want)
		if !ok {
			in, ok = found[g.own]
		}
		if !ok {
			in = g.own.holding(sub, &want)
			found[g.own] = in
		}
		if !endsStart(g.prefix, sub) {
			for _, i := range in {
				out = append(out, g.ids[i])
			}
			continue
		}
		for i, id := range g.ids {
			if _, ok := slices.BinarySearch(in, int32(i)); ok || g.own.across(i, g.prefix, sub) {
				out = append(out, id)
			}
		}
	}
	return out
}

// holding returns the places of the names of l that contain sub, whose
// pairs of bytes are want, in order.
func (l *nameList) holding(sub string, want *bloom) []int32 {
	var out []int32
	if !l.pairs.holds(want) {
		return nil
	}
	for pos := 0; ; {
		j := strings.Index(l.names[pos:], sub)
		if j < 0 {
			return out
		}
		// The name holding the match is the last one starting at or before it.
		i, _ := slices.BinarySearch(l.starts, int32(pos+j)+1)
		i--
		out = append(out, int32(i))
		if i+1 >= len(l.starts) {
			return out
		}
		pos = int(l.starts[i+1])
	}
}

// endsStart reports whether prefix ends with a start of sub shorter than sub.
func endsStart(prefix, sub string) bool {
	for k := 1; k < len(sub) && k <= len(prefix); k++ {
		if strings.HasSuffix(prefix, sub[:k]) {
			return true
		}
	}
	return false
}

// across reports whether sub starts at the end of prefix and ends in the
// i-th name of l.
func (l *nameList) across(i int, prefix, sub string) bool {
	end := len(l.names)
	if i+1 < len(l.starts) {
		end = int(l.starts[i+1]) - 1
	}
	name := l.names[l.starts[i]:end]
	for k := 1; k < len(sub) && k <= len(prefix); k++ {
		if strings.HasSuffix(prefix, sub[:k]) && strings.HasPrefix(name, sub[k:]) {
			return true
		}
	}
	return false
}

// compare orders two tools, better first (see decide).
func (s *scores) compare(a, b int32) int {
	c, _ := s.decide(a, b)
	return c
}

// tieBreak names the step of decide that ordered two tools.
type tieBreak int8

const (
	byExact tieBreak = iota
	byTier
	byKindInTier
	byScore
	byKind
	byEffect
	byLeft
	byBrowse
	byListing
	byName
	byID
)

var tieBreakNames = [...]string{
	byExact:      "named exactly",
	byTier:       "tier of a single keyword (name, substring, hint, description, argument)",
	byKindInTier: "MCP before builtin within a tier",
	byScore:      "score",
	byKind:       "MCP before builtin",
	byEffect:     "the one that does less (reads before writes before destroys)",
	byLeft:       "less of the name left unmatched",
	byBrowse:     "named to search or list",
	byListing:    "its server's listing order (near twins of one server)",
	byName:       "name",
	byID:         "order of indexing",
}

// decide orders two tools, better first, and says which step did: the
// tools the query names; for a single keyword, the tier and then MCP
// before builtin (SRCH-5); the score; MCP before builtin; the tool that
// does less (a query that reads, the tool that does not destroy); the
// tool with less of its name left unmatched (list_issues before
// list_issue_comments); the tool named to search or list; for a query
// with keywords, two tools of one server in their server's listing order
// (near twins); and only then the name.
func (s *scores) decide(a, b int32) (int, tieBreak) {
	p := s.plan
	if xa, xb := slices.Contains(p.exact, a), slices.Contains(p.exact, b); xa != xb {
		return first(xa), byExact
	}
	ea, eb := s.x.entry(a), s.x.entry(b)
	if p.single {
		if s.tier[a] != s.tier[b] {
			return int(s.tier[b]) - int(s.tier[a]), byTier
		}
		if ea.mcp != eb.mcp {
			return first(ea.mcp), byKindInTier
		}
	}
	if s.score != nil && s.score[a] != s.score[b] {
		return first(s.score[a] > s.score[b]), byScore
	}
	if ea.mcp != eb.mcp {
		return first(ea.mcp), byKind
	}
	if len(p.kws) > 0 && ea.effect != eb.effect {
		return int(ea.effect) - int(eb.effect), byEffect
	}
	if s.left != nil && s.left[a] != s.left[b] {
		return int(s.left[a]) - int(s.left[b]), byLeft
	}
	if ba, bb := browses(ea), browses(eb); ba != bb {
		return first(ba), byBrowse
	}
	if c := twinOrder(ea, eb); c != 0 && len(p.kws) > 0 {
		return c, byListing
	}
	if c := strings.Compare(ea.lower, eb.lower); c != 0 {
		return c, byName
	}
	return int(a) - int(b), byID
}

// first is -1 when a comes first, else 1.
func first(a bool) int {
	if a {
		return -1
	}
	return 1
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
