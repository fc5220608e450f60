package search

import (
	"fmt"
	"slices"
	"strings"
)

// The query analyzer: an ordered list of named rules that turn a query's
// text into a plan (its keywords, its first word and verb, the servers it
// names). A query is read in four stages: once at the start, once per
// token (a piece between spaces), once per word of a token, and once at
// the end; each stage runs its rules in the order listed, and each rule
// reads and changes the planner. A rule that fires notes what it did,
// when the query is being explained (Index.Explain). Options.Disable
// turns a rule off by name, which turns off the rules that need it too;
// the rules marked core are how a query is read at all, and stay on.
//
// To add a rule: write it as a function with its doc comment, put it in
// its stage's place in ruleList, and give it a case in TestRulesFire.

// rule is one step of the analyzer.
type rule struct {
	name string
	// needs are the names of the switches it is part of: it is off when
	// any of them is.
	needs []string
	core  bool
	// apply reads the planner's current item and returns false when the
	// item is done with (a word stage's number or repeated word): the
	// stage's later rules skip it.
	apply func(*planner) bool
}

// ruleSet is the rules of each stage that are on.
type ruleSet struct{ start, token, word, end []rule }

// ruleList is every rule in order, by stage.
var ruleList = ruleSet{
	start: []rule{
		{name: "exact-name", core: true, apply: ruleExactName},
	},
	token: []rule{
		{name: "dotted-server", apply: ruleDottedServer},
		{name: "acronym", apply: ruleAcronym},
		{name: "split", core: true, apply: ruleSplit},
		{name: "is-value", core: true, apply: ruleValue},
		{name: "words", core: true, apply: ruleWords},
		{name: "implies", apply: ruleImplies},
		{name: "sql-spoken", apply: ruleSQLSpoken},
		{name: "label", apply: ruleLabel},
		{name: "through", apply: ruleThrough},
	},
	word: []rule{
		{name: "number", core: true, apply: ruleNumber},
		{name: "once", core: true, apply: ruleOnce},
		{name: "keyword", core: true, apply: ruleKeyword},
		{name: "value-weight", core: true, apply: ruleValueWeight},
		{name: "phrasal", apply: rulePhrasal},
		{name: "compound", apply: ruleCompound},
		{name: "add", core: true, apply: ruleAdd},
	},
	end: []rule{
		{name: "phrasal-apart", needs: []string{"phrasal"}, apply: rulePhrasalApart},
		{name: "medium", apply: ruleMedium},
		{name: "medium-send", apply: ruleMediumSend},
		{name: "object", apply: ruleObject},
		{name: "question", apply: ruleQuestion},
		{name: "state", needs: []string{"question"}, apply: ruleState},
		{name: "keywords-intent", apply: ruleKeywordsIntent},
		{name: "stop-words", core: true, apply: ruleStopWords},
		{name: "cap", core: true, apply: ruleCap},
		{name: "senses", apply: ruleSenses},
		{name: "variants", core: true, apply: ruleVariants},
	},
}

func (rs *ruleSet) stages() [][]rule { return [][]rule{rs.start, rs.token, rs.word, rs.end} }

// RuleNames are the names of the analyzer's rules that Options.Disable
// turns off, in the order they run.
func RuleNames() []string {
	var out []string
	for _, stage := range ruleList.stages() {
		for _, r := range stage {
			if !r.core {
				out = append(out, r.name)
			}
		}
	}
	return out
}

// enabledRules are the rules of ruleList that off leaves on.
func enabledRules(off map[string]bool) ruleSet {
	keep := func(rules []rule) []rule {
		return slices.DeleteFunc(slices.Clone(rules), func(r rule) bool {
			return !r.core && (off[r.name] || slices.ContainsFunc(r.needs, func(n string) bool { return off[n] }))
		})
	}
	return ruleSet{keep(ruleList.start), keep(ruleList.token), keep(ruleList.word), keep(ruleList.end)}
}

// Fired is one rule that changed how a query is read, and what it did.
type Fired struct {
	Rule string `json:"rule"`
	Did  string `json:"did"`
}

