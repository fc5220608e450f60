package search

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// The lexicon: the word tables the ranking reads (synonym groups, narrower
// words, phrasal verbs, senses, function words), held as data in
// lexicon/*.txt and loaded once, when the package starts. Each file says
// at its top what it holds and how it is written; tables.go binds each
// table to the name the ranking reads it by.

//go:embed lexicon/*.txt
var lexiconFiles embed.FS

// lex is the embedded lexicon. It is read-only once loaded; the tests
// prove the embedded files load (TestLexiconLoads), so the panic in
// mustLoadLexicon is never seen by a user.
var lex = mustLoadLexicon(lexiconFiles)

// tableKind is how a table's lines are read.
type tableKind string

const (
	kindSet    tableKind = "set"    // words, any number a line
	kindGroups tableKind = "groups" // one group of words that mean one another a line
	kindMap    tableKind = "map"    // key words -> value words
	kindPairs  tableKind = "pairs"  // two words a line
	kindSenses tableKind = "senses" // verb: object words -> verbs
)

// lexAnywhere, after a sense's verb, lets its object be anywhere after the
// verb.
const lexAnywhere = "(anywhere)"

// lexicon is the tables by name.
type lexicon map[string]*lexTable

// lexTable is one table as written: its header's name and kind, the comment
// under the header (what the ranking uses it for), and its lines.
type lexTable struct {
	name, doc string
	kind      tableKind
	at        lexPlace // of the header
	entries   []lexLine
}

// lexLine is one line of a table.
type lexLine struct {
	line     int
	verbs    []string // a sense's verbs, before the colon
	anywhere bool     // a sense's object may be anywhere after the verb
	words    []string // a set's words, a group, a pair, a map's key, a sense's objects
	to       []string // what a map's key or a sense leads to
}

// lexiconError is a line of the lexicon that is not as its table's kind
// wants: where it is and what was expected.
type lexiconError struct {
	at  lexPlace
	msg string
}

func (e *lexiconError) Error() string { return e.at.String() + ": " + e.msg }

// lexPlace is a line of a file of the lexicon.
type lexPlace struct {
	file string
	line int
}

func (p lexPlace) String() string { return p.file + ":" + strconv.Itoa(p.line) }

// mustLoadLexicon loads the lexicon under fsys's lexicon directory, and
// panics if it does not load.
func mustLoadLexicon(fsys fs.FS) lexicon {
	lx, err := loadLexicon(fsys)
	if err != nil {
		panic("search: the embedded lexicon does not load: " + err.Error())
	}
	return lx
}

// loadLexicon reads every lexicon/*.txt of fsys; its error joins one
// lexiconError for each line that is wrong.
func loadLexicon(fsys fs.FS) (lexicon, error) {
	names, err := fs.Glob(fsys, "lexicon/*.txt")
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, errors.New("search: no lexicon/*.txt files")
	}
	lx := lexicon{}
	var errs []error
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		errs = append(errs, lx.parse(name, string(data))...)
	}
	return lx, errors.Join(errs...)
}

// parse adds the tables of file, whose text is text, to lx.
func (lx lexicon) parse(file, text string) []error {
	var errs []error
	fail := func(at lexPlace, format string, args ...any) {
		errs = append(errs, &lexiconError{at, fmt.Sprintf(format, args...)})
	}
	var cur *lexTable
	written := 0 // lines under cur's header, right or wrong
	end := func() {
		if cur == nil || !cur.kind.known() {
			return
		}
		if cur.doc == "" {
			fail(cur.at, "table %s has no comment under its header saying what the ranking uses it for", cur.name)
		}
		if written == 0 {
			fail(cur.at, "table %s has no lines", cur.name)
		}
	}
	seen := map[string]int{} // a set's words and a map's keys: the line of each
	// The tables' lines share one array, and their words another, each
	// allocated once.
	nLines, nWords := sizes(text)
	all, start := make([]lexLine, 0, nLines), 0
	words := make([]string, 0, nWords)
	at := lexPlace{file, 0}
	for line := range strings.Lines(text) {
		at.line++
		line = strings.TrimSpace(line)
		switch {
		case line == "":
		case strings.HasPrefix(line, "#"):
			if cur != nil && written == 0 {
				cur.doc = strings.TrimSpace(cur.doc + " " + strings.TrimSpace(line[1:]))
			}
		case strings.HasPrefix(line, "["):
			end()
			t, msg := lx.header(at, line)
			if msg != "" {
				fail(at, "%s", msg)
			}
			cur, start, written = t, len(all), 0
			clear(seen)
		case cur == nil:
			fail(at, "words before any table: want a header [name: kind] first")
		case !cur.kind.known(): // the header's error says it all
		default:
			written++
			e, msg := parseLine(cur.kind, line, &words)
			if msg == "" {
				msg = repeated(cur, e, seen, at.line)
			}
			if msg != "" {
				fail(at, "%s", msg)
				continue
			}
			e.line = at.line
			all = append(all, e)
			cur.entries = all[start:len(all):len(all)]
		}
	}
	end()
	return errs
}

