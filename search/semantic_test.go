package search

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/execlua/execlua/internal/embedtest"
	"github.com/execlua/execlua/pool"
)

// paraphrasePool is a contacts server beside a notes server: the words of
// a paraphrase (stash, customer) are not the words of the tool it means
// (archive_contact).
func paraphrasePool() []pool.Tool {
	return []pool.Tool{
		mcpTool("crm", "archive_contact", "Move a contact to the archive: it no longer shows in lists."),
		mcpTool("crm", "delete_contact", "Delete a contact for good."),
		mcpTool("crm", "list_contacts", "List contacts, newest first."),
		mcpTool("crm", "update_contact", "Change a contact's name, email or phone."),
		mcpTool("notes", "stash_note", "Keep a note aside for later."),
		mcpTool("notes", "list_notes", "List the notes kept."),
		builtinTool("Read", "Read a file from disk."),
	}
}

// semSearch searches x through sem, failing the test on an error.
func semSearch(t *testing.T, sem *Semantic, x *Index, args string) Result {
	t.Helper()
	res, err := sem.Search(context.Background(), x, json.RawMessage(args))
	if err != nil {
		t.Fatalf("Search(%s): %v", args, err)
	}
	return res
}

// The stand-in knows that stash and on ice mean archive and that a
// customer is a contact; the lexicon does not. Fusion moves the tool the
// paraphrase means up, by as much as the two rankings agree.
func TestSemanticParaphrase(t *testing.T) {
	x := NewIndex(paraphrasePool())
	sem := NewSemantic(embedtest.New(1024, nil), nil)
	for _, c := range []struct {
		query, lexFirst string
		want            []string // the fused ranking's first tools
	}{
		// Lexically second: both rankings together put it first.
		{"stash the customer in the archive", "mcp__notes__stash_note", []string{"mcp__crm__archive_contact", "mcp__notes__stash_note"}},
		// Lexically missed: it comes in, second to the lexical first
		// (ties go to the lexical ranking).
		{"stash the customer", "mcp__notes__stash_note", []string{"mcp__notes__stash_note", "mcp__crm__archive_contact"}},
		// Nothing lexical: the semantic ranking alone.
		{"customer on ice", "", []string{"mcp__crm__archive_contact"}},
	} {
		lex := doSearch(t, paraphrasePool(), q(c.query))
		if got := names(lex); c.lexFirst == "" && len(got) != 0 || c.lexFirst != "" && (len(got) == 0 || got[0] != c.lexFirst) {
			t.Fatalf("%q: lexically %v, want %q first: the case tests nothing", c.query, got, c.lexFirst)
		}
		if slices.Contains(names(lex), "mcp__crm__archive_contact") && c.want[0] != "mcp__crm__archive_contact" {
			t.Fatalf("%q: lexically %v already finds archive_contact", c.query, names(lex))
		}
		res := semSearch(t, sem, x, q(c.query))
		if got := names(res); len(got) < len(c.want) || !slices.Equal(got[:len(c.want)], c.want) {
			t.Errorf("%q: fused %v, want %v first", c.query, got, c.want)
		}
		if res.Fallback != nil || res.Total < lex.Total || res.Total > x.Len() {
			t.Errorf("%q: total %d (lexical %d, pool %d), fallback %v", c.query, res.Total, lex.Total, x.Len(), res.Fallback)
		}
	}
}