// planner is one query being read: the plan so far and the state the
// rules share. The token and word fields are the stage's current item.
type planner struct {
	x     *Index
	rk    *ranking
	p     *plan
	text  string
	toks  []token
	all   []keyword
	trace *[]Fired // nil unless explaining
	rule  string   // the rule running, for its notes
	// first holds each word's first place in all: a word said again is
	// looked up, so a query's planning is linear in its length.
	first map[string]int
	kept  int  // keywords that are no stop words
	verb  bool // the query's first word is found
	// said: what follows is a message's content; medium: the query
	// starts with a server's name used as a verb (whatsapp mom that ...).
	said, medium bool
	question     bool // the question rule read a question
	last         int  // the keyword of the previous word, or -1

	i     int      // the token
	tok   token    // as read
	ws    []string // its words
	lw    string   // its text, bare and lowercase
	value bool     // its words are values

	j      int     // the word, within the token
	w      string  // its text
	k      keyword // its keyword
	prev   int     // the keyword of the word before, or -1
	joined string  // the word it makes with the word before (on-call, oncall)
}

// plan splits a query into keywords and looks their words up: it runs
// the rules that are on, stage by stage. trace, when not nil, collects
// what each rule that fired did.
func (x *Index) plan(text string, trace *[]Fired) *plan {
	rs := &x.rk.rules
	pl := &planner{
		x: x, rk: x.rk, text: text, trace: trace, first: map[string]int{}, last: -1,
		p: &plan{byStem: map[string]reach{}, head: -1, verb: noVerb, rk: x.rk},
	}
	pl.run(rs.start)
	pl.toks = tokens(text)
	for pl.i = range pl.toks {
		pl.tok = pl.toks[pl.i]
		pl.run(rs.token)
	}
	pl.run(rs.end)
	return pl.p
}

// run applies rules in order until one is done with the current item.
func (pl *planner) run(rules []rule) {
	for _, r := range rules {
		pl.rule = r.name
		if !r.apply(pl) {
			return
		}
	}
}

// note records what the running rule did, when explaining. Callers check
// pl.trace first, so that a search that does not explain formats nothing.
func (pl *planner) note(format string, args ...any) {
	*pl.trace = append(*pl.trace, Fired{Rule: pl.rule, Did: fmt.Sprintf(format, args...)})
}

// add appends keyword k.
func (pl *planner) add(k keyword) {
	if _, ok := pl.first[k.word]; !ok {
		pl.first[k.word] = len(pl.all)
	}
	pl.all = append(pl.all, k)
}

// head makes keyword n the query's first word when none is yet.
func (pl *planner) head(n int) {
	k := &pl.all[n]
	if !pl.verb && k.weight == 1 && !isStop(k.word) && !k.particle && !k.part && !pl.x.serverWord(k.stem) {
		pl.verb = true
		pl.p.head = n
		pl.p.verb = verbClass(k.word)
		if pl.p.verb != noVerb {
			pl.p.intent = pl.p.verb
		}
	}
}

// imply adds word w, which the query implies (a file for notes.md,
// errors for a why), at a lower weight, unless the query has it.
func (pl *planner) imply(w string) {
	if _, ok := pl.first[w]; !ok {
		pl.add(keyword{word: w, stem: stem(w), weight: pl.rk.implied})
		pl.kept++
		if pl.trace != nil {
			pl.note("implies %s", w)
		}
	}
}

// firstWord is the first keyword's word, or "".
func (pl *planner) firstWord() string { return firstWord(pl.all) }

// ruleExactName: a query that is a tool's name (also as copied with its
// call form, tools.x or x()) names it; a bare own name names every tool
// of that name.
func ruleExactName(pl *planner) bool {
	x, p := pl.x, pl.p
	bare := strings.ToLower(bareName(pl.text))
	ids, ok := x.names.get(bare)
	if !ok {
		return true
	}
	for _, id := range ids {
		if x.entry(id).lower == bare {
			p.exact = append(p.exact, id)
		}
	}
	if len(p.exact) == 0 {
		p.exact = ids // a bare name: every tool of that name
	}
	if pl.trace != nil {
		pl.note("%q names %d tool(s)", bare, len(p.exact))
	}
	return true
}

