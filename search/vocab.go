package search

import (
	"maps"
	"slices"
	"strings"
)

// The curated vocabulary is held as data in lexicon/ (synonyms.txt,
// narrower.txt, phrasal.txt, senses.txt), bound in tables.go to the names
// the ranking reads. A match through it counts below the word itself: a
// synonym (verbGroups, nounGroups) or a narrower word reaching a broader
// one (narrower) at Weights.Synonym, a looser relation (related) at
// Weights.Related, a derived form (derive) at Weights.Derived.

// wordsOf is the words of groups, as written (verbWords of verbGroups).
func wordsOf(groups [][]string) map[string]bool {
	out := map[string]bool{}
	for _, g := range groups {
		for _, w := range g {
			out[w] = true
		}
	}
	return out
}

// sense is one meaning of a verb, chosen by its object (senses).
type sense struct {
	objects map[string]bool // stems
	verbs   []string
	far     bool // an object anywhere after the verb, not only among its first three words
}

// stemSet is the stems of ws.
func stemSet(ws ...string) map[string]bool {
	out := map[string]bool{}
	for _, w := range ws {
		out[stem(w)] = true
	}
	return out
}

// derive returns, as stems, the verbs a noun derives from: deploy for
// deployment, notify for notification, execute for execution, since
// tools are named for what they do and requests often name the thing;
// and an adjective's noun and a noun's adjective, which say one thing
// (different and difference, compliant and compliance: -ent and -ence,
// -ant and -ance).
// The stemmer keeps them apart on purpose (an execution is not
// executing), so they count as their own kind of match, below the word
// itself. The way back is weaker and only from a past form (nounsOf):
// subscribing someone to a list is no subscription.
func derive(word string) []string {
	var out []string
	s := stem(word)
	if s != word {
		out = forms(s, out) // notifications, execute: notification, execut
	}
	return forms(word, out)
}

// forms appends the verbs noun word derives from to out.
func forms(word string, out []string) []string {
	add := func(w string) {
		if s := stem(w); len(w) >= 3 && w != word && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	// A base of three letters is kept only when it ends in y (pay,
	// employ): comment is no com.
	trim := func(s string) (string, bool) {
		b, ok := strings.CutSuffix(word, s)
		return b, ok && (len(b) >= 4 || len(b) == 3 && b[2] == 'y')
	}
	if b, ok := trim("ment"); ok { // deployment, payment
		add(b)
	}
	if b, ok := trim("ication"); ok { // notification, verification
		add(b + "y")
	}
	if b, ok := trim("iption"); ok { // subscription, description
		add(b + "ibe")
	}
	if b, ok := trim("ation"); ok { // creation, configuration, invitation, transformation
		add(b + "e")
		add(b)
	}
	if b, ok := trim("ion"); ok { // execution, deletion, connection
		add(b + "e")
		add(b)
	}
	if b, ok := trim("ator"); ok { // generator, validator, translator
		add(b + "ate")
	}
	for _, pair := range [][2]string{{"ent", "ence"}, {"ence", "ent"}, {"ant", "ance"}, {"ance", "ant"}} {
		if b, ok := trim(pair[0]); ok { // different, difference; compliant, compliance
			add(b + pair[1])
		}
	}
	if b, ok := trim("al"); ok && strings.ContainsRune("vw", rune(b[len(b)-1])) { // removal, approval, renewal
		add(b)
		add(b + "e")
	}
	return out
}

// nounsOf returns, as stems, the nouns derived from verb word
// (connection for connected, deployment for deploy): the way back from
// derive, weaker, as what a verb names is often no such thing.
func nounsOf(word string) []string {
	s := stem(word)
	if len(s) < 4 || !strings.HasSuffix(word, "ed") {
		return nil
	}
	out := []string{stem(s + "ion"), stem(s + "ation"), stem(s + "ment")}
	if b, ok := strings.CutSuffix(s, "i"); ok { // notifi: notification
		out = append(out, stem(b+"ication"))
	}
	if b, ok := strings.CutSuffix(s, "b"); ok { // subscrib: subscription
		out = append(out, stem(b+"ption"))
	}
	return out
}

// tableKey is the key a word's relations are found under: its stem, or
// the word itself when the stem is another word's, a verb's (listing,
// settings, news and tracking stem to list, set, new and track): the
// verb must not reach products, options or headlines.
func tableKey(w string) string {
	if s := stem(w); s == w || verbClass(s) == noVerb {
		return s
	}
	return w
}

// vocabTables builds synonymTable, which maps each stem to the stems of
// its synonyms and of the broader words it reaches, and relatedTable, to
// the stems of looser relations, from the bound tables.
func vocabTables() (map[string][]string, map[string][]string) {
	link := func(out map[string][]string, a, b string) {
		if sa, sb := tableKey(a), stem(b); sa != sb && stem(a) != sb && !slices.Contains(out[sa], sb) {
			out[sa] = append(out[sa], sb)
		}
	}
	groups := func(out map[string][]string, gs [][]string) {
		for _, g := range gs {
			for _, a := range g {
				for _, b := range g {
					link(out, a, b)
				}
			}
		}
	}
	syn, rel := map[string][]string{}, map[string][]string{}
	groups(syn, slices.Concat(verbGroups, nounGroups))
	for _, a := range slices.Sorted(maps.Keys(narrower)) {
		for _, b := range narrower[a] {
			link(syn, a, b)
		}
	}
	groups(rel, related)
	return syn, rel
}
