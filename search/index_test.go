package search

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/execlua/execlua/pool"
)

// answers runs every evaluation query (and a few select: and empty ones)
// over x, ten results each.
func answers(t *testing.T, x *Index, queries []qualityQuery) []Result {
	t.Helper()
	var out []Result
	for _, q := range queries {
		args, _ := json.Marshal(map[string]any{"query": q.Query, "max_results": 10})
		res, err := x.Search(args)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, res)
	}
	return out
}

func byServer(tools []pool.Tool) (map[string][]pool.Tool, []string) {
	groups := map[string][]pool.Tool{}
	var order []string
	for _, t := range tools {
		k := groupKey(&t)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], t)
	}
	return groups, order
}

// An index built server by server, or changed by removing and adding
// servers, answers exactly as one built from the final pool at once; and
// every Index it was derived from still answers as before.
func TestIncrementalMatchesFullBuild(t *testing.T) {
	tools := loadPool(t, "../testdata/search/eval/pool.json")
	queries := slices.Concat(loadQueries(t, "../testdata/search/eval/dev.json"), []qualityQuery{
		{Query: ""}, {Query: "select:mcp__github__list_issues,Read,mcp__redis__get"}, {Query: "list_issues"},
	})
	full := NewIndex(tools)
	want := answers(t, full, queries)
	groups, order := byServer(tools)

	// Server by server, in reverse order.
	x := NewIndex(nil)
	for _, k := range slices.Backward(order) {
		x = x.WithServer(k, groups[k])
	}
	if diff := cmp.Diff(want, answers(t, x, queries)); diff != "" {
		t.Fatalf("built server by server (-full +incremental):\n%s", diff)
	}
	checkDescs(t, full)
	checkDescs(t, x)

	// Remove half the servers, keep the smaller index, add them back.
	y := full
	for i, k := range order {
		if i%2 == 0 {
			y = y.WithoutServer(k)
		}
	}
	half := answers(t, y, queries)
	var rest []pool.Tool
	for i, k := range order {
		if i%2 == 1 {
			rest = append(rest, groups[k]...)
		}
	}
	if diff := cmp.Diff(answers(t, NewIndex(rest), queries), half); diff != "" {
		t.Fatalf("after removing half the servers (-fresh +incremental):\n%s", diff)
	}
	checkDescs(t, y)
	for i, k := range order {
		if i%2 == 0 {
			y = y.WithServer(k, groups[k])
		}
	}
	if diff := cmp.Diff(want, answers(t, y, queries)); diff != "" {
		t.Fatalf("removed and added back (-full +incremental):\n%s", diff)
	}
	checkDescs(t, y)
	if y.Len() != len(tools) {
		t.Errorf("Len = %d, want %d", y.Len(), len(tools))
	}

	// The indexes derived from are unchanged.
	if diff := cmp.Diff(want, answers(t, full, queries)); diff != "" {
		t.Fatalf("the original index changed (-before +after):\n%s", diff)
	}
	if got := answers(t, y.WithoutServer("github"), queries); cmp.Equal(got, want) {
		t.Fatal("removing github changed nothing")
	}
	if diff := cmp.Diff(want, answers(t, y, queries)); diff != "" {
		t.Fatalf("an index changed after another was derived from it (-before +after):\n%s", diff)
	}
	checkDescs(t, full)
}

// checkDescs checks that every tool of x keeps its description's words as
// the phrase signal reads them (phraseReading), by stem ids that name one
// stem each, none of them free.
func checkDescs(t *testing.T, x *Index) {
	t.Helper()
	stems := map[int32]*post{}
	names := map[int32]string{}
	for _, b := range x.words.buckets {
		if b == nil {
			continue
		}
		for i, p := range b.vals {
			if other, ok := names[p.id]; ok || p.id >= x.stemIDs || slices.Contains(x.freeStems, p.id) {
				t.Fatalf("stems %q and %q have id %d (%d handed out, free %v)", other, b.keys[i], p.id, x.stemIDs, x.freeStems)
			}
			stems[p.id], names[p.id] = p, b.keys[i]
		}
	}
	for _, g := range x.groups {
		for _, id := range g.ids {
			e := x.entry(id)
			got := []string{}
			for _, tok := range e.desc {
				got = append(got, names[int32(tok>>formBits)]+"/"+stems[int32(tok>>formBits)].forms[uint8(tok)])
			}
			if want := phraseReading(e.tool.Description); !slices.Equal(got, want) {
				t.Fatalf("%s: the index reads its description as %q, want %q", e.tool.Name, got, want)
			}
		}
	}
}

