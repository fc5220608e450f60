package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/execlua/execlua/internal/cputime"
)

// numberedWords is n distinct words, w1 w2 ..., separated by spaces.
func numberedWords(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "w%d", i)
	}
	return b.String()
}

// ISO-8 and SRCH-13 for ToolSearch's input: a query past an input limit
// is refused with a LimitError that names the limit, before anything is ranked: a 4 MiB query and one of 40,000 words
// cost what decoding their JSON costs. Queries at the limits are answered.
func TestQueryLimits(t *testing.T) {
	x := NewIndex(loadPool(t, "../testdata/search/eval/pool.json"))
	for _, c := range []struct {
		name, query string
		what        string // "" when the query is within the limits
	}{
		{"4MiB", strings.Repeat("x", 4<<20), LimitArgsBytes},
		{"4MiB of words", strings.Repeat("list ", (4<<20)/5), LimitArgsBytes},
		{"40000 words", numberedWords(40000), LimitArgsBytes},
		{"bytes", strings.Repeat("x", MaxQueryBytes+1), LimitQueryBytes},
		{"escaped bytes", strings.Repeat("\x01", MaxQueryBytes+1), LimitQueryBytes},
		{"words", strings.Repeat("a ", MaxQueryWords+1), LimitQueryWords},
		{"words without spaces", strings.Repeat("a,", MaxQueryWords+1), LimitQueryWords},
		{"select", "select:" + strings.Repeat("Read,", MaxSelectNames), LimitSelectNames},
		{"bytes at the limit", strings.Repeat("x", MaxQueryBytes), ""},
		{"escaped bytes at the limit", strings.Repeat("\x01", MaxQueryBytes), ""},
		{"words at the limit", strings.Repeat("a ", MaxQueryWords), ""},
		{"select at the limit", "select:Read" + strings.Repeat(",Read", MaxSelectNames-1), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := json.RawMessage(q(c.query))
			var err error
			spent := cputime.Spent(t, func() { _, err = x.Search(args) })
			if spent > cpuSlack {
				t.Errorf("the query cost %v of CPU, want at most %v", spent, cpuSlack)
			}
			var over *LimitError
			switch {
			case c.what == "" && err != nil:
				t.Fatalf("a query within the limits failed: %v", err)
			case c.what == "":
			case !errors.As(err, &over) || !errors.Is(err, ErrInvalidArgs) || !errors.Is(err, ErrQueryLimit):
				t.Fatalf("err = %v, want a LimitError matching ErrInvalidArgs and ErrQueryLimit", err)
			case over.What != c.what || over.Size <= over.Limit:
				t.Errorf("refused on %d %s (limit %d), want the limit on %s", over.Size, over.What, over.Limit, c.what)
			case !strings.Contains(err.Error(), fmt.Sprintf("%s is %d; the limit is %d", c.what, over.Size, over.Limit)) || len(err.Error()) > 300:
				t.Errorf("the error does not name the limit in a short sentence: %.400s", err)
			}
		})
	}
}

// Planning a query is linear in its length: a word said again is looked
// up, not searched for among the words before it. Four times the words
// cost well under eight times the CPU (a quadratic plan costs sixteen).
// The collector is off while it is measured: the process's CPU time
// would count its cycles, whose number and cost follow the heap and the
// machine's load rather than the plan.
func TestPlanIsLinear(t *testing.T) {
	x := NewIndex(loadPool(t, "../testdata/search/eval/pool.json"))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	cost := func(words int) time.Duration {
		text := numberedWords(words)
		best := time.Duration(1<<63 - 1)
		for range 5 {
			runtime.GC()
			best = min(best, cputime.Spent(t, func() { x.plan(text, nil) }))
		}
		return best
	}
	short, long := cost(10000), cost(40000)
	if long > 8*short {
		t.Errorf("planning 40,000 words cost %v of CPU, 10,000 words %v: more than linear", long, short)
	}
}

// A search whose context is done returns the context's cause, not a
// result.
func TestSearchHonoursItsContext(t *testing.T) {
	x := NewIndex(loadPool(t, "../testdata/search/eval/pool.json"))
	stop := errors.New("the run was stopped")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(stop)
	for _, query := range []string{"list issues", "", "select:Read"} {
		res, err := x.SearchContext(ctx, json.RawMessage(q(query)))
		if !errors.Is(err, stop) || res.Matches != nil {
			t.Errorf("%q: %v, %v; want the context's cause and no matches", query, res, err)
		}
	}
}