// SRCH-3, SRCH-4, SRCH-5, SRCH-6, SRCH-7, SRCH-8 hold with a Semantic set,
// even when the embedder disagrees with the contract: exact names stay
// first, select: and the empty query are untouched, and for a single
// keyword the tiers order the lexical hits, the semantic ranking adding
// only after them.
func TestSemanticKeepsContract(t *testing.T) {
	// An adversary: every description word means widget, update means
	// archive, and fetch means nothing the pool has.
	adversary := map[string]string{"unrelated": "widget", "update": "archive", "fetch": "zzz", "read": "widget"}
	sem := NewSemantic(embedtest.New(1024, adversary), nil)
	x := NewIndex(append(exactPool(),
		mcpTool("crm", "archive_contact", "Move a contact to the archive."),
		mcpTool("crm", "update_contact", "Change a contact.")))
	wantFirstBy(t, func(args string) Result { return semSearch(t, sem, x, args) }, map[string]string{
		"mcp__srv__fetch":        "mcp__srv__fetch",
		"tools.mcp__srv__fetch":  "mcp__srv__fetch",
		"read":                   "Read",
		"update_contact":         "mcp__crm__update_contact",
		"update_contact archive": "mcp__crm__update_contact",
	})
	tiers := append(tierPool(), mcpTool("u", "gadget", "Unrelated.")) // no lexical hit; semantically a widget
	var many []pool.Tool
	for i := range 60 {
		many = append(many, mcpTool("s", "widget_"+string(rune('a'+i/26))+string(rune('a'+i%26)), ""))
	}
	for _, c := range []struct {
		tools []pool.Tool
		args  string
		more  []string // what the semantic ranking adds after the lexical result
	}{
		{tiers, `{"query":"widget","max_results":50}`, []string{"mcp__s__zzz", "mcp__u__gadget"}},
		{tiers, `{"query":"select:mcp__u__gadget, widget,nope","max_results":1}`, nil},
		{tiers, `{"query":"  "}`, nil},
		{many, `{"query":"widget","max_results":12}`, nil},
		{hintPool(), q("teleport"), nil},
	} {
		lex := doSearch(t, c.tools, c.args)
		res := semSearch(t, sem, NewIndex(c.tools), c.args)
		want := append(names(lex), c.more...)
		if diff := cmp.Diff(want, names(res)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.args, diff)
		}
		if res.Total != lex.Total+len(c.more) {
			t.Errorf("%s: total %d, want %d", c.args, res.Total, lex.Total+len(c.more))
		}
	}
}

// Tool vectors are kept by text: a search embeds its query and the texts
// no earlier Index version had, whichever version asks; a server joining
// costs its own tools.
func TestSemanticCachesToolVectors(t *testing.T) {
	emb := embedtest.New(1024, nil)
	sem := NewSemantic(emb, &SemanticOptions{Batch: 3})
	tools := paraphrasePool()
	x := NewIndex(tools)
	seen := 0
	step := func(what string, x *Index, wantTools []pool.Tool, wantCalls int) {
		t.Helper()
		calls := emb.Calls()
		semSearch(t, sem, x, q("stash the customer"))
		texts := emb.Texts()[seen:]
		seen += len(texts)
		var want []string
		for i := range wantTools {
			want = append(want, ToolText(&wantTools[i]))
		}
		want = append(want, "stash the customer")
		if diff := cmp.Diff(want, texts, cmpSorted); diff != "" {
			t.Errorf("%s: texts embedded (-want +got):\n%s", what, diff)
		}
		if got := emb.Calls() - calls; got != wantCalls {
			t.Errorf("%s: %d Embed calls, want %d", what, got, wantCalls)
		}
	}
	step("first search", x, tools, 3+1) // 7 texts in batches of 3, and the query
	step("same pool", x, nil, 1)
	wiki := []pool.Tool{mcpTool("wiki", "find_page", "Find a page."), mcpTool("wiki", "edit_page", "Edit a page.")}
	x2 := x.WithServer("wiki", wiki)
	step("a server joins", x2, wiki, 1+1)
	x3 := x2.WithoutServer("notes")
	step("a server leaves", x3, nil, 1)
	changed := slices.Clone(tools)
	changed[1].Description = "Delete a contact and its history for good."
	x4 := x3.Update(changed)
	step("one description changes", x4, changed[1:2], 1+1)
	step("an earlier version", x, nil, 1)
	step("a new index of known tools", NewIndex(append(tools, wiki...)), nil, 1)
}