// Update reuses every unchanged server: an unchanged pool returns the same
// Index, and a changed server is rebuilt alone.
func TestUpdate(t *testing.T) {
	tools := loadPool(t, "../testdata/search/eval/pool.json")
	x := NewIndex(tools)
	if y := x.Update(slices.Clone(tools)); y != x {
		t.Error("an unchanged pool built a new Index")
	}
	changed := slices.Clone(tools)
	for i := range changed {
		if changed[i].Server == "redis" && changed[i].ServerTool == "get" {
			changed[i].Description = "Fetch the flux capacitor's reading."
		}
	}
	y := x.Update(changed)
	if y == x {
		t.Fatal("a changed description kept the old Index")
	}
	for name, idx := range map[string]*Index{"old": x, "new": y} {
		got := names(mustSearch(t, idx, q("flux capacitor")))
		want := []string{}
		if name == "new" {
			want = []string{"mcp__redis__get"}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s index (-want +got):\n%s", name, diff)
		}
	}
	for key, g := range x.groups {
		if reused := y.groups[key] == g; reused != (key != "redis") {
			t.Errorf("server %q: reused = %v", key, reused)
		}
	}
	if z := y.Update(tools[:10]); z.Len() != 10 {
		t.Errorf("shrunk to 10 tools: Len = %d", z.Len())
	}
}

func mustSearch(t *testing.T, x *Index, args string) Result {
	t.Helper()
	res, err := x.Search(json.RawMessage(args))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Searches run concurrently with indexes being derived from the one they
// search (run with -race).
func TestConcurrentSearchAndChange(t *testing.T) {
	tools := loadPool(t, "../testdata/search/eval/pool.json")
	groups, order := byServer(tools)
	x := NewIndex(tools)
	want := names(mustSearch(t, x, q("list issues")))
	// t.Fatal must not be called off the test's goroutine: errors only.
	search := func(x *Index) []string {
		res, err := x.Search(json.RawMessage(q("list issues")))
		if err != nil {
			t.Error(err)
		}
		return names(res)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 50 {
				if got := search(x); !slices.Equal(got, want) {
					t.Errorf("got %v, want %v", got, want)
					return
				}
			}
		})
	}
	wg.Go(func() {
		y := x
		for _, k := range order {
			y = y.WithoutServer(k).WithServer(k+"2", groups[k])
			search(y)
		}
	})
	wg.Wait()
}

// Pruning (bonuses only for the tools that can still reach the top k)
// never changes the result: the same queries, finished exhaustively, give
// the same top k.
func TestPruningKeepsTheTop(t *testing.T) {
	x := NewIndex(loadPool(t, "../testdata/search/eval/pool.json"))
	var queries []qualityQuery
	for _, path := range []string{"../testdata/search/eval/dev.json", "../testdata/search/eval/test.json"} {
		queries = append(queries, loadQueries(t, path)...)
	}
	for _, q := range queries {
		for _, k := range []int{1, 5, 50} {
			pruned := x.score(q.Query, nil)
			got := pruned.best(k)
			pruned.release()
			all := x.score(q.Query, nil)
			for _, id := range all.hits {
				all.finishName(id)
				all.finishPhrase(id)
			}
			want := topBy(all.hits, k, all.compare)
			all.release()
			if !slices.Equal(got, want) {
				t.Errorf("%q, top %d: pruned %v, exhaustive %v", q.Query, k, got, want)
			}
		}
	}
}

// A pool large enough to be analyzed on several CPUs indexes as it does
// server by server, on one.
func TestParallelBuildMatchesServerByServer(t *testing.T) {
	tools := bigPool(t, 3*parallelMin/2)
	groups, order := byServer(tools)
	one := NewIndex(nil)
	for _, k := range order {
		one = one.WithServer(k, groups[k])
	}
	queries := loadQueries(t, "../testdata/search/eval/dev.json")
	at := NewIndex(tools)
	if diff := cmp.Diff(answers(t, one, queries), answers(t, at, queries)); diff != "" {
		t.Fatalf("(-server by server +at once):\n%s", diff)
	}
	checkDescs(t, one)
	checkDescs(t, at)
}

// A server replaced again and again, each time with words of its own,
// leaves the index no more stem ids than it needs: those of the stems no
// tool has any more are reused.
func TestStemIDsReused(t *testing.T) {
	x := NewIndex(loadPool(t, "../testdata/search/eval/pool.json"))
	var first int32
	for i := range 50 {
		word := strings.Repeat(string(rune('a'+i%26)), 4+i/26) + "zq"
		x = x.WithServer("churn", []pool.Tool{mcpTool("churn", "t", "Reads the "+word+" of a widget")})
		if i == 0 {
			first = x.stemIDs
		}
	}
	// The word of each server is new, that of the one before it is freed
	// after: one id more than the first server's.
	if x.stemIDs > first+1 {
		t.Errorf("50 servers in turn, each with a word of its own, took %d stem ids more than the first, want 1", x.stemIDs-first)
	}
	checkDescs(t, x)
}