// ruleDottedServer: a service written as its domain or with a dot
// (rocket.chat, monday.com) is its server's name, no file.
func ruleDottedServer(pl *planner) bool {
	if server, ok := pl.x.dottedServer(pl.tok); ok {
		if pl.trace != nil {
			pl.note("%q -> %s", pl.tok.text, server)
		}
		pl.tok = token{text: server}
	}
	return true
}

// ruleAcronym: an acronym's plural in capitals (PRs, VMs) is the
// acronym, which the vocabulary knows, not the words its case splits it
// into (singularAcronym).
func ruleAcronym(pl *planner) bool {
	if text := singularAcronym(pl.tok.text); text != pl.tok.text {
		if pl.trace != nil {
			pl.note("%q -> %s", pl.tok.text, text)
		}
		pl.tok.text = text
	}
	return true
}

// ruleSplit splits the token into words (createIssue, create_issue).
func ruleSplit(pl *planner) bool {
	pl.ws = words(pl.tok.text)
	pl.lw = bareWord(pl.tok.text)
	return true
}

// ruleValue: a token quoted, a path, a URL, an id such as web-5d8 or
// i-0abc123, or a message's content is a value: its words weigh less. (A
// capitalized word the pool does not know, a person's or a company's
// name, is not: it matches nothing anyway, and weighing it down changed
// too few queries, for the worse.) A server's name written in its own
// style (QuickBooks) is a word of the pool, whatever its parts.
func ruleValue(pl *planner) bool {
	x, ws := pl.x, pl.ws
	_, whole := x.words.get(stem(compact(pl.tok.text)))
	pl.value = pl.tok.value || pl.said || slices.ContainsFunc(ws, func(w string) bool {
		_, known := x.words.get(stem(w))
		known = known || whole && len(ws) > 1
		return !known && mixed(w) || idLike(w)
	})
	if pl.trace != nil && pl.value && len(ws) > 0 {
		pl.note("%q is a value", pl.tok.text)
	}
	return true
}

// ruleWords reads the token's words, each through the word rules.
func ruleWords(pl *planner) bool {
	for pl.j, pl.w = range pl.ws {
		pl.prev, pl.last, pl.joined = pl.last, -1, ""
		pl.run(pl.rk.rules.word)
	}
	return true
}

// ruleImplies: a value says what kind of thing it is, as words the query
// implies: a URL, a person's address (a user: offboard bob@acme.com), a
// file, a channel.
func ruleImplies(pl *planner) bool {
	for _, w := range strings.Fields(pl.tok.implies) {
		pl.imply(w)
	}
	return true
}

// ruleSQLSpoken: a request said the way an SQL statement is written,
// in lowercase, implies an SQL query as a statement does (sqlStatements):
// a verb that starts one (insert, delete, update, select), then the rows
// or table it acts on and a clause word (into, from, set, where, values):
// "insert a row into users", "delete rows older than 2020 from the
// events table". A select reads, the others write.
func ruleSQLSpoken(pl *planner) bool {
	verb := strings.ToUpper(pl.lw)
	if !sqlStart[verb] || verb == "WITH" {
		return true
	}
	var rows, clause bool
	for _, t := range pl.toks[pl.i+1:] {
		w := strings.ToLower(strings.Trim(t.text, "\"'`(),.?!"))
		rows = rows || sqlObjects[w]
		clause = clause || sqlClause[strings.ToUpper(w)]
	}
	if !rows || !clause {
		return true
	}
	does := "write"
	if verb == "SELECT" {
		does = "read"
	}
	for _, w := range []string{"sql", "query", does} {
		pl.imply(w)
	}
	return true
}

// ruleLabel: a label that names a server (algolia: add a record) says
// where to look.
func ruleLabel(pl *planner) bool {
	if pl.tok.label {
		pl.lookIn()
	}
	return true
}

