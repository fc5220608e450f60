package search

import (
	"fmt"
	"math/bits"
	"slices"
)

// The scorer's signals: what a tool's score gets beyond its keywords'
// field matches (matchFields, matchSubstrings). The name signals read
// the tool's own name once (nameScan), the description signals its
// description (finishPhrase), and the scale signals multiply the whole
// (computeScale). Each adds its contribution through add, which also
// records it with its reason when the query is being explained
// (Index.Explain); a search that does not explain formats no reason.
// Options.Disable turns a signal off by name (signalOff).
//
// To add a signal: a constant below and its name, its computation where
// its inputs are read (a name word: nameScan; the description:
// finishPhrase; a factor: computeScale) adding through add or
// explainer.signal, a case in TestSignalsShow, and for a weight, a field
// of Weights and an entry of signalOff.

// signal names one signal.
type signal int8

const (
	sigVerb        signal = iota // the query's verb class is the name's verb's
	sigAsks                      // a question against a name that changes or destroys
	sigHead                      // the query's first word is the name's first
	sigSurface                   // a keyword written as in the name
	sigPlural                    // a plural keyword written as in the name
	sigOne                       // a plural keyword whose singular is in the name
	sigCover                     // the share of the name the query covers
	sigPhrase                    // query words next to each other in the description
	sigDescSurface               // keywords written as in the description
	sigAlike                     // a joined word reading its parts' field again (taken away)
	sigCoord                     // the share of the query the tool covers (a factor)
	sigLabelled                  // another server than the one the query names (a factor)
	sigIntent                    // the annotations against the query's intent (a factor)
	sigDeprecated                // the description says the tool is deprecated (a factor)
	nSignals
)

// signalNames are the signals' names, as Explain shows them.
var signalNames = [nSignals]string{
	sigVerb: "verb", sigAsks: "asks", sigHead: "head", sigSurface: "surface", sigPlural: "plural",
	sigOne: "one", sigCover: "cover", sigPhrase: "phrase",
	sigDescSurface: "desc-surface", sigAlike: "alike", sigCoord: "coord", sigLabelled: "labelled", sigIntent: "intent",
	sigDeprecated: "deprecated",
}

// signalReasons say why a name signal fired, before the name word.
var signalReasons = [nSignals]string{
	sigVerb:    "the query's verb means the name's verb:",
	sigAsks:    "a question, and the name's verb changes things:",
	sigHead:    "the query's first word starts the name:",
	sigSurface: "written as in the name:",
	sigPlural:  "a plural written as in the name:",
	sigOne:     "a plural, and the name has the singular:",
}

// nameScan is one pass over a tool's own name for the name signals.
type nameScan struct {
	s  *scores
	id int32
	// verbSeen: the name's verb is found (or the query has none).
	verbSeen bool
	// words and covered count the name's words and those the query
	// reaches.
	words, covered int
	bonus          float64
}

// add adds v of signal sig, for name word w: recorded, with its reason,
// only when explaining.
func (n *nameScan) add(sig signal, v float64, w string) {
	n.bonus += v
	if n.s.ex != nil {
		n.s.ex.signal(n.id, sig, v, fmt.Sprintf("%s %q", signalReasons[sig], w))
	}
}

// finishName adds the bonuses of tool id's own name and notes how much
// of it the query leaves out.
func (s *scores) finishName(id int32) {
	n := s.readName(id, s.x.entry(id).own)
	n.id = id
	if n.words > 0 && n.covered > 0 {
		cover := s.x.rk.cover * float64(n.covered) / float64(n.words) * min(1, float64(n.covered)/s.plan.meaning)
		n.bonus += cover
		if s.ex != nil {
			s.ex.signal(id, sigCover, cover, fmt.Sprintf("the query covers %d of %d name words", n.covered, n.words))
		}
	}
	s.left[id] = int8(min(n.words-n.covered, 100))
	s.score[id] += n.bonus
}

