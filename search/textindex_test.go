package search

import (
	"reflect"
	"slices"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/execlua/execlua/internal/realpool"
	"github.com/execlua/execlua/pool"
)

// textSeeds are texts whose splitting has edge cases: camelCase runs,
// acronyms, digits, non-ASCII letters early, late and next to a capital,
// stop words, notice words in and out of a notice.
var textSeeds = []string{
	"", " ", "listIssues HTTPServer JavaScript GitHub 2FA utf8 v2Beta ABc aB A",
	"Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.",
	"use X instead of Y; legacy reports; [Legacy] (obsolete) isDeprecated DeprecatedTool insteadOf",
	"Crée un fichier — déjà vu ÉtéCafé ABé aÉb naïve", "café", "ÀB", "AÀb", "xÀ", "HTTPé",
	"snake_case kebab-case dotted.name path/to/file.md 'quoted' \"double\" #channel r/sub",
	"Sends a message. Use post_message instead\u00a0", "Legacy\u3000: old", "obsolete_x obsolete",
	"[LegACY] old", "It is DepreCated now", "Use send inStead.", "This is deprecatedé", "legacy 0 [LegACY]0",
	"Lists rows, and more. Use list_v2 instead.", "Lists rows, use the `list_v2` tool instead  ", "a,[deprecated] b",
	"a, b. Deprecated: c", "x,(obsolete) y", "x, it is now obsolete.", "Sends, Use x.y-z instead", "é. Use x instead.",
	"Reads rows — use read_v2 instead.", "“Legacy”: old", "Deprecated—use x", "AB—c", "x\u2003is obsolete", "ABé—",
}

// postings is what an analyzer posted: per stem, its tools by field and
// its plain count.
func postings(az *analyzer) map[string]local {
	out := map[string]local{}
	for s, lp := range az.posts {
		if lp.df > 0 {
			out[s] = local{df: lp.df, plain: lp.plain, f: lp.f}
		}
	}
	return out
}

// checkPostText checks that postText posts and counts text as splitRaw
// splits it (postSlow), and notes a notice word wherever the expression
// matches in text whose letters and digits are ASCII, as postSlow does in
// other text.
func checkPostText(t *testing.T, text string) {
	t.Helper()
	var fast, inPlace, slow analyzer
	fast.init()
	inPlace.init()
	slow.init()
	got, want := postText(&fast, text, 3, fDesc), slow.postSlow(text, 3, fDesc)
	if !asciiWords(text) && got.notice != want.notice || got.n != want.n || deprecated(text) && asciiWords(text) && !got.notice {
		t.Errorf("%q: postText counts %+v, splitRaw %+v (deprecated %v)", text, got, want, deprecated(text))
	}
	// Read in place, as a schema's texts are, it posts the same.
	if b := postText(&inPlace, []byte(text), 3, fDesc); b != got {
		t.Errorf("%q: postText counts %+v in place, %+v as a string", text, b, got)
	}
	w := postings(&slow)
	// The words the phrase signal reads are splitRaw's, numbered.
	for _, az := range []*analyzer{&fast, &inPlace, &slow} {
		if got, want := localTokens(az), phraseReading(text); !slices.Equal(got, want) {
			t.Errorf("%q: descTokens read %q, splitRaw %q", text, got, want)
		}
	}
	for _, az := range []*analyzer{&fast, &inPlace} {
		g := postings(az)
		if len(g) != len(w) {
			t.Errorf("%q: postText posts %d stems, splitRaw %d", text, len(g), len(w))
		}
		for s, lp := range w {
			if gl, ok := g[s]; !ok || gl.df != lp.df || gl.plain != lp.plain || !reflect.DeepEqual(gl.f, lp.f) {
				t.Errorf("%q: stem %q posted as %+v, want %+v", text, s, g[s], lp)
			}
		}
	}
}

// phraseReading is text as the phrase signal reads it, splitRaw's words
// but stop words and camelCase's whole runs: each as its stem and the
// word, lowercase.
func phraseReading(text string) []string {
	out := []string{}
	splitWords(text, func(w string, whole bool) {
		if !whole && !isStop(w) {
			out = append(out, stem(w)+"/"+w)
		}
	})
	return out
}

// localTokens is the descTokens of the description az read last, before
// they are merged, as phraseReading writes them.
func localTokens(az *analyzer) []string {
	out := []string{}
	for _, t := range az.tokens {
		lp := az.locals[t>>formBits]
		out = append(out, lp.stem+"/"+lp.forms[uint8(t)])
	}
	return out
}

// The fast path reads every text as splitRaw does: the seeds and every
// text of the real pool (descriptions, hints, schemas' names and
// descriptions).
func TestPostTextAsSplitRaw(t *testing.T) {
	texts := append([]string{}, textSeeds...)
	var sc scanner
	for _, tool := range realTools(t, realpool.Pool(realpool.Tools)) {
		texts = append(texts, tool.Description, tool.SearchHint)
		for _, p := range sc.schemaTexts(tool.InputSchema) {
			texts = append(texts, string(p.name), string(p.description))
		}
	}
	for _, text := range texts {
		checkPostText(t, text)
	}
}

func FuzzPostText(f *testing.F) {
	for _, s := range textSeeds {
		f.Add(s)
	}
	f.Fuzz(checkPostText)
}

// asciiWords reports whether the letters and digits of s are ASCII.
func asciiWords(s string) bool {
	for _, r := range s {
		if r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// The index marks a tool deprecated exactly when its description says so
// (the expression is run only where it may match), for a description
// whose letters and digits are ASCII, and otherwise when it also has a
// noticeWord among its words.
func FuzzIndexDeprecated(f *testing.F) {
	for _, s := range textSeeds {
		f.Add(s)
	}
	f.Add("Lists widgets. It has been obsolete since v3.")
	f.Add("Sends a message. Use the `post_message` tool instead")
	f.Fuzz(func(t *testing.T, desc string) {
		x := NewIndex([]pool.Tool{mcpTool("s", "t", desc)})
		want := deprecated(desc)
		if !asciiWords(desc) {
			notice := false
			splitRaw(desc, func(raw string, _, whole bool) { notice = notice || !whole && noticeWord(raw) })
			want = want && notice
		}
		if got := x.meta(0).deprecated; got != want {
			t.Errorf("%q: deprecated %v, want %v", desc, got, want)
		}
	})
}