// ruleThrough: a server after via, using, in or on (send it via mailgun,
// in snowflake, delete the rows) says where to look, as a label does.
func ruleThrough(pl *planner) bool {
	if pl.i > 0 && throughWords[bareWord(pl.toks[pl.i-1].text)] && !pl.tok.label {
		pl.lookIn()
	}
	return true
}

// lookIn notes the server the token names, if it names one, as where to
// look.
func (pl *planner) lookIn() {
	server := stem(pl.lw)
	if !pl.x.serverWord(server) {
		return
	}
	sp, _ := pl.x.words.get(server)
	pl.p.servers = append(pl.p.servers, sp.f[fServer])
	if pl.trace != nil {
		pl.note("look in %s", pl.lw)
	}
}

// ruleNumber: a number is no keyword.
func ruleNumber(pl *planner) bool { return !isNumber(pl.w) }

// ruleOnce: a word said again counts once.
func ruleOnce(pl *planner) bool {
	_, ok := pl.first[pl.w]
	return !ok
}

// ruleKeyword makes the word a keyword.
func ruleKeyword(pl *planner) bool {
	pl.k = keyword{word: pl.w, stem: stem(pl.w), weight: 1}
	return true
}

// ruleValueWeight weighs a value's word as a value.
func ruleValueWeight(pl *planner) bool {
	if pl.value {
		pl.k.weight = pl.rk.value
	}
	return true
}

// rulePhrasal: a verb's particle (spin up, tear down, roll back) makes
// the pair mean another verb: the verb reaches it, the particle weighs
// as a stop word, and the pair's class is the query's. A stop word made
// a phrasal verb so (figure out, let know) is no stop word.
func rulePhrasal(pl *planner) bool {
	n := len(pl.all) - 1
	if n < 0 {
		return true
	}
	to, ok := phrasal[pl.all[n].word+" "+pl.w] // no string is made for the lookup
	if !ok {
		return true
	}
	pl.all[n].also = to
	pl.k.particle = true
	if isStop(pl.all[n].word) {
		pl.kept++ // figure of figure out is no stop word: it means find
	}
	if pl.p.head == n {
		pl.p.verb = verbClass(to[0])
		pl.p.intent = max(pl.p.verb, reads)
	}
	if pl.trace != nil {
		pl.note("%q -> %s", pl.all[n].word+" "+pl.w, strings.Join(to, ", "))
	}
	return true
}

// ruleCompound: two words written apart or hyphenated (on-call, e mail,
// log in) that the pool writes as one (oncall, email, login) are that
// word too. When one part is a stop word (on-call, log in), the pair is
// the word alone, and the parts weigh as stop words: on-call is no call.
// A pair joined to a third word (to-do lists, todolists) is the longer
// word alone too.
func ruleCompound(pl *planner) bool {
	joined := pl.joinedWord()
	if joined == "" {
		return true
	}
	pl.joined = joined
	all, prev, w := pl.all, pl.prev, pl.w
	if isStop(w) || isStop(all[prev].word) || all[prev].joined {
		pl.k.part = true
		all[prev].part = true
		if !isStop(all[prev].word) {
			pl.kept--
		}
		if pl.p.head == prev {
			pl.verb, pl.p.head, pl.p.verb, pl.p.intent = false, -1, noVerb, reads
		}
	}
	if pl.trace != nil {
		pl.note("%q %q -> %s", all[prev].word, w, joined)
	}
	return true
}

// joinedWord is the word of the pool the word makes with the one before
// it, or "".
func (pl *planner) joinedWord() string {
	prev, w, all := pl.prev, pl.w, pl.all
	if prev < 0 || pl.value || all[prev].weight != 1 || pl.k.particle || len(w) <= 1 || len(all[prev].word) <= 1 { // week's is no weeks
		return ""
	}
	joined := all[prev].word + w
	// Written with a hyphen (to-do, e-mail), a short pair joins too.
	short := len(joined) < 5 && !(pl.j > 0 && len(joined) == 4)
	if _, ok := pl.x.words.get(stem(joined)); !ok || short || isStop(joined) {
		return ""
	}
	switch {
	case isStop(w) && isStop(all[prev].word) && pl.j == 0:
		return "" // for me is no forme; to-do is todo
	case pl.x.serverWord(stem(w)) && isStop(all[prev].word) || pl.x.serverWord(all[prev].stem) && isStop(w):
		return "" // in box is no inbox when box is a server (key vault is keyvault)
	}
	return joined
}