// sizes counts the lines of text that are neither blank nor comments,
// and bounds the number of their words from above.
func sizes(text string) (lines, words int) {
	for line := range strings.Lines(text) {
		if line = strings.TrimSpace(line); line != "" && line[0] != '#' {
			lines, words = lines+1, words+strings.Count(line, " ")+1
		}
	}
	return lines, words
}

// header reads a table's header, [name: kind], and adds the table to lx.
// It returns a table to read lines into even when the header is wrong,
// so that the lines after it are checked too, and what is wrong.
func (lx lexicon) header(at lexPlace, line string) (*lexTable, string) {
	t := &lexTable{at: at}
	inner, ok := strings.CutSuffix(line[1:], "]")
	name, kind, colon := strings.Cut(inner, ":")
	t.name, t.kind = strings.TrimSpace(name), tableKind(strings.TrimSpace(kind))
	switch {
	case !ok || !colon:
		return t, fmt.Sprintf("header %q: want [name: kind]", line)
	case t.name == "" || strings.ContainsFunc(t.name, func(r rune) bool { return !('a' <= r && r <= 'z' || r == '-') }):
		return t, fmt.Sprintf("table name %q: want lowercase letters and dashes", t.name)
	case !t.kind.known():
		return t, fmt.Sprintf("table %s: kind %q, want set, groups, map, pairs or senses", t.name, t.kind)
	case lx[t.name] != nil:
		return t, fmt.Sprintf("table %s is already defined at %s", t.name, lx[t.name].at)
	}
	lx[t.name] = t
	return t, ""
}

func (k tableKind) known() bool {
	switch k {
	case kindSet, kindGroups, kindMap, kindPairs, kindSenses:
		return true
	}
	return false
}

// parseLine reads one line of a table of kind k, or says what the kind
// wants instead. The line's words are appended to buf, whose array they
// share.
func parseLine(k tableKind, line string, buf *[]string) (lexLine, string) {
	var e lexLine
	if strings.Contains(line, "#") {
		return e, "a # begins a comment only at the start of a line"
	}
	rest := line
	if k == kindSenses {
		head, objects, ok := strings.Cut(line, ":")
		if !ok {
			return e, "want " + lineForm(k)
		}
		head, e.anywhere = strings.CutSuffix(strings.TrimSpace(head), lexAnywhere)
		e.verbs, rest = lexFields(buf, head), objects
		if strings.ContainsAny(head, "[]()") {
			return e, fmt.Sprintf("a %s line holds no [, ] or ( ) but %s: %s", k, lexAnywhere, lineForm(k))
		}
	}
	left, right, arrow := strings.Cut(rest, "->")
	if strings.ContainsAny(rest, ":[]()") || strings.Contains(right, "->") {
		return e, fmt.Sprintf("a %s line holds no :, [, ], ( or ) and at most one ->: %s", k, lineForm(k))
	}
	e.words, e.to = lexFields(buf, left), lexFields(buf, right)
	switch {
	case arrow != (k == kindMap || k == kindSenses):
		return e, "want " + lineForm(k)
	case k == kindGroups && len(e.words) < 2:
		return e, "a group needs two words or more"
	case k == kindPairs && len(e.words) != 2:
		return e, "want two words"
	case k == kindMap && len(e.words) == 0:
		return e, "want key words before ->"
	case k == kindSenses && (len(e.verbs) == 0 || len(e.words) == 0 || len(e.to) == 0):
		return e, "want " + lineForm(k)
	}
	return e, ""
}

