package search

import (
	"errors"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// The embedded lexicon loads with no error, every table says what the
// ranking uses it for, its words are lowercase, and every table is bound to a name the code reads
// (tables.go), each name to a table: a table added to a file and never
// bound would be silently unused.
func TestLexiconLoads(t *testing.T) {
	lx, err := loadLexicon(lexiconFiles)
	if err != nil {
		t.Fatalf("the embedded lexicon does not load:\n%v", err)
	}
	src, err := os.ReadFile("tables.go")
	if err != nil {
		t.Fatal(err)
	}
	bound := map[string]bool{}
	for _, m := range regexp.MustCompile(`lx\.(\w+)\("([a-z-]+)"\)`).FindAllStringSubmatch(string(src), -1) {
		if bound[m[2]] {
			t.Errorf("tables.go binds table %s twice", m[2])
		}
		bound[m[2]] = true
	}
	if got, want := slices.Sorted(maps.Keys(lx)), slices.Sorted(maps.Keys(bound)); !slices.Equal(got, want) {
		t.Errorf("the lexicon's tables %v, the tables bound in tables.go %v", got, want)
	}
	words := 0
	for _, tb := range lx {
		if len(tb.doc) < 20 {
			t.Errorf("%s: table %s says too little of what it is for: %q", tb.at, tb.name, tb.doc)
		}
		for _, e := range tb.entries {
			words += len(e.verbs) + len(e.words) + len(e.to)
			// Queries are matched lowercased: a capital would never match,
			// but in an SQL statement, written in capitals.
			for _, w := range slices.Concat(e.verbs, e.words, e.to) {
				if strings.ToLower(w) != w && !strings.HasPrefix(tb.name, "sql-") {
					t.Errorf("%v: %q in table %s has a capital", lexPlace{tb.at.file, e.line}, w, tb.name)
				}
			}
		}
	}
	// The tables hold about 2,660 words since the pruning of issue 23
	// (docs/search.md); a file that stops loading entries (a header or a
	// line format misread) shows here.
	if words < 2650 {
		t.Errorf("the lexicon holds %d words, want the 2,650 or more it was written with", words)
	}
}

// A line that is not as its table's kind wants is an error that names the
// file, the line and what was expected; every wrong line is reported, not
// only the first, each once (no error follows from another), and nothing
// panics.
func TestLexiconErrors(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string // substrings of the error, in order
	}{
		{"no header", "# notes\nplease pls\n", []string{"x.txt:2: words before any table: want a header [name: kind]"}},
		{"header without kind", "[polite]\n# doc of it here.\nplease\n", []string{"x.txt:1: header \"[polite]\": want [name: kind]"}},
		{"unclosed header", "[polite: set\n# doc of it here.\nplease\n", []string{"x.txt:1: header"}},
		{"unknown kind", "[polite: list]\n# doc of it here.\nplease\n", []string{`x.txt:1: table polite: kind "list", want set, groups, map, pairs or senses`}},
		{"bad name", "[Polite words: set]\n# doc of it here.\nplease\n", []string{`x.txt:1: table name "Polite words": want lowercase letters and dashes`}},
		{"no doc", "[polite: set]\nplease\n", []string{"x.txt:1: table polite has no comment under its header"}},
		{"no lines", "[polite: set]\n# doc of it here.\n", []string{"x.txt:1: table polite has no lines"}},
		{"repeated table", "[a: set]\n# doc of it here.\nx\n[a: set]\n# doc of it here.\ny\n", []string{"x.txt:4: table a is already defined at lexicon/x.txt:1"}},
		{"word twice in a set", "[a: set]\n# doc of it here.\nx y\nz x\n", []string{`x.txt:4: "x" is already in table a at lexicon/x.txt:3`}},
		{"arrow in a set", "[a: set]\n# doc of it here.\nx -> y\n", []string{"x.txt:3: want words"}},
		{"trailing comment", "[a: set]\n# doc of it here.\nx # y\n", []string{"x.txt:3: a # begins a comment only at the start of a line"}},
		{"group of one", "[a: groups]\n# doc of it here.\nx y\nz\n", []string{"x.txt:4: a group needs two words or more"}},
		{"pair of three", "[a: pairs]\n# doc of it here.\nat once now\n", []string{"x.txt:3: want two words"}},
		{"map without arrow", "[a: map]\n# doc of it here.\npod kubernetes\n", []string{"x.txt:3: want key words -> value words"}},
		{"map without key", "[a: map]\n# doc of it here.\n-> kubernetes\n", []string{"x.txt:3: want key words before ->"}},
		{"map with two arrows", "[a: map]\n# doc of it here.\na -> b -> c\n", []string{"x.txt:3: a map line holds no :, [, ], ( or ) and at most one ->"}},
		{"key twice in a map", "[a: map]\n# doc of it here.\nspin up -> start\nspin up -> create\n", []string{`x.txt:4: "spin up" is already in table a at lexicon/x.txt:3`}},
		{"sense without colon", "[s: senses]\n# doc of it here.\nopen page -> visit\n", []string{"x.txt:3: want verb: object words -> verbs"}},
		{"sense without verbs", "[s: senses]\n# doc of it here.\nopen: page ->\n", []string{"x.txt:3: want verb: object words -> verbs"}},
		{"sense with a stray parenthesis", "[s: senses]\n# doc of it here.\nput (far): list -> add\n", []string{"x.txt:3: a senses line holds no [, ] or ( ) but (anywhere)"}},
		{"colon in a map", "[a: map]\n# doc of it here.\na: b -> c\n", []string{"x.txt:3: a map line holds no :"}},
		{"lines under a wrong header", "[a: list]\n# doc of it here.\nx -> y\n[b: set]\n# doc of it here.\nx -> y\n", []string{"x.txt:1: table a: kind", "x.txt:6: want words"}},
		{"every wrong line", "[a: groups]\n# doc of it here.\nx\ny z\nw\n", []string{"x.txt:3: a group needs", "x.txt:5: a group needs"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := loadLexicon(fstest.MapFS{"lexicon/x.txt": {Data: []byte(c.text)}})
			if err == nil {
				t.Fatalf("no error for %q", c.text)
			}
			var le *lexiconError
			if !errors.As(err, &le) {
				t.Errorf("%v is no lexiconError", err)
			}
			msg := err.Error()
			if n := strings.Count(msg, "\n") + 1; n != len(c.want) {
				t.Errorf("%d errors, want %d: %s", n, len(c.want), msg)
			}
			for _, w := range c.want {
				i := strings.Index(msg, w)
				if i < 0 {
					t.Fatalf("error %q, want it to contain %q", msg, w)
				}
				msg = msg[i+len(w):]
			}
		})
	}
	if _, err := loadLexicon(fstest.MapFS{}); err == nil || !strings.Contains(err.Error(), "no lexicon/*.txt files") {
		t.Errorf("an empty lexicon: error %v, want no lexicon/*.txt files", err)
	}
	// Errors in two files name each file.
	_, err := loadLexicon(fstest.MapFS{"lexicon/a.txt": {Data: []byte("x\n")}, "lexicon/b.txt": {Data: []byte("[t: pairs]\n# doc of it here.\nx\n")}})
	if err == nil || !strings.Contains(err.Error(), "lexicon/a.txt:1: words before any table") || !strings.Contains(err.Error(), "lexicon/b.txt:3: want two words") {
		t.Errorf("two files' errors: %v", err)
	}
}