// ruleAdd adds the keyword, and the word it makes with the one before;
// the first that is no stop word, particle, part or server's name is the
// query's first word.
func ruleAdd(pl *planner) bool {
	pl.last = len(pl.all)
	pl.add(pl.k)
	pl.head(pl.last)
	if !isStop(pl.w) && !pl.k.part {
		pl.kept++
	}
	if pl.joined != "" {
		pl.add(keyword{word: pl.joined, stem: stem(pl.joined), weight: 1, joined: true, alt: !pl.k.part && pl.rk.alike})
		pl.head(len(pl.all) - 1)
		pl.kept++
		pl.last = len(pl.all) - 1 // to-do lists: todolists
	}
	return true
}

// rulePhrasalApart: a verb's particle after its object (turn the dag
// back on, shut the server down) makes the pair mean another verb, as
// next to it does, unless the pair means something else apart (kick a
// laptop off the network).
func rulePhrasalApart(pl *planner) bool {
	all, h := pl.all, pl.p.head
	if h < 0 || all[h].also != nil {
		return true
	}
	for j := h + 2; j < min(len(all), h+8); j++ {
		pair := all[h].word + " " + all[j].word
		to, ok := phrasal[pair]
		if other, differs := apart[pair]; differs {
			to, ok = other, other != nil
		}
		if ok && isParticle(all[j].word) {
			all[h].also = to
			all[j].particle = true
			pl.p.verb = verbClass(to[0])
			pl.p.intent = max(pl.p.verb, reads)
			if !isStop(all[j].word) {
				pl.kept--
			}
			if pl.trace != nil {
				pl.note("%q ... %q -> %s", all[h].word, all[j].word, strings.Join(to, ", "))
			}
			break
		}
	}
	return true
}

// ruleMedium: a medium used as the query's verb before whom or what it
// sends (email the report to finance, text a customer) sends it; in a
// question (what text is on the page) it is no verb.
func ruleMedium(pl *planner) bool {
	all, h := pl.all, pl.p.head
	if h >= 0 && h+1 < len(all) && mediumWords[all[h].word] && (isStop(all[h+1].word) || all[h+1].weight < 1) && (h == 0 || all[h-1].weight == 1) && !questionWords[pl.firstWord()] {
		pl.medium, pl.said = true, true
		if pl.trace != nil {
			pl.note("%q sends what follows", all[h].word)
		}
	}
	return true
}

// ruleMediumSend: a server's name used as a verb before what to say
// (whatsapp mom that I'm late, slack the team that the build is green)
// sends it.
func ruleMediumSend(pl *planner) bool {
	if pl.medium && pl.said && pl.p.verb == noVerb {
		pl.add(keyword{word: "send", stem: stem("send"), weight: 1}) // the query's verb
		pl.p.verb, pl.p.intent = acts, acts
		pl.kept++
		if pl.trace != nil {
			pl.note("the verb is send")
		}
	}
	return true
}

// ruleObject: the query's first word, of no class of its own, before a
// determiner is a verb that takes an object (tag the prod workspace, star
// the repo): the query acts.
func ruleObject(pl *planner) bool {
	p := pl.p
	if p.head != 0 || p.verb != noVerb || len(pl.all) < 2 || !determiners[pl.all[1].word] || questionWords[pl.all[0].word] {
		return true
	}
	p.verb, p.intent = acts, acts
	if pl.trace != nil {
		pl.note("%q %q: %q is a verb that acts", pl.all[0].word, pl.all[1].word, pl.all[0].word)
	}
	return true
}

