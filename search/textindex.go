package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Reading a tool's texts (its search hint, its description, its input
// schema's names and descriptions) is most of building an index: some
// 930,000 words for 10,000 real tools. Each word is split as splitRaw
// splits it, but for text whose letters and digits are ASCII (nearly all
// of it) by a loop that hashes the word as it reads it and calls nothing
// per byte; the word is then looked up as written in the analyzer's
// wordTable, where it was read (lowercased, stemmed, its posting found)
// the first time it was seen.
// Real descriptions repeat a few thousand words, so almost every word
// costs a hash, a probe and a comparison.

// wordTable maps a word as written to what it posts: open addressing,
// probed linearly, keyed by wordHash. A word of at most 8 bytes is its
// hash, so that most words are told apart without comparing their bytes.
type wordTable struct {
	slots []wordSlot // a power of two; an empty raw is a free slot
	used  int
	shift uint8 // 64 - log2(len(slots))
}

// wordSlot is one word as written and what reading it gave: its stem's
// posting (nil for a stop word), whether it is plain (see post.plain) and
// whether it is a noticeWord.
type wordSlot struct {
	hash   uint64
	raw    string
	t      text
	notice bool
}

// wordTableBits is the table's first size: enough for one server's words;
// it doubles as it fills.
const wordTableBits = 9

// chars is what texts are read from: strings, and the bytes of an input
// schema, read in place.
type chars interface{ ~string | ~[]byte }

// wordHash is the hash scanPart computes as it reads a word: its last 8
// bytes, which are the word when it is no longer (no word has a NUL).
func wordHash[T chars](s T) uint64 {
	var h uint64
	for i := 0; i < len(s); i++ {
		h = h<<8 | uint64(s[i])
	}
	return h
}

// sameWord reports whether slot s holds word raw of hash h.
func sameWord[T chars](s *wordSlot, raw T, h uint64) bool {
	return s.hash == h && len(s.raw) == len(raw) && (len(raw) <= 8 || s.raw == string(raw))
}

// slotOf is where a word of hash h and length n is first looked for.
func (wt *wordTable) slotOf(h uint64, n int) uint64 {
	return ((h ^ uint64(n)<<56) * 0x9E3779B97F4A7C15) >> wt.shift
}

// find returns the slot of word raw as written, with hash h, or the free
// slot where it would be: small, so that it is inlined where each word is
// posted.
func find[T chars](wt *wordTable, raw T, h uint64) *wordSlot {
	for i := wt.slotOf(h, len(raw)); ; i = (i + 1) & uint64(len(wt.slots)-1) {
		if s := &wt.slots[i]; s.raw == "" || sameWord(s, raw, h) {
			return s
		}
	}
}

// word returns the slot of word raw as written, with hash h and a capital
// if upper, reading it on its first sight (a word read in place in a
// schema is copied then).
func word[T chars](az *analyzer, raw T, h uint64, upper bool) *wordSlot {
	wt := &az.words
	mask := uint64(len(wt.slots) - 1)
	for i := wt.slotOf(h, len(raw)); ; i = (i + 1) & mask {
		s := &wt.slots[i]
		if s.raw == "" {
			if 4*(wt.used+1) > 3*len(wt.slots) {
				wt.resize(64 - int(wt.shift) + 1)
				return word(az, raw, h, upper)
			}
			wt.used++
			r := string(raw)
			*s = wordSlot{hash: h, raw: r, t: az.read(r, upper), notice: noticeWord(r)}
			return s
		}
		if sameWord(s, raw, h) {
			return s
		}
	}
}

// read is what word raw as written posts: nothing for a stop word (in a
// hint or a description it would post nearly every tool), else its stem.
func (az *analyzer) read(raw string, upper bool) text {
	word := raw
	if upper {
		word = strings.ToLower(raw)
	}
	if isStop(word) {
		return text{}
	}
	lp := az.posting(stem(word))
	return text{lp: lp, plain: !foldsE(word), tok: descToken(lp.n, formIn(&lp.forms, word))}
}

