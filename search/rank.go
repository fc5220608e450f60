package search

import (
	"slices"
	"sort"
	"strings"
)

// How strongly one keyword matches one tool; a tool keeps its best per
// keyword. The order is the contract's tiers (SRCH-5): a word of the name,
// then a substring of the name, then the searchHint, then the description.
// Prefixes (repo -> repository) and synonyms (remove -> delete) widen
// recall, each below the literal match of its tier, synonyms below all.
const (
	bySynonym    = 1
	byDescPrefix = 2
	byDesc       = 3
	byHintPrefix = 4
	byHint       = 5
	byNamePart   = 7
	byNameWord   = 9
)

// keyword is one whitespace-separated query word. A word such as
// create_issue or listIssues has several stems, matched as a run.
type keyword struct {
	compact string
	stems   []string
}

// scores is one keyword query evaluated over the whole index.
type scores struct {
	x         *Index
	exact     int32   // the tool whose name is the query, or -1
	sum       []int32 // per tool: strength summed over keywords
	count     []int32 // per tool: keywords matched
	hits      []int32 // tools that match at least half the keywords
	stems     []string
	uncovered []int8 // per tool, lazily: own-name words the query lacks
}

func (x *Index) score(text string) *scores {
	n := len(x.tools)
	s := &scores{x: x, exact: -1, sum: make([]int32, n), count: make([]int32, n)}
	if i, ok := x.byName[strings.ToLower(text)]; ok {
		s.exact = int32(i)
	} else if i, ok := x.byName[strings.ToLower(bareName(text))]; ok {
		s.exact = int32(i)
	}
	kws := keywords(text)
	m := make(matches, n)
	for _, k := range kws {
		x.match(k, m)
		for i, b := range m {
			if b > 0 {
				s.sum[i] += b
				s.count[i]++
				m[i] = 0
			}
		}
		s.stems = append(s.stems, k.stems...)
		if len(k.stems) == 1 {
			s.stems = append(s.stems, x.synonyms[k.stems[0]]...)
		}
	}
	// A tool matching fewer than half the keywords is no hit.
	for i, c := range s.count {
		if c > 0 && 2*int(c) >= len(kws) || int32(i) == s.exact {
			s.hits = append(s.hits, int32(i))
		}
	}
	return s
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

// keywords splits a query at whitespace and commas, dropping stop words
// unless nothing else is left, and repeated words.
func keywords(text string) []keyword {
	fields := strings.FieldsFunc(text, func(r rune) bool {
		return r == ',' || r == ';' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
	})
	var all, kept []keyword
	for _, f := range fields {
		ws := words(f)
		if len(ws) == 0 {
			continue
		}
		k := keyword{compact: compact(strings.ToLower(f)), stems: make([]string, len(ws))}
		stop := true
		for i, w := range ws {
			k.stems[i] = stem(w)
			stop = stop && stopWords[w]
		}
		if slices.ContainsFunc(all, func(o keyword) bool { return slices.Equal(o.stems, k.stems) }) {
			continue
		}
		all = append(all, k)
		if !stop {
			kept = append(kept, k)
		}
	}
	if len(kept) == 0 {
		kept = all
	}
	return kept[:min(len(kept), maxKeywords)]
}

// matches holds one keyword's matches: per tool, the strongest.
type matches []int32

func (m matches) set(i int32, v int32) { m[i] = max(m[i], v) }

func (m matches) setAll(ids []int32, v int32) {
	for _, i := range ids {
		m.set(i, v)
	}
}

// match records how strongly k matches each tool.
func (x *Index) match(k keyword, m matches) {
	first := k.stems[0]
	if len(k.stems) == 1 {
		m.setAll(x.name[first], byNameWord)
		m.setAll(x.hint[first], byHint)
		m.setAll(x.desc[first], byDesc)
		if len(first) >= 3 {
			x.prefixes(x.hintVocab, x.hint, first, func(ids []int32) { m.setAll(ids, byHintPrefix) })
			x.prefixes(x.descVocab, x.desc, first, func(ids []int32) { m.setAll(ids, byDescPrefix) })
		}
		for _, syn := range x.synonyms[first] {
			m.setAll(x.name[syn], bySynonym)
			m.setAll(x.hint[syn], bySynonym)
			m.setAll(x.desc[syn], bySynonym)
		}
	} else {
		for _, i := range x.name[first] {
			switch words := x.entries[i].words; {
			case run(words, k.stems):
				m.set(i, byNameWord)
			case containsAll(words, k.stems):
				m.set(i, byNamePart) // issue_list for list_issues
			}
		}
		m.setAll(allOf(x.hint, k.stems), byHint)
		m.setAll(allOf(x.desc, k.stems), byDesc)
	}
	if len(k.compact) >= 3 {
		x.substrings(k.compact, func(i int32) { m.set(i, byNamePart) })
	}
}

// prefixes calls f with the postings of every stem in vocab that starts
// with p (other than p itself).
func (x *Index) prefixes(vocab []string, p postings, prefix string, f func([]int32)) {
	for j := sort.SearchStrings(vocab, prefix); j < len(vocab) && strings.HasPrefix(vocab[j], prefix); j++ {
		if vocab[j] != prefix {
			f(p[vocab[j]])
		}
	}
}

// substrings calls f once for each tool whose compact name contains sub.
func (x *Index) substrings(sub string, f func(int32)) {
	for pos := 0; ; {
		j := strings.Index(x.names[pos:], sub)
		if j < 0 {
			return
		}
		off := pos + j
		i := sort.SearchInts(x.starts, off+1) - 1
		f(int32(i))
		if i+1 >= len(x.starts) {
			return
		}
		pos = x.starts[i+1]
	}
}

// run reports whether seq holds sub as a contiguous run.
func run(seq, sub []string) bool {
	for i := 0; i+len(sub) <= len(seq); i++ {
		if slices.Equal(seq[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

func containsAll(seq, sub []string) bool {
	for _, w := range sub {
		if !slices.Contains(seq, w) {
			return false
		}
	}
	return true
}

// allOf returns the tools whose postings hold every stem.
func allOf(p postings, stems []string) []int32 {
	var out []int32
	for _, i := range p[stems[0]] {
		ok := true
		for _, s := range stems[1:] {
			if _, found := slices.BinarySearch(p[s], i); !found {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// compare orders two hits, better first: the exact name; more keywords
// matched; stronger matches (the tiers). Within a tier MCP comes before
// builtin; then the tool whose own name the query covers better comes
// first (list_issues before list_issue_comments for "list issues": the
// nearest thing to an exact name), and last the name decides.
func (s *scores) compare(a, b int32) int {
	switch {
	case a == s.exact || b == s.exact:
		if a == s.exact {
			return -1
		}
		return 1
	case s.count[a] != s.count[b]:
		return int(s.count[b] - s.count[a])
	case s.sum[a] != s.sum[b]:
		return int(s.sum[b] - s.sum[a])
	}
	ea, eb := &s.x.entries[a], &s.x.entries[b]
	if ea.mcp != eb.mcp {
		return s.x.compareTie(a, b)
	}
	if ua, ub := s.left(a), s.left(b); ua != ub {
		return int(ua) - int(ub)
	}
	return s.x.compareTie(a, b)
}

// left counts the words of tool i's own name (stop words aside) that no
// keyword matched, directly or as a synonym.
func (s *scores) left(i int32) int8 {
	if s.uncovered == nil {
		s.uncovered = make([]int8, len(s.sum))
		for j := range s.uncovered {
			s.uncovered[j] = -1
		}
	}
	if s.uncovered[i] < 0 {
		n := 0
		for _, w := range s.x.entries[i].part {
			if !slices.Contains(s.stems, w) {
				n++
			}
		}
		s.uncovered[i] = int8(min(n, 127))
	}
	return s.uncovered[i]
}

// top returns the best k hits in order, without sorting all of them.
func (s *scores) top(k int) []int32 {
	out := make([]int32, 0, k+1)
	for _, h := range s.hits {
		if len(out) == k && s.compare(h, out[k-1]) >= 0 {
			continue
		}
		at, _ := slices.BinarySearchFunc(out, h, s.compare)
		out = slices.Insert(out, at, h)
		if len(out) > k {
			out = out[:k]
		}
	}
	return out
}