// ruleQuestion: a question (what song is playing, which doors are open,
// who is on call) reads, whatever its first word.
func ruleQuestion(pl *planner) bool {
	if pl.p.verb == noVerb && questionWords[pl.firstWord()] {
		pl.p.verb, pl.p.asks = reads, true
		pl.question = true
		if pl.trace != nil {
			pl.note("%q asks: it reads", pl.firstWord())
		}
	}
	return true
}

// ruleState: a yes-no question (is the door open, are the lights on)
// asks for a state.
func ruleState(pl *planner) bool {
	if pl.question && yesNo[pl.all[0].word] && pl.kept > 0 {
		pl.imply("state")
	}
	return true
}

// ruleStopWords: a query of one keyword is single (the tiers decide
// first). Among others, stop words, particles and parts stay, weighed
// low and matched in names only: "who am I" is get_me.
func ruleStopWords(pl *planner) bool {
	p, all := pl.p, pl.all
	p.single = pl.kept == 1
	if pl.kept == 0 {
		p.single = len(all) == 1
		return true
	}
	for i := range all {
		// A stop word that a particle makes a phrasal verb (figure out,
		// let know) means that verb (rulePhrasal).
		if isStop(all[i].word) && all[i].also == nil || all[i].particle || all[i].part {
			all[i].stop, all[i].weight = true, pl.rk.stop
		}
	}
	return true
}

// ruleKeywordsIntent: a query with no verb first that asks nothing takes
// its intent from a verb anywhere in it (keywordsIntent): keywords come in
// any order (policy set attach workspace).
func ruleKeywordsIntent(pl *planner) bool {
	p := pl.p
	if p.verb != noVerb || p.intent != reads || questionWords[pl.firstWord()] {
		return true
	}
	if p.intent = keywordsIntent(pl.all); p.intent != reads && pl.trace != nil {
		pl.note("the intent is %s", intentNames[p.intent])
	}
	return true
}

// ruleCap keeps the first maxKeywords keywords and weighs the query: how
// many keywords mean something, and their weights, stop words aside.
func ruleCap(pl *planner) bool {
	p := pl.p
	p.kws = pl.all[:min(len(pl.all), maxKeywords)]
	if pl.trace != nil && len(p.kws) < len(pl.all) {
		pl.note("the first %d keywords are read, %d more are not", len(p.kws), len(pl.all)-len(p.kws))
	}
	if p.head >= len(p.kws) {
		p.head = -1 // the first word came after the cap
	}
	for _, k := range p.kws {
		if k.weight == 1 && !k.alt {
			p.meaning++
		}
		if !k.stop && !k.alt {
			p.weight += k.weight
		}
	}
	p.meaning = max(p.meaning, 1)
	return true
}

// ruleSenses: the sense of the query's verb comes from its object, the
// first three words after it that are no stop words (open a page visits
// it, open a pull request creates it). The place a thing is put comes
// after the thing (put piano lessons on the calendar). The sense's verb
// gives the query its class, as a phrasal verb's does (open an incident
// creates: it acts), unless the query is a question, which reads.
func ruleSenses(pl *planner) bool {
	p := pl.p
	h := p.head
	if h < 0 {
		return true
	}
	n := 0
	for j := h + 1; j < len(p.kws) && p.kws[h].sense == nil; j++ {
		if p.kws[j].stop {
			continue
		}
		n++
		for _, sn := range senses[p.kws[h].word] {
			if sn.objects[p.kws[j].stem] && (n <= 3 || sn.far) {
				p.kws[h].sense = sn.verbs
				if c := verbClass(sn.verbs[0]); c != noVerb && !p.asks {
					p.verb, p.intent = c, max(c, reads)
				}
				if pl.trace != nil {
					pl.note("%q %q -> %s", p.kws[h].word, p.kws[j].word, strings.Join(sn.verbs, ", "))
				}
				break
			}
		}
	}
	return true
}

// ruleVariants looks every keyword up: the stems it reaches (variants),
// and for each the first keyword reaching it, for the name and phrase
// bonuses.
func ruleVariants(pl *planner) bool {
	p := pl.p
	pos := 0
	for i := range p.kws {
		k := &p.kws[i]
		if !k.stop {
			pos++
		}
		pl.x.variants(k)
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
	return true
}
