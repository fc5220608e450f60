package search

import (
	"fmt"
	"regexp"
	"strings"
)

// General evidence, each piece a named signal with its reason; rank.go
// and index.go call them at a few points (see each one's doc).

// deprecatedScale multiplies the score of a tool whose description says
// it is deprecated: it still matches, and still comes first when asked by
// name or when nothing else matches, but its replacement, which says the
// same, ranks above it.
const deprecatedScale = 0.8

// deprecationNotice matches a description sentence saying that its tool
// is deprecated: "DEPRECATED: use read_text_file instead", "This tool is
// deprecated", "Obsolete.", "[Legacy] ...", or one that is nothing but
// "Use X instead". It does not match a conditional advice ("If the user
// names an author, use search_pull_requests instead"), a legacy thing the
// tool reads ("Get legacy User Reports") or a deprecated argument (the
// schema is not read). The index runs it only where it may match:
// noticeFits and deprecatedFrom (textindex.go) read its shape, and
// FuzzIndexDeprecated checks them against it.
var deprecationNotice = regexp.MustCompile(`(?i)` +
	`(^|[.!:;]\s+|\n\s*)(\[(deprecated|obsolete|legacy)\]|\((deprecated|obsolete|legacy)\)|(deprecated|obsolete|legacy)\s*[:.\-—])` +
	`|\b(is|now|been)\s+(deprecated|obsolete)\b` +
	"|(^|[.!]\\s+)use\\s+(the\\s+)?`?[\\w.-]+`?(\\s+tool)?\\s+instead\\s*(\\.|$)")

// deprecated reports whether a tool's description says it is deprecated.
func deprecated(description string) bool {
	return deprecationNotice.MatchString(strings.TrimSpace(description))
}

// noticeWord reports whether a word of a description, as written, is one
// a deprecation notice needs: the index runs deprecated only on a
// description that has one (the expression on every description was half
// of building an index of real tools).
func noticeWord(raw string) bool {
	switch len(raw) {
	case 6:
		return strings.EqualFold(raw, "legacy")
	case 7:
		return strings.EqualFold(raw, "instead")
	case 8:
		return strings.EqualFold(raw, "obsolete")
	}
	return len(raw) > 8 && strings.EqualFold(raw[:8], "deprecat")
}

// namingWords introduce what a thing is to be called: the words after
// them are its name, a value, not a topic ("a repo called infra-notes" is
// no request about notes).
var namingWords = map[string]bool{"called": true, "named": true, "titled": true, "entitled": true}

// namedValues drops each naming word that a query's next token follows
// and marks the tokens after it as values, up to the first stop word
// written in lowercase ("titled Fix login redirect", "called Checkout
// down with severity major": up to with), a clause or a label. Quoted
// names are values already.
func namedValues(toks []token) []token {
	out := toks[:0]
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.value || t.label || i+1 == len(toks) || !namingWords[strings.ToLower(t.text)] {
			out = append(out, t)
			continue
		}
		for j := i + 1; j < len(toks); j++ {
			n := &toks[j]
			if j > i+1 && (n.clause || n.label || isStop(n.text) || n.opens) {
				break
			}
			n.value = true
			if j == i+1 {
				n.clause = n.clause || t.clause
			}
		}
	}
	return out
}

// twinOrder breaks a tie between two tools of one server that nothing
// else told apart: the one the server lists first comes first (a server
// lists its main tool before its variants: read_text_file before
// read_media_file). It returns 0 for tools of different servers and for
// builtins, whose ties the name breaks (SRCH-5); an empty query lists the
// pool by name (SRCH-8), so its call site asks for keywords.
func twinOrder(a, b *entry) int {
	if a.tool.Server == "" || a.tool.Server != b.tool.Server || a.listed == b.listed {
		return 0
	}
	return int(a.listed) - int(b.listed)
}

// Description length. A long description matches more of a query's words
// by chance than a short one says what it does (a 300-word description
// mentions users, events and email in passing). As in BM25, a description
// match weighs by its description's length: 1 up to descRefWords words,
// less for longer ones, flattened by descLengthB. (A short description
// gains nothing: in a small pool of terse descriptions, one word more is
// no sign of a lesser match.)
const (
	descLengthB  = 0.3
	descRefWords = 40
)