// resize makes the table 1<<bits slots, its words moved over.
func (wt *wordTable) resize(bits int) {
	old := wt.slots
	wt.slots, wt.shift = make([]wordSlot, 1<<bits), uint8(64-bits)
	mask := uint64(len(wt.slots) - 1)
	for _, s := range old {
		if s.raw == "" {
			continue
		}
		i := wt.slotOf(s.hash, len(s.raw))
		for wt.slots[i].raw != "" {
			i = (i + 1) & mask
		}
		wt.slots[i] = s
	}
}

// textWords counts a description's words (camelCase's whole runs aside)
// and notes whether one is a notice word that may be part of a notice
// (noticeFits), in text whose letters and digits are ASCII, where the
// deprecation notice's expression may match: every notice the expression
// reads is a run of its own, in that text. In other text it notes any
// noticeWord of the words. at is where the first such run begins (0 in
// other text).
type textWords struct {
	n      int
	notice bool
	at     int
}

// noticeAt notes that the run at start, a notice word followed by rest,
// may be part of a notice if noticeFits says so.
func noticeAt[T chars](tw *textWords, start int, raw, rest T) {
	if !tw.notice && noticeFits(string(raw), string(rest)) {
		tw.notice, tw.at = true, start
	}
}

// postWord posts word raw of tool id in field f.
func postWord[T chars](az *analyzer, raw T, h uint64, upper bool, id int32, f int) *wordSlot {
	s := find(&az.words, raw, h)
	if s.raw == "" {
		s = word(az, raw, h, upper)
	}
	if lp := s.t.lp; lp != nil {
		lp.put(id, f)
		if s.t.plain {
			lp.putPlain(id)
		}
	}
	return s
}

// postPart posts text[start:end], a word of a camelCase run or a run of
// its own, and counts it; rest, the text after it, tells whether a notice
// word may begin or end a deprecation notice.
func postPart[T chars](az *analyzer, text T, start, end int, h uint64, upper bool, id int32, f int, tw *textWords) {
	s := postWord(az, text[start:end], h, upper, id, f)
	az.token(s, f)
	tw.n++
	if s.notice {
		noticeAt(tw, start, text[start:end], text[end:])
	}
}

// token notes word s of a description (field f) among the analyzer's
// descTokens, but for a stop word.
func (az *analyzer) token(s *wordSlot, f int) {
	if f == fDesc && s.t.lp != nil {
		az.tokens = append(az.tokens, s.t.tok)
	}
}

// postText posts the words of text for tool id in field f, as splitRaw
// splits them, and counts them.
func postText[T chars](az *analyzer, text T, id int32, f int) textWords {
	var tw textWords
	tokens := len(az.tokens)
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c >= utf8.RuneSelf:
			size := separator(text[i:])
			if size == 0 {
				az.tokens = az.tokens[:tokens]
				return az.postSlow(string(text), id, f)
			}
			i += size
		case asciiClass[c]&(classLetter|classDigit) == 0:
			i++
		default:
			if i = postRun(az, text, i, id, f, &tw); i < 0 {
				az.tokens = az.tokens[:tokens]
				return az.postSlow(string(text), id, f)
			}
		}
	}
	return tw
}

// separator is the length of the character text begins with, past
// ASCII, when it is neither a letter nor a digit (a dash, a quote, an
// emoji), and 0 when it is one.
func separator[T chars](text T) int {
	r, size := utf8.DecodeRuneInString(string(text[:min(len(text), utf8.UTFMax)]))
	if runeClass(r)&(classLetter|classDigit) != 0 {
		return 0
	}
	return size
}

// postSlow is postText for text with letters or digits past ASCII. The
// words posted before postText met one are posted again, which changes
// nothing: a tool is posted once per stem and field.
func (az *analyzer) postSlow(text string, id int32, f int) textWords {
	var tw textWords
	splitRaw(text, func(raw string, upper, whole bool) {
		s := postWord(az, raw, wordHash(raw), upper, id, f)
		if !whole {
			az.token(s, f)
			tw.n++
			tw.notice = tw.notice || s.notice
		}
	})
	return tw
}