// readName reads the words of tool id's own name own. The copies of a
// server share their names' words (analyzer.intern), and a query reads
// them once: the address of the first word is the name's.
func (s *scores) readName(id int32, own []nameWord) nameScan {
	if len(own) > 0 && s.ex == nil {
		if n, ok := s.names[&own[0]]; ok {
			return n
		}
	}
	n := nameScan{s: s, id: id, verbSeen: s.plan.verb == noVerb}
	for i, nw := range own {
		// A name word said again (the second variable of
		// create_variable_in_variable_set) earns its bonuses once.
		if !nw.ns && !repeatedNameWord(own, i) {
			n.word(nw)
		}
	}
	if len(own) > 0 && s.ex == nil {
		if s.names == nil {
			s.names = map[*nameWord]nameScan{}
		}
		s.names[&own[0]] = n
	}
	return n
}

// word reads one word of the name, in order.
func (n *nameScan) word(nw nameWord) {
	p, rk := n.s.plan, n.s.x.rk
	if !n.verbSeen {
		n.verb(nw)
	}
	if n.words == 0 && p.head >= 0 && p.headStem(nw.stem) {
		n.add(sigHead, rk.head, nw.word)
	}
	r, ok := p.byStem[nw.stem]
	if !ok {
		// A stop word of a name (getTransitionsForJiraIssue) is not left
		// uncovered, unless it is the name's verb (like in like_tweet).
		if !nw.stop || nw.verb != noVerb {
			n.words++
		}
		return
	}
	n.words++
	n.covered++
	n.form(nw, r)
}

// verb: the name's first verb means what the query's does (read,
// change, destroy, run). A question asks to read: a tool named to change
// or destroy is not its answer (what streams can I join).
func (n *nameScan) verb(nw nameWord) {
	c := nw.verb
	if c == noVerb {
		return
	}
	n.verbSeen = true
	p, rk := n.s.plan, n.s.x.rk
	if c == p.verb {
		n.add(sigVerb, rk.verb, nw.word)
	}
	if p.asks && (c == acts || c == harms) {
		n.add(sigAsks, -rk.asks, nw.word)
	}
}

// form: a keyword written as in the name (issue, not issues; a near
// spelling of five letters or more counts) gains, a plural one more
// (list_envelopes); a plural whose singular is the name's word loses
// (envelopes asks for many, get_envelope reads one).
func (n *nameScan) form(nw nameWord, r reach) {
	p, rk := n.s.plan, n.s.x.rk
	k := &p.kws[r.k]
	w := k.word
	switch {
	case r.literal && w == nw.word || !r.literal && len(w) >= 5 && oneEdit(w, nw.word):
		n.add(sigSurface, rk.surface, nw.word)
		if r.literal && singular(w) != w {
			n.add(sigPlural, rk.plural, nw.word)
		}
	case r.literal && singular(w) != w && singular(w) == nw.word && !browses(n.s.x.entry(n.id)):
		n.add(sigOne, -rk.one, nw.word)
	}
}

// finishPhrase adds a bonus per pair of keywords next to each other in the
// query that are next to each other in tool id's description (stop words
// aside), each pair once, and per keyword written there as in the query,
// and then scales the score.
func (s *scores) finishPhrase(id int32) {
	rk := s.x.rk
	got := s.readPhrases(s.x.entry(id).desc)
	pairs, written := got.pairs, got.written
	phrase := rk.phrase * float64(bits.OnesCount64(pairs))
	surface := rk.descSurface * float64(bits.OnesCount64(written))
	if s.ex != nil {
		s.ex.signal(id, sigPhrase, phrase, fmt.Sprintf("pairs of query words side by side in the description: %d", bits.OnesCount64(pairs)))
		s.ex.signal(id, sigDescSurface, surface, fmt.Sprintf("keywords written as in the description: %d", bits.OnesCount64(written)))
	}
	s.score[id] = (s.score[id] + phrase + surface) * s.scale(id)
}

// phrases are the query positions whose keyword follows the previous
// one's in a description (pairs), and whose keyword is written there as
// in the query (written).
type phrases struct{ pairs, written uint64 }