// Vectors of texts no kept version holds are dropped once they outnumber
// the held ones: a server whose descriptions keep changing does not grow
// the cache for ever, and the latest texts stay.
func TestSemanticPrunesVectors(t *testing.T) {
	emb := embedtest.New(64, nil)
	sem := NewSemantic(emb, nil)
	var x *Index
	for i := range 1500 {
		x = NewIndex([]pool.Tool{mcpTool("s", "tool", "Version "+strconv.Itoa(i)+".")})
		if err := sem.Prepare(context.Background(), x); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(sem.vecs); n > 2*maxTables+1024+1 {
		t.Errorf("%d vectors kept after 1,500 versions of one tool, want at most %d", n, 2*maxTables+1024+1)
	}
	calls := emb.Calls()
	if err := sem.Prepare(context.Background(), x); err != nil || emb.Calls() != calls {
		t.Errorf("the latest version's vector was dropped: Prepare = %v, %d more calls", err, emb.Calls()-calls)
	}
}

var cmpSorted = cmp.Transformer("sorted", func(s []string) []string { return slices.Sorted(slices.Values(s)) })

// failing is an embedder that fails or returns something unusable.
type failing struct {
	out [][]float32
	err error
}

func (f failing) Embed(_ context.Context, texts []string) ([][]float32, error) { return f.out, f.err }

// An embedder that fails, panics, or returns the wrong number of vectors,
// vectors of two dimensions or a NaN, leaves the lexical ranking, with
// the reason in Result.Fallback and told to OnFallback; the search itself
// succeeds. The next search, within the Cooldown, does not call it.
func TestSemanticFallback(t *testing.T) {
	x := NewIndex(paraphrasePool())
	boom := errors.New("boom")
	nan := float32(math.NaN())
	for name, emb := range map[string]EmbedderFunc{
		"error":   failing{err: boom}.Embed,
		"too few": failing{out: [][]float32{{1}}}.Embed,
		"empty": func(_ context.Context, texts []string) ([][]float32, error) {
			return make([][]float32, len(texts)), nil
		},
		"not finite": func(_ context.Context, texts []string) ([][]float32, error) {
			return fill(len(texts), []float32{nan, 1}), nil
		},
		"dimensions":  dims(),
		"cancels own": failing{err: context.Canceled}.Embed,
		"panics":      func(context.Context, []string) ([][]float32, error) { panic("out of memory") },
	} {
		var told []error
		calls := 0
		counted := EmbedderFunc(func(ctx context.Context, texts []string) ([][]float32, error) {
			calls++
			return emb(ctx, texts)
		})
		sem := NewSemantic(counted, &SemanticOptions{OnFallback: func(err error) { told = append(told, err) }})
		for i, query := range []string{"stash the customer in the archive", "stash the customer"} {
			before := calls
			res := semSearch(t, sem, x, q(query))
			lex := doSearch(t, paraphrasePool(), q(query))
			if diff := cmp.Diff(names(lex), names(res)); diff != "" || res.Total != lex.Total {
				t.Errorf("%s: %q (-lexical +got):\n%s", name, query, diff)
			}
			var ee *EmbedError
			if !errors.As(res.Fallback, &ee) || !errors.Is(res.Fallback, ErrEmbed) || ee.Skipped != (i == 1) {
				t.Errorf("%s: search %d: Fallback = %v, want an ErrEmbed, skipped for the second", name, i, res.Fallback)
			}
			if name == "error" && !errors.Is(res.Fallback, boom) {
				t.Errorf("%s: Fallback = %v, want the embedder's error inside", name, res.Fallback)
			}
			if i == 1 && calls != before {
				t.Errorf("%s: a search within the cooldown called the embedder", name)
			}
		}
		if len(told) != 1 || !errors.Is(told[0], ErrEmbed) {
			t.Errorf("%s: OnFallback told %v, want one ErrEmbed", name, told)
		}
	}
}

// After the Cooldown, or at once with a negative one, searches call the
// embedder again; Prepare calls it during the Cooldown and ends it.
func TestSemanticCooldown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		x := NewIndex(paraphrasePool())
		down := true
		calls := 0
		stand := embedtest.New(1024, nil)
		emb := EmbedderFunc(func(ctx context.Context, texts []string) ([][]float32, error) {
			calls++
			if down {
				return nil, errors.New("down")
			}
			return stand.Embed(ctx, texts)
		})
		const query = "stash the customer in the archive"
		fused := func(sem *Semantic) bool { return semSearch(t, sem, x, q(query)).Fallback == nil }
		sem := NewSemantic(emb, nil)
		fused(sem)
		down = false
		time.Sleep(DefaultCooldown - time.Second)
		if fused(sem) || calls != 1 {
			t.Errorf("within the cooldown: fused, or %d calls; want lexical and the one call", calls)
		}
		time.Sleep(time.Second)
		if !fused(sem) {
			t.Error("after the cooldown the search is still lexical")
		}

		down, calls = true, 0
		eager := NewSemantic(emb, &SemanticOptions{Cooldown: -1})
		fused(eager)
		down = false
		if !fused(eager) || calls != 3 {
			t.Errorf("with no cooldown: lexical, or %d calls (want the failed one, the tools, the query)", calls)
		}

		down = true
		again := NewSemantic(emb, nil)
		fused(again)
		down = false
		if err := again.Prepare(context.Background(), x); err != nil || !fused(again) {
			t.Errorf("Prepare during the cooldown = %v, and the next search is not fused", err)
		}
	})
}