// postRun posts the run of ASCII letters and digits of text at run, split
// at its camelCase boundaries as splitRaw splits it, and returns where it
// ends; -1 when it meets a letter or digit past ASCII (before posting a
// word splitRaw would not: a boundary decided without the next character
// is one splitRaw makes too).
func postRun[T chars](az *analyzer, text T, run int, id int32, f int, tw *textWords) int {
	start, runUpper := run, false
	for {
		end, h, upper := scanPart(text, start)
		if end < len(text) && text[end] >= utf8.RuneSelf && separator(text[end:]) == 0 {
			return -1
		}
		postPart(az, text, start, end, h, upper, id, f, tw)
		runUpper = runUpper || upper
		if end == len(text) || text[end] < 'A' || text[end] > 'Z' {
			if start > run {
				// A notice written in mixed case ([LegACY]) is such a run.
				if s := postWord(az, text[run:end], wordHash(text[run:end]), runUpper, id, f); s.notice {
					noticeAt(tw, run, text[run:end], text[end:])
				}
			}
			return end
		}
		start = end
	}
}

// scanPart reads the word of a run that begins at i: up to a byte that is
// no ASCII letter or digit, or to a capital that begins the next word
// (camelBreak). It returns where the word ends, its wordHash and whether
// it has a capital. It calls nothing per byte, so that it runs in
// registers.
func scanPart[T chars](text T, i int) (end int, h uint64, upper bool) {
	c := text[i]
	h, upper = uint64(c), 'A' <= c && c <= 'Z'
	for i++; i < len(text); i++ {
		c = text[i]
		switch {
		case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
		case 'A' <= c && c <= 'Z':
			if camelBreak(text, i) {
				return i, h, upper
			}
			upper = true
		default:
			return i, h, upper
		}
		h = h<<8 | uint64(c)
	}
	return i, h, upper
}

// camelBreak reports whether the ASCII capital at i of text, after a
// letter or digit, begins a word: after a lowercase letter or a digit
// (listIssues, 2FA), or as the last capital of an acronym (HTTPServer).
func camelBreak[T chars](text T, i int) bool {
	prev := text[i-1]
	if 'a' <= prev && prev <= 'z' || '0' <= prev && prev <= '9' {
		return true
	}
	return 'A' <= prev && prev <= 'Z' && i+1 < len(text) && 'a' <= text[i+1] && text[i+1] <= 'z'
}

// noticeFits reports whether notice word raw, followed by rest in its
// description, may be part of a notice as deprecationNotice reads one:
// instead ends a sentence, deprecated, obsolete or legacy is a label
// (Deprecated:, [Legacy]) or, but for legacy, a word of its own (is
// obsolete). Most descriptions with such a word say neither (use X
// instead of Y, legacy reports), and the expression is spared them.
func noticeFits(raw, rest string) bool {
	trimmed := strings.TrimLeftFunc(rest, unicode.IsSpace)
	first, _ := utf8.DecodeRuneInString(trimmed)
	switch len(raw) {
	case 6:
		return strings.ContainsRune("]):.-—", first)
	case 7:
		return trimmed == "" || first == '.'
	}
	return (len(raw) == 8 || strings.EqualFold(raw, "deprecated")) && (rest == "" || !isWordByte(rest[0]))
}

// deprecatedFrom is deprecated(description) for a description whose
// notices, if any, are at or after byte at, where a notice word begins
// (noticeFits). A notice is words, white space and a few marks
// (noticeByte), so the expression reads only from the last other byte
// before at (a comma, a quote...): a clause, not the whole text. The
// expression reads that byte, neither a word nor a mark it looks for,
// as it would read a NUL.
func deprecatedFrom(description string, at int) bool {
	from := at
	for from > 0 && noticeByte(description[from-1]) {
		from--
	}
	if from == 0 {
		return deprecated(description)
	}
	return deprecationNotice.MatchString("\x00" + strings.TrimRightFunc(description[from:], unicode.IsSpace))
}

// noticeByte reports whether c may be in a deprecation notice before its
// notice word: letters, digits, white space and the marks
// deprecationNotice reads there.
func noticeByte(c byte) bool {
	return isWordByte(c) || strings.IndexByte(" \t\n\f\r.-`!:;[(", c) >= 0
}

// isWordByte reports whether c is a word character as \b reads it.
func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}
