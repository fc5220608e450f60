package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// words splits text into lowercase words: at every character that is not a
// letter or digit (so _, -, ., __, spaces and punctuation) and at camelCase
// boundaries (listIssues -> list, issues; HTTPServer -> http, server).
func words(text string) []string {
	var out []string
	splitWords(text, func(w string, _ bool) { out = append(out, w) })
	return out
}

// splitWords calls f with each word of text, lowercase, and for a run of
// letters and digits that camelCase splits (JavaScript, GitHub), then with
// the whole run too, marked whole: a query may write it either way. The
// words share the memory of one lowercase copy of text.
func splitWords(text string, f func(word string, whole bool)) {
	// Words are slices of text; only a word with a capital is copied.
	splitRaw(text, func(raw string, upper, whole bool) {
		if upper {
			raw = strings.ToLower(raw)
		}
		f(raw, whole)
	})
}

// splitRaw is splitWords before lowercasing: f gets each word as written
// and whether it has a capital, for a caller that can often do without
// the lowercase copy.
func splitRaw(text string, f func(raw string, upper, whole bool)) {
	cut := func(i, j int, upper bool) (string, bool) { return text[i:j], upper }
	start, run, parts := -1, -1, 0
	wordUpper, runUpper := false, false
	var prev rune
	flush := func(end int) {
		if start >= 0 {
			w, u := cut(start, end, wordUpper)
			f(w, u, false)
			start, wordUpper = -1, false
			parts++
		}
	}
	endRun := func(end int) {
		flush(end)
		if run >= 0 && parts > 1 {
			w, u := cut(run, end, runUpper)
			f(w, u, true)
		}
		run, parts, runUpper = -1, 0, false
	}
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		var class uint8
		if r < utf8.RuneSelf {
			class = asciiClass[r]
		} else {
			r, size = utf8.DecodeRuneInString(text[i:])
			class = runeClass(r)
		}
		if class&(classLetter|classDigit) == 0 {
			endRun(i)
			prev = r
			i += size
			continue
		}
		if class&classUpper != 0 {
			if start >= 0 {
				next, _ := utf8.DecodeRuneInString(text[i+size:])
				// aB starts a word; so does the B of ABc (the last capital
				// of an acronym begins the next word).
				if isLower(prev) || '0' <= prev && prev <= '9' || isUpper(prev) && isLower(next) {
					flush(i)
				}
			}
			wordUpper, runUpper = true, true
		}
		if start < 0 {
			start = i
		}
		if run < 0 {
			run = i
		}
		prev = r
		i += size
	}
	endRun(len(text))
}

const (
	classLetter uint8 = 1 << iota
	classDigit
	classUpper
)

// asciiClass classifies the ASCII characters without a table lookup in
// package unicode.
var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for r := range utf8.RuneSelf {
		t[r] = runeClass(rune(r))
	}
	return t
}()

func runeClass(r rune) uint8 {
	var c uint8
	if unicode.IsLetter(r) {
		c |= classLetter
	}
	if unicode.IsDigit(r) {
		c |= classDigit
	}
	if unicode.IsUpper(r) {
		c |= classUpper
	}
	return c
}

// isUpper and isLower answer for ASCII without a table lookup.
func isUpper(r rune) bool {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.IsUpper(r)
}

func isLower(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z'
	}
	return unicode.IsLower(r)
}

// stem folds plurals (issues, entries, branches), -ing and -ed, and a
// final e, so that "listing", "lists" and "list", or "create", "created"
// and "creating", meet. It leaves -ion alone: "execution" and "execute"
// name different things. A match through the stem alone (issues for
// issue) ranks below a match of the word as written, so singular and
// plural stay a signal. It is applied alike to queries and to what they
// are matched against, so it needs to be consistent, not linguistically
// right.
func stem(w string) string {
	if len(w) <= 3 {
		return w
	}
	w = singular(w)
	switch {
	case strings.HasSuffix(w, "ing") && len(w) >= 6:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && len(w) >= 6:
		w = undouble(w[:len(w)-2])
	}
	if strings.HasSuffix(w, "e") && len(w) >= 4 {
		w = w[:len(w)-1]
	}
	// A final y after a consonant is an i, as in its other forms: reply,
	// replies, replied; movie, movies.
	if n := len(w); n >= 4 && w[n-1] == 'y' && !strings.ContainsRune("aeiouy", rune(w[n-2])) {
		w = w[:n-1] + "i"
	}
	return w
}

// singular folds a plural as stem does, and nothing else.
func singular(w string) string {
	if len(w) <= 3 {
		return w
	}
	if one, ok := irregularPlurals[w]; ok {
		return one
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "xes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	return w
}

// foldsE reports whether stem drops the final e of w, after its plural
// (take, takes, notes): such a stem is also that of words with no e
// (taks), which are no forms of w.
func foldsE(w string) bool {
	s := singular(w)
	return len(s) >= 4 && strings.HasSuffix(s, "e") && stem(w) == s[:len(s)-1]
}

// bareStem reports whether w's stem is w as written, less a plural: no
// ending was dropped (taks, task; not taking, take).
func bareStem(w string) bool { return stem(w) == singular(w) }

// undouble drops the doubled consonant that -ing and -ed leave (running,
// stopped), keeping ll, ss and zz (pulling, passed).
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// longest is the length of the longest word of set: maxStop of
// stopWords, past which a word is not looked up.
func longest(set map[string]bool) (n int) {
	for w := range set {
		n = max(n, len(w))
	}
	return n
}

func isStop(w string) bool { return len(w) <= maxStop && stopWords[w] }

// verbClass is what verb w means to do, or noVerb: for a query's first
// word and for the first verb of a tool's own name (delete in
// kubectl_delete), so that "remove the pod" prefers a tool named for
// deleting to one named for the pod.
func verbClass(w string) intent {
	switch {
	case harmVerbs[w]:
		return harms
	case runVerbs[w]:
		return runs
	case actVerbs[w]:
		return acts
	case readVerbs[w]:
		return reads
	}
	return noVerb
}

// swapped reports whether a and b differ by two neighbouring letters
// swapped (taks, task): for short words, the one near spelling that is
// rarely another word.
func swapped(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
}

// oneEdit reports whether a and b are at most one edit apart: one letter
// inserted, deleted, replaced, or two neighbours swapped.
func oneEdit(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	switch len(b) - len(a) {
	case 0:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		if i == len(a) {
			return true
		}
		if a[i+1:] == b[i+1:] {
			return true
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	case 1:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		return a[i:] == b[i+1:]
	}
	return false
}