func fill(n int, v []float32) [][]float32 {
	out := make([][]float32, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// dims embeds tools in three dimensions and queries in two.
func dims() EmbedderFunc {
	return EmbedderFunc(func(_ context.Context, texts []string) ([][]float32, error) {
		if len(texts) == 1 && texts[0] == "stash the customer" || texts[0] == "stash the customer in the archive" {
			return fill(1, []float32{1, 0}), nil
		}
		return fill(len(texts), []float32{1, 0, 0}), nil
	})
}

// blocking is an embedder that waits: for ctx (honest) or for release
// (one that ignores its context). It says when a call has begun, and
// counts its calls and how many were under way at once.
type blocking struct {
	honest  bool
	begun   chan struct{}
	release chan struct{}
	inner   Embedder

	mu               sync.Mutex
	calls, now, most int
}

func (b *blocking) count() (calls, most int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.calls, b.most
}

func (b *blocking) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	b.mu.Lock()
	b.calls++
	b.now++
	b.most = max(b.most, b.now)
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		b.now--
		b.mu.Unlock()
	}()
	select {
	case b.begun <- struct{}{}:
	default:
	}
	if b.honest {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-b.release:
		}
	} else {
		<-b.release
	}
	return b.inner.Embed(ctx, texts)
}

// A slow embedder is waited for Timeout, on the fake clock, whether or
// not it honours its context; the tools are embedded by one call at a
// time (a second search waits for the first one's call, not beside it),
// and what an embedder that ignored its context returns late is kept.
func TestSemanticSlowEmbedder(t *testing.T) {
	for _, honest := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			x := NewIndex(paraphrasePool())
			b := &blocking{honest: honest, begun: make(chan struct{}, 1), release: make(chan struct{}), inner: embedtest.New(1024, nil)}
			sem := NewSemantic(b, &SemanticOptions{Timeout: 3 * time.Second})
			start := time.Now()
			search := func() {
				res := semSearch(t, sem, x, q("stash the customer in the archive"))
				if !errors.Is(res.Fallback, ErrEmbed) || !errors.Is(res.Fallback, context.DeadlineExceeded) {
					t.Errorf("honest=%v: Fallback = %v, want a timeout", honest, res.Fallback)
				}
				if got := names(res); got[0] != "mcp__notes__stash_note" {
					t.Errorf("honest=%v: got %v, want the lexical ranking", honest, got)
				}
			}
			var wg sync.WaitGroup
			wg.Go(search)
			<-b.begun
			time.Sleep(time.Second) // the second search starts a second later, on the fake clock
			wg.Go(search)
			wg.Wait()
			if waited := time.Since(start); waited != 4*time.Second {
				t.Errorf("honest=%v: the searches ended after %v of the fake clock, want 4s (each its 3s timeout)", honest, waited)
			}
			// An honest embedder gave up with the first search, so the
			// second called it in turn; the other one held on.
			wantCalls := map[bool]int{true: 2, false: 1}[honest]
			if calls, most := b.count(); calls != wantCalls || most != 1 {
				t.Errorf("honest=%v: %d Embed calls, %d at once; want %d, one at a time", honest, calls, most, wantCalls)
			}
			close(b.release)
			synctest.Wait()
			time.Sleep(DefaultCooldown) // the embedder failed: searches leave it alone meanwhile
			// Now the honest one embeds the tools and the query, the other
			// the query alone: its late vectors were kept.
			wantCalls += map[bool]int{true: 2, false: 1}[honest]
			res := semSearch(t, sem, x, q("stash the customer in the archive"))
			if calls, _ := b.count(); res.Fallback != nil || names(res)[0] != "mcp__crm__archive_contact" || calls != wantCalls {
				t.Errorf("honest=%v: after release: %v, fallback %v, %d calls (want %d)", honest, names(res), res.Fallback, calls, wantCalls)
			}
		})
	}
}

