package search

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// words splits text into lowercase words: at every character that is not a
// letter or digit (so _, -, ., __, spaces and punctuation) and at camelCase
// boundaries (listIssues -> list, issues; HTTPServer -> http, server).
func words(text string) []string {
	var out []string
	start := -1
	var prev rune
	flush := func(end int) {
		if start >= 0 {
			out = append(out, strings.ToLower(text[start:end]))
			start = -1
		}
	}
	for i, r := range text {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			prev = r
			continue
		}
		if start >= 0 && unicode.IsUpper(r) {
			next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
			// aB starts a word; so does the B of ABc (the last capital of an
			// acronym begins the next word).
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && unicode.IsLower(next) {
				flush(i)
			}
		}
		if start < 0 {
			start = i
		}
		prev = r
	}
	flush(len(text))
	return out
}

// stem folds the endings that most often hide a match: plurals (issues,
// entries, branches), -ing, -ed, -ion and a final e, so that "listing",
// "lists" and "list", or "create", "creating" and "creation", meet. It is
// applied alike to queries and to what they are matched against, so it
// needs to be consistent, not linguistically right.
func stem(w string) string {
	if len(w) <= 3 {
		return w
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
	switch {
	case strings.HasSuffix(w, "ing") && len(w) >= 6:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && len(w) >= 6:
		w = undouble(w[:len(w)-2])
	case strings.HasSuffix(w, "ion") && len(w) >= 7:
		w = w[:len(w)-3]
	}
	if strings.HasSuffix(w, "e") && len(w) >= 4 {
		w = w[:len(w)-1]
	}
	return w
}

// undouble drops the doubled consonant that -ing and -ed leave (running,
// stopped), keeping ll, ss and zz (pulling, passed).
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// indexStems returns the stems of text's words and, for a word that
// camelCase splits (JavaScript, GitHub), of the whole word too: a query
// may write it either way.
func indexStems(text string) []string {
	out := stems(text)
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(words(f)) > 1 {
			out = append(out, stem(strings.ToLower(f)))
		}
	}
	return out
}

// stems returns the stems of text's words.
func stems(text string) []string {
	ws := words(text)
	for i, w := range ws {
		ws[i] = stem(w)
	}
	return ws
}

// stopWords carry no meaning in a query ("how do I list the issues").
// They are dropped from queries that have other words.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "to": true, "of": true, "for": true,
	"in": true, "on": true, "at": true, "by": true, "with": true, "from": true,
	"into": true, "and": true, "or": true, "is": true, "are": true, "be": true,
	"do": true, "does": true, "i": true, "me": true, "my": true, "we": true,
	"our": true, "you": true, "your": true, "it": true, "its": true,
	"this": true, "that": true, "these": true, "those": true, "how": true,
	"what": true, "which": true, "can": true, "could": true, "should": true,
	"would": true, "will": true, "please": true, "want": true, "need": true,
	"some": true, "any": true, "all": true, "using": true, "use": true,
	"via": true, "as": true, "tool": true, "tools": true, "there": true, "here": true,
}

// synonymGroups are words a model uses for one another. A match through a
// synonym counts as matching the word, but scores below every literal
// match, so it widens recall without reordering the tiers.
var synonymGroups = [][]string{
	{"delete", "remove", "erase", "destroy", "drop"},
	{"create", "add", "new", "make", "insert"},
	{"get", "fetch", "read", "retrieve", "show", "view"},
	{"find", "search", "lookup", "query", "locate", "grep"},
	{"update", "edit", "modify", "change", "patch", "set", "rename"},
	{"run", "execute", "exec", "invoke", "call", "trigger"},
	{"send", "post", "publish"},
	{"list", "enumerate"},
	{"directory", "folder", "dir"},
	{"repository", "repo"},
	{"pr", "pull"},
	{"database", "db", "sql"},
	{"kubernetes", "k8s", "kube"},
	{"screenshot", "capture", "snapshot"},
	{"navigate", "visit", "goto"},
	{"message", "msg", "chat"},
	{"image", "picture", "photo", "img"},
	{"schedule", "cron"},
	{"history", "log"},
	{"issue", "ticket", "bug"},
	{"user", "member", "person", "people"},
	{"email", "mail"},
	{"memory", "remember", "knowledge"},
	{"download", "save"},
	{"container", "pod"},
	{"stop", "cancel", "kill", "terminate"},
}

// synonyms maps each stem to the stems of its synonyms.
func synonyms() map[string][]string {
	out := map[string][]string{}
	for _, g := range synonymGroups {
		for _, a := range g {
			for _, b := range g {
				if sa, sb := stem(a), stem(b); sa != sb && !slices.Contains(out[sa], sb) {
					out[sa] = append(out[sa], sb)
				}
			}
		}
	}
	return out
}