// lexFields appends the words of s to buf and returns them: one array holds
// the words of many lines.
func lexFields(buf *[]string, s string) []string {
	n := len(*buf)
	for w := range strings.FieldsSeq(s) {
		*buf = append(*buf, w)
	}
	return (*buf)[n:len(*buf):len(*buf)]
}

// lineForm says how a line of a table of kind k is written.
func lineForm(k tableKind) string {
	switch k {
	case kindGroups:
		return "words that mean one another"
	case kindMap:
		return "key words -> value words"
	case kindPairs:
		return "two words"
	case kindSenses:
		return "verb: object words -> verbs (verb " + lexAnywhere + ": when the object may be anywhere after it)"
	}
	return "words"
}

// repeated says which of e's words a set already holds, or whether a
// map's key is already there; seen records where each was first.
func repeated(t *lexTable, e lexLine, seen map[string]int, line int) string {
	var keys []string
	switch t.kind {
	case kindSet:
		keys = e.words
	case kindMap:
		keys = []string{strings.Join(e.words, " ")}
	}
	for _, k := range keys {
		if first, ok := seen[k]; ok {
			return fmt.Sprintf("%q is already in table %s at %v", k, t.name, lexPlace{t.at.file, first})
		}
		seen[k] = line
	}
	return ""
}

// lookup is the table named name, of kind k. The tables are bound once,
// when the package starts, to names the code reads (tables.go); a name or
// kind that is not in the files is a mistake in the code, which every
// test of the package shows.
func (lx lexicon) lookup(name string, k tableKind) *lexTable {
	t := lx[name]
	if t == nil || t.kind != k {
		panic(fmt.Sprintf("search: the lexicon has no %s table %s", k, name))
	}
	return t
}

// set is the words of set table name.
func (lx lexicon) set(name string) map[string]bool {
	out := map[string]bool{}
	for _, e := range lx.lookup(name, kindSet).entries {
		for _, w := range e.words {
			out[w] = true
		}
	}
	return out
}

// groups is the groups of groups table name, in order.
func (lx lexicon) groups(name string) [][]string {
	t := lx.lookup(name, kindGroups)
	out := make([][]string, len(t.entries))
	for i, e := range t.entries {
		out[i] = e.words
	}
	return out
}

// pairs is the pairs of pairs table name.
func (lx lexicon) pairs(name string) map[[2]string]bool {
	out := map[[2]string]bool{}
	for _, e := range lx.lookup(name, kindPairs).entries {
		out[[2]string(e.words)] = true
	}
	return out
}

// lists is map table name: each key, its words joined by a space, to its
// values (nil for none: the key leads nowhere).
func (lx lexicon) lists(name string) map[string][]string {
	out := map[string][]string{}
	for _, e := range lx.lookup(name, kindMap).entries {
		var to []string
		if len(e.to) > 0 {
			to = e.to
		}
		out[strings.Join(e.words, " ")] = to
	}
	return out
}

// phrases is map table name with each side's words joined by a space
// (p&l -> profit loss). Every key must lead somewhere.
func (lx lexicon) phrases(name string) map[string]string {
	out := map[string]string{}
	t := lx.lookup(name, kindMap)
	for _, e := range t.entries {
		if len(e.to) == 0 {
			panic(fmt.Sprintf("search: %v: table %s wants words after ->", lexPlace{t.at.file, e.line}, name))
		}
		out[strings.Join(e.words, " ")] = strings.Join(e.to, " ")
	}
	return out
}

// senses is senses table name: each verb to its senses, in order, with
// their objects as stems.
func (lx lexicon) senses(name string) map[string][]sense {
	out := map[string][]sense{}
	for _, e := range lx.lookup(name, kindSenses).entries {
		sn := sense{objects: stemSet(e.words...), verbs: e.to, far: e.anywhere}
		for _, v := range e.verbs {
			out[v] = append(out[v], sn)
		}
	}
	return out
}