// A run cancelled while the embedder works stops waiting at once, with the
// run's cause, not a fallback: nothing is told to OnFallback.
func TestSemanticCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		x := NewIndex(paraphrasePool())
		b := &blocking{begun: make(chan struct{}, 1), release: make(chan struct{}), inner: embedtest.New(1024, nil)}
		told := 0
		sem := NewSemantic(b, &SemanticOptions{OnFallback: func(error) { told++ }})
		ctx, cancel := context.WithCancelCause(context.Background())
		stop := errors.New("the run was stopped")
		go func() {
			<-b.begun
			cancel(stop)
		}()
		start := time.Now()
		_, err := sem.Search(ctx, x, json.RawMessage(q("stash the customer")))
		if !errors.Is(err, stop) || time.Since(start) != 0 || told != 0 {
			t.Errorf("Search = %v after %v, %d fallbacks told; want the run's cause at once and none", err, time.Since(start), told)
		}
		close(b.release)
		synctest.Wait()
		if _, err := sem.Search(ctx, x, json.RawMessage(q("stash"))); !errors.Is(err, stop) {
			t.Errorf("Search under a done context = %v, want its cause", err)
		}
	})
}

// Searches at once over several Index versions, under -race: each gets
// what it gets alone, and each tool text is embedded once.
func TestSemanticConcurrent(t *testing.T) {
	emb := embedtest.New(1024, nil)
	sem := NewSemantic(emb, &SemanticOptions{Batch: 2})
	x := NewIndex(paraphrasePool())
	versions := []*Index{x, x.WithServer("wiki", []pool.Tool{mcpTool("wiki", "find_page", "Find a page.")}), x.WithoutServer("notes")}
	queries := []string{"stash the customer in the archive", "customer on ice", "list notes", "select:Read"}
	alone := NewSemantic(embedtest.New(1024, nil), nil)
	want := map[[2]int][]string{}
	for v, vx := range versions {
		for i, query := range queries {
			want[[2]int{v, i}] = names(semSearch(t, alone, vx, q(query)))
		}
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for n := range 12 {
				v, i := (g+n)%len(versions), n%len(queries)
				if got := names(semSearch(t, sem, versions[v], q(queries[i]))); !slices.Equal(got, want[[2]int{v, i}]) {
					t.Errorf("version %d, %q: got %v, want %v", v, queries[i], got, want[[2]int{v, i}])
				}
			}
		})
	}
	wg.Wait()
	counts := map[string]int{}
	for _, text := range emb.Texts() {
		counts[text]++
	}
	for text, n := range counts {
		if n > 1 && !slices.Contains(queries, text) {
			t.Errorf("tool text %q embedded %d times", text, n)
		}
	}
}

// Prepare embeds a pool's tools ahead of its first search; a nil
// embedder makes a nil Semantic, which ranks lexically.
func TestSemanticPrepare(t *testing.T) {
	emb := embedtest.New(1024, nil)
	sem := NewSemantic(emb, nil)
	x := NewIndex(paraphrasePool())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := sem.Prepare(ctx, x); !errors.Is(err, context.Canceled) || emb.Calls() != 0 {
		t.Errorf("Prepare under a cancelled context = %v after %d calls, want Canceled and none", err, emb.Calls())
	}
	if err := sem.Prepare(context.Background(), x); err != nil || len(emb.Texts()) != x.Len() {
		t.Fatalf("Prepare = %v, %d texts embedded, want nil and %d", err, len(emb.Texts()), x.Len())
	}
	semSearch(t, sem, x, q("customer on ice"))
	if got := emb.Texts()[x.Len():]; !slices.Equal(got, []string{"customer on ice"}) {
		t.Errorf("after Prepare a search embedded %q, want its query alone", got)
	}
	if err := NewSemantic(failing{err: errors.New("down")}, nil).Prepare(context.Background(), x); !errors.Is(err, ErrEmbed) {
		t.Errorf("Prepare with a failing embedder = %v, want ErrEmbed", err)
	}
	none := NewSemantic(nil, nil)
	if err := none.Prepare(context.Background(), x); none != nil || err != nil {
		t.Errorf("a nil embedder's Semantic is %v, Prepare = %v; want nil and nil", none, err)
	}
	if diff := cmp.Diff(doSearch(t, paraphrasePool(), q("stash")), semSearch(t, none, x, q("stash"))); diff != "" {
		t.Errorf("a nil Semantic's search (-lexical +got):\n%s", diff)
	}
}