// Each kind reads as the code wants it: a set's lines together, a group
// and a pair a line, a map's key and values as phrases (an empty right
// side is nil: the key leads nowhere), and a sense's verbs sharing it,
// its objects as stems.
func TestLexiconKinds(t *testing.T) {
	const text = `# A file of every kind.
[words: set]
# a set over two lines, with a comment between.
please pls
# more
kindly
[syn: groups]
# groups, one a line.
delete remove erase
create add
[two: pairs]
# pairs.
at once
[far: map]
# a map, one key leading nowhere.
spin up -> create start
fire off ->
[abbr: map]
# a map of phrases.
p&l -> profit loss
[meaning: senses]
# senses.
open: pages url -> navigate visit
fix correct: titles -> update
put (anywhere): list -> add
`
	lx, err := loadLexicon(fstest.MapFS{"lexicon/all.txt": {Data: []byte(text)}})
	if err != nil {
		t.Fatal(err)
	}
	if got := lx.set("words"); !maps.Equal(got, map[string]bool{"please": true, "pls": true, "kindly": true}) {
		t.Errorf("set: %v", got)
	}
	if got := lx.lookup("words", kindSet).doc; got != "a set over two lines, with a comment between." {
		t.Errorf("doc: %q", got)
	}
	if got := lx.groups("syn"); len(got) != 2 || !slices.Equal(got[1], []string{"create", "add"}) {
		t.Errorf("groups: %v", got)
	}
	if got := lx.pairs("two"); !got[[2]string{"at", "once"}] || len(got) != 1 {
		t.Errorf("pairs: %v", got)
	}
	lists := lx.lists("far")
	if to, ok := lists["fire off"]; !ok || to != nil || !slices.Equal(lists["spin up"], []string{"create", "start"}) {
		t.Errorf("lists: %v", lists)
	}
	if got := lx.phrases("abbr")["p&l"]; got != "profit loss" {
		t.Errorf("phrases: p&l is %q", got)
	}
	ss := lx.senses("meaning")
	if s := ss["open"]; len(s) != 1 || !s[0].objects[stem("page")] || !s[0].objects["url"] || s[0].far || !slices.Equal(s[0].verbs, []string{"navigate", "visit"}) {
		t.Errorf("open: %+v", s)
	}
	if fix, correct := ss["fix"], ss["correct"]; len(fix) != 1 || len(correct) != 1 || !fix[0].objects[stem("title")] || !correct[0].objects[stem("title")] {
		t.Errorf("fix %+v, correct %+v", fix, correct)
	}
	if put := ss["put"]; len(put) != 1 || !put[0].far {
		t.Errorf("put: %+v", put)
	}
}

// A name or kind the code asks for that the files do not hold is a
// mistake in the code: it panics, at the package's start, where every
// test shows it.
func TestLexiconLookupPanics(t *testing.T) {
	for _, f := range []func(){
		func() { lex.set("no-such-table") },
		func() { lex.groups("stop") },   // a set, not groups
		func() { lex.phrases("apart") }, // apart has keys that lead nowhere
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		}()
	}
}

// Loading the embedded lexicon, as the package does once when it starts
// (docs/search.md, The lexicon).
func BenchmarkLexiconLoad(b *testing.B) {
	loopCPU(b, func() {
		if _, err := loadLexicon(lexiconFiles); err != nil {
			b.Fatal(err)
		}
	})
}
