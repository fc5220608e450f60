package search

import (
	"strings"
	"unicode/utf8"
)

// Reading a tool's texts (its search hint, its description, its input
// schema's names and descriptions) is most of building an index: some
// 930,000 words for 10,000 real tools. Each word is split as splitRaw
// splits it, but for ASCII text (nearly all of it) by a loop that hashes
// the word as it reads it and calls nothing per byte; the word is then
// looked up as written in the analyzer's wordTable, where it was read
// (lowercased, stemmed, its posting found) the first time it was seen.
// Real descriptions repeat a few thousand words, so almost every word
// costs a hash, a probe and a comparison.

// wordTable maps a word as written to what it posts: open addressing,
// probed linearly, keyed by wordHash.
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

// wordHash is the hash postRun computes as it reads a word.
func wordHash(s string) uint64 {
	var h uint64
	for i := 0; i < len(s); i++ {
		h = h*31 + uint64(s[i])
	}
	return h
}

// word returns the slot of word raw as written, with hash h and a capital
// if upper, reading it on its first sight.
func (az *analyzer) word(raw string, h uint64, upper bool) *wordSlot {
	wt := &az.words
	if wt.slots == nil {
		wt.resize(wordTableBits)
	}
	mask := uint64(len(wt.slots) - 1)
	for i := (h * 0x9E3779B97F4A7C15) >> wt.shift; ; i = (i + 1) & mask {
		s := &wt.slots[i]
		if s.raw == "" {
			if 4*(wt.used+1) > 3*len(wt.slots) {
				wt.resize(64 - int(wt.shift) + 1)
				return az.word(raw, h, upper)
			}
			wt.used++
			*s = wordSlot{hash: h, raw: raw, t: az.read(raw, upper), notice: noticeWord(raw)}
			return s
		}
		if s.hash == h && s.raw == raw {
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
	return text{lp: az.posting(stem(word)), plain: !foldsE(word)}
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
		i := (s.hash * 0x9E3779B97F4A7C15) >> wt.shift
		for wt.slots[i].raw != "" {
			i = (i + 1) & mask
		}
		wt.slots[i] = s
	}
}

// textWords counts a description's words (camelCase's whole runs aside)
// and notes whether one is a notice word that may be part of a notice
// (noticeFits), in ASCII text where the deprecation notice's expression
// may match: every notice the expression reads is a run of its own, in
// that text. In other text it notes any noticeWord of the words.
type textWords struct {
	n      int
	notice bool
}

// post posts word raw of tool id in field f.
func (az *analyzer) post(raw string, h uint64, upper bool, id int32, f int) *wordSlot {
	s := az.word(raw, h, upper)
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
func (az *analyzer) postPart(text string, start, end int, h uint64, upper bool, id int32, f int, tw *textWords) {
	s := az.post(text[start:end], h, upper, id, f)
	tw.n++
	if s.notice && !tw.notice {
		tw.notice = noticeFits(text[start:end], text[end:])
	}
}

// postText posts the words of text for tool id in field f, as splitRaw
// splits them, and counts them.
func (az *analyzer) postText(text string, id int32, f int) textWords {
	var tw textWords
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c >= utf8.RuneSelf:
			return az.postSlow(text, id, f)
		case asciiClass[c]&(classLetter|classDigit) == 0:
			i++
		default:
			if i = az.postRun(text, i, id, f, &tw); i < 0 {
				return az.postSlow(text, id, f)
			}
		}
	}
	return tw
}

// postSlow is postText for text that is not all ASCII. The words posted
// before postText met a byte past ASCII are posted again, which changes
// nothing: a tool is posted once per stem and field.
func (az *analyzer) postSlow(text string, id int32, f int) textWords {
	var tw textWords
	splitRaw(text, func(raw string, upper, whole bool) {
		s := az.post(raw, wordHash(raw), upper, id, f)
		if !whole {
			tw.n++
			tw.notice = tw.notice || s.notice
		}
	})
	return tw
}

// postRun posts the run of letters and digits of ASCII text at run, split
// at its camelCase boundaries as splitRaw splits it, and returns where it
// ends; -1 when it meets a byte past ASCII (before posting a word splitRaw
// would not: a boundary decided without the next byte is one splitRaw
// makes too).
func (az *analyzer) postRun(text string, run int, id int32, f int, tw *textWords) int {
	start, parts, i := run, 0, run
	var h uint64
	upper, runUpper := false, false
	for ; i < len(text); i++ {
		c := text[i]
		if c >= utf8.RuneSelf {
			return -1
		}
		class := asciiClass[c]
		if class&(classLetter|classDigit) == 0 {
			break
		}
		if class&classUpper != 0 {
			if i > run && camelBreak(text, i) {
				az.postPart(text, start, i, h, upper, id, f, tw)
				start, h, upper = i, 0, false
				parts++
			}
			upper, runUpper = true, true
		}
		h = h*31 + uint64(c)
	}
	az.postPart(text, start, i, h, upper, id, f, tw)
	if parts > 0 {
		// A notice written in mixed case ([LegACY]) is such a run.
		if s := az.post(text[run:i], wordHash(text[run:i]), runUpper, id, f); s.notice && !tw.notice {
			tw.notice = noticeFits(text[run:i], text[i:])
		}
	}
	return i
}

// camelBreak reports whether the capital at i of ASCII text, after a
// letter or digit, begins a word: after a lowercase letter or a digit
// (listIssues, 2FA), or as the last capital of an acronym (HTTPServer).
func camelBreak(text string, i int) bool {
	prev := text[i-1]
	if 'a' <= prev && prev <= 'z' || '0' <= prev && prev <= '9' {
		return true
	}
	return 'A' <= prev && prev <= 'Z' && i+1 < len(text) && 'a' <= text[i+1] && text[i+1] <= 'z'
}