// readPhrases reads the words of a description, its descTokens, for
// finishPhrase: a word whose stem no keyword reaches parts the keywords
// around it.
func (s *scores) readPhrases(desc []uint32) phrases {
	words := s.phraseWords()
	var pairs, written uint64
	prev := -2
	for _, t := range desc {
		w := words[t>>formBits]
		if w.pos1 == 0 {
			prev = -2
			continue
		}
		pos := int(w.pos1) - 1
		if pos == prev+1 && pos < 64 {
			pairs |= 1 << pos
		}
		if w.form1 == uint16(uint8(t))+1 && pos < 64 {
			written |= 1 << pos
		}
		prev = pos
	}
	return phrases{pairs, written}
}

// phraseWord is what finishPhrase reads from a word of a description by
// its stem: the position of the keyword that reaches the stem, plus one
// (0 when none does), and the index in post.forms of that keyword's word
// as written, plus one (0 when it reaches the stem otherwise, or the
// descriptions never write it).
type phraseWord struct{ pos1, form1 uint16 }

// phraseWords are the phraseWords of the stems the query reaches, by
// post.id, read on the query's first description (the other stems' are
// zero) and kept in s.words; releasePhrases zeroes them again.
func (s *scores) phraseWords() []phraseWord {
	if s.words != nil {
		return s.words
	}
	sc, x := s.sc, s.x
	if len(sc.phrase) < int(x.stemIDs) {
		sc.phrase = make([]phraseWord, x.stemIDs)
	}
	for st, r := range s.plan.byStem {
		p, ok := x.words.get(st)
		if !ok {
			continue // no description has it
		}
		w := phraseWord{pos1: uint16(r.pos + 1)}
		if r.literal {
			if i := slices.Index(p.forms, s.plan.kws[r.k].word); i >= 0 {
				w.form1 = uint16(min(i, 255)) + 1
			}
		}
		sc.phrase[p.id] = w
		sc.phraseSet = append(sc.phraseSet, p.id)
	}
	s.words = sc.phrase
	return s.words
}

// releasePhrases zeroes the phraseWords the query wrote.
func (sc *scratch) releasePhrases() {
	for _, id := range sc.phraseSet {
		sc.phrase[id] = phraseWord{}
	}
	sc.phraseSet = sc.phraseSet[:0]
}

// computeScale is what multiplies a tool's score and bonuses: the share
// of the query it covers, whether it is of a server the query names, and
// how its annotations fit the query's intent.
func (s *scores) computeScale(id int32) float64 {
	rk, p := s.x.rk, s.plan
	coord := 1.0
	if p.weight > 0 {
		coord = 1 - rk.coord + rk.coord*s.covered[id]/p.weight
	}
	if s.ex != nil {
		s.ex.signal(id, sigCoord, coord, fmt.Sprintf("covers %.2f of the query's weight %.2f", s.covered[id], p.weight))
	}
	if len(p.servers) > 0 && !s.named.has(id) {
		coord *= rk.labelled
		if s.ex != nil {
			s.ex.signal(id, sigLabelled, rk.labelled, "the query names another server")
		}
	}
	if rk.deprecated != 1 && s.x.meta(id).deprecated {
		coord *= rk.deprecated
		if s.ex != nil {
			s.ex.signal(id, sigDeprecated, rk.deprecated, "its description says it is deprecated")
		}
	}
	fit := 1.0
	if rk.intent {
		fit = p.intent.weigh(s.x.meta(id).effect)
	}
	if s.ex != nil && fit != 1 {
		s.ex.signal(id, sigIntent, fit, fmt.Sprintf("a query that %s, a tool that %s", intentNames[p.intent], effectNames[s.x.meta(id).effect]))
	}
	return coord * fit
}

// weigh is how well a tool's annotations fit the intent: a query that
// reads prefers tools that only read, one that changes things prefers
// tools that do, and only one that destroys prefers destructive tools.
// The factors are small: they decide between tools that match alike.
func (i intent) weigh(h effect) float64 {
	switch {
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

var (
	intentNames = map[intent]string{reads: "reads", acts: "acts", harms: "destroys", runs: "runs", noVerb: "has no verb"}
	effectNames = [...]string{readsOnly: "only reads", writes: "writes", destroys: "destroys"}
)