// descNorm is the factor of a description match for a description of n
// words.
func descNorm(n int) float32 {
	return float32(1 / (1 - descLengthB + descLengthB*float64(max(n, descRefWords))/descRefWords))
}

// acronymPlural is an acronym written in capitals with a plural s (PRs,
// VMs, URLs), punctuation after it aside.
var acronymPlural = regexp.MustCompile(`^([A-Z]{2,})s(\W*)$`)

// singularAcronym writes an acronym's plural as the acronym (PRs as PR),
// which the vocabulary knows, instead of the words its case splits it
// into (P, Rs).
func singularAcronym(text string) string {
	return acronymPlural.ReplaceAllString(text, "$1$2")
}

// repeatedNameWord reports whether the name word at i is one the name
// had before (the second variable of create_variable_in_variable_set): a
// name earns its bonuses once per word, so saying a word twice does not
// outrank the name that says it once (create_variable_set).
func repeatedNameWord(own []nameWord, i int) bool {
	for _, w := range own[:i] {
		if w.stem == own[i].stem {
			return true
		}
	}
	return false
}

// keywordsIntent is the intent of a query that starts with no verb and
// asks nothing, read off its words (policy set attach workspace): keywords
// come in any order, so a verb that changes or destroys, anywhere, says
// the query means to; otherwise it reads.
func keywordsIntent(all []keyword) intent {
	for _, k := range all {
		if c := verbClass(k.word); k.weight == 1 && (c == acts || c == harms) {
			return c
		}
	}
	return reads
}

// Two readings of one text. A pair of words the pool also writes as one
// (task list, tasklist) is read both ways: its two parts stay keywords
// and the joined word is a third, alternative keyword (keyword.alt). A
// tool gets the better reading, not both: the joined word adds only what
// it gives beyond the parts (alike), and it is no more of the query to
// cover (the coord signal counts the parts).

// partOfAlt reports whether keyword n is a part of the alternative
// keyword after it.
func (p *plan) partOfAlt(n int) bool {
	for _, j := range []int{n + 1, n + 2} {
		if j < len(p.kws) && p.kws[j].alt {
			return true
		}
	}
	return false
}

// partPoints are the points the parts of an alternative keyword gave a
// tool, and the fields of their best matches, one bit a field.
type partPoints struct {
	points float64
	fields [2]uint8
	n      int8
}

func (pp partPoints) add(v float64, field int) partPoints {
	pp.fields[min(pp.n, 1)] |= 1 << field
	pp.points, pp.n = pp.points+v, pp.n+1
	return pp
}

// trackFields readies the scoring of keyword n to note the field of each
// tool's best match, when it is an alternative keyword or one of its
// parts.
func (s *scores) trackFields(n int) {
	if s.field == nil && (s.plan.kws[n].alt || s.plan.partOfAlt(n)) {
		s.field, s.parts = map[int32]int{}, map[int32]partPoints{}
	}
}

// alike is what the alternative keyword's v points add to tool id. When
// both parts matched it best in the field the joined word matches it
// best in (TaskList: task, list and tasklist in the name), that field is
// read twice: the joined word adds what it gives beyond the parts.
// Otherwise it is evidence of its own (findRxcuiByString: rxcui in the
// name, rx and cui in the description). It covers the share of the query
// of each part that did not reach the tool.
func (s *scores) alike(id int32, v float64, word string) float64 {
	got := s.parts[id]
	s.covered[id] += float64(2 - got.n)
	f := s.field[id]
	if bit := uint8(1) << f; got.n < 2 || got.fields[0]&got.fields[1]&bit == 0 {
		return v
	}
	gain := max(0, v-got.points)
	if s.ex != nil {
		s.ex.signal(id, sigAlike, gain-v, fmt.Sprintf("%s reads its parts again, in the %s", word, fieldNames[f]))
	}
	return gain
}