// ToolText is the own name's words, the server, the hint, the
// description, cut at MaxToolTextBytes on a character's start.
func TestToolText(t *testing.T) {
	hinted := pool.Tool{Name: "mcp__gh__listIssues", ServerTool: "listIssues", Server: "gh", Kind: pool.MCP, SearchHint: "bugs", Description: " List issues. "}
	if got, want := ToolText(&hinted), "list issues\nserver: gh\nbugs\nList issues."; got != want {
		t.Errorf("ToolText = %q, want %q", got, want)
	}
	if got, want := ToolText(&pool.Tool{Name: "WebFetch"}), "web fetch"; got != want {
		t.Errorf("ToolText = %q, want %q", got, want)
	}
	long := pool.Tool{Name: "x", Description: strings.Repeat("é", MaxToolTextBytes)}
	if got := ToolText(&long); len(got) > MaxToolTextBytes || len(got) < MaxToolTextBytes-1 || !utf8.ValidString(got) {
		t.Errorf("ToolText of a long description: %d bytes, valid UTF-8 %v; want at most %d, whole characters", len(got), utf8.ValidString(got), MaxToolTextBytes)
	}
}

// Explain with a Semantic says, per result of the fused ranking (in
// Search's order), its lexical and semantic ranks and its fused score,
// beside what the lexical ranking made of it; a tool only the semantic
// ranking found has no lexical matches. With the embedder down, it is
// the lexical explanation, saying why.
func TestSemanticExplainShowsFusion(t *testing.T) {
	t.Parallel()
	x := NewIndex(paraphrasePool())
	sem := NewSemantic(embedtest.New(1024, nil), nil)
	args := json.RawMessage(q("stash the customer"))
	e, err := sem.Explain(context.Background(), x, args)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range e.Results {
		got = append(got, r.Name)
	}
	if want := names(semSearch(t, sem, x, string(args))); !slices.Equal(got, want) {
		t.Fatalf("explained %v, searched %v", got, want)
	}
	k := float64(sem.opts.K)
	for _, r := range e.Results {
		f := r.Fusion
		if f == nil {
			t.Fatalf("%s: no fusion shown:\n%s", r.Name, e)
		}
		want := 0.0
		for _, rank := range []int{f.Lexical, f.Semantic} {
			if rank > 0 {
				want += 1 / (k + float64(rank))
			}
		}
		if math.Abs(f.Score-want) > 1e-12 || f.Lexical == 0 && len(r.Matches) > 0 || f.Lexical > 0 && len(r.Matches) == 0 {
			t.Errorf("%s: fusion %+v with %d matches, want fused score %v:\n%s", r.Name, *f, len(r.Matches), want, e)
		}
	}
	if r := e.Results[1]; r.Name != "mcp__crm__archive_contact" || r.Fusion.Lexical != 0 || r.Fusion.Semantic == 0 {
		t.Errorf("second: %s %+v, want archive_contact found by the semantic ranking alone:\n%s", r.Name, r.Fusion, e)
	}
	if !strings.Contains(e.String(), "fusion: lexical #1, semantic #") {
		t.Errorf("the text shows no fusion line:\n%s", e)
	}
	down, err := NewSemantic(failing{err: errors.New("down")}, nil).Explain(context.Background(), x, args)
	if err != nil {
		t.Fatal(err)
	}
	lexical, _ := x.Explain(args)
	if !strings.Contains(down.Fallback, "down") || len(down.Results) != len(lexical.Results) || down.Results[0].Fusion != nil {
		t.Errorf("embedder down: fallback %q, %d results (lexical %d):\n%s", down.Fallback, len(down.Results), len(lexical.Results), down)
	}
}
