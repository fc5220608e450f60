package announce

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var (
	poolP = []string{"mcp__github__create_issue", "WebFetch", "TaskCreate"}
	poolQ = []string{"WebFetch", "mcp__slack__post-message"}
)

// histories are the states the history can be in, named by what the model
// was told last.
func histories(t *testing.T) map[string][]Message {
	t.Helper()
	fullP := meta(first(t, poolP...))
	empty, _ := decide([]Message{fullP}, nil, true)
	closed, _ := decide([]Message{fullP}, poolP, false)
	chat := Message{Text: "user: please go on"}
	return map[string][]Message{
		"none":        {chat},
		"full, same":  {chat, fullP, chat},
		"full, other": {chat, meta(first(t, poolQ...)), chat},
		"empty":       {fullP, chat, meta(empty)},
		"closed":      {fullP, chat, meta(closed), chat},
	}
}

// nows are the states of the present: Exec enabled or not, pool P or empty.
var nows = map[string]struct {
	names []string
	exec  bool
}{
	"enabled, pool P":      {poolP, true},
	"enabled, empty pool":  {nil, true},
	"disabled, pool P":     {poolP, false},
	"disabled, empty pool": {nil, false},
}

// BC-2, BC-3, BC-5, BC-7, BC-8, BC-9: the decision table of doc.go, every
// cell. "" means nothing is appended.
func TestDecisionTable(t *testing.T) {
	want := map[string]map[string]Kind{
		// BC-2; BC-3: an empty pool or a closed channel never announced says nothing.
		"none": {"enabled, pool P": Full},
		// BC-5, BC-8, BC-9.
		"full, same": {"enabled, empty pool": Empty, "disabled, pool P": Closed, "disabled, empty pool": Closed},
		// BC-7, BC-8, BC-9.
		"full, other": {"enabled, pool P": Full, "enabled, empty pool": Empty, "disabled, pool P": Closed, "disabled, empty pool": Closed},
		// BC-8: emptied once, not repeated; a later close has no list to withdraw.
		"empty": {"enabled, pool P": Full},
		// BC-9: closed once; reopening with the same pool lists it again.
		"closed": {"enabled, pool P": Full},
	}
	fullP := first(t, poolP...).Text
	for hname, history := range histories(t) {
		for nname, now := range nows {
			t.Run(hname+"/"+nname, func(t *testing.T) {
				a, ok := decide(history, now.names, now.exec)
				if ok != (a.Kind != "") {
					t.Fatalf("ok = %v with kind %q", ok, a.Kind)
				}
				if w := want[hname][nname]; a.Kind != w {
					t.Fatalf("kind = %q, want %q", a.Kind, w)
				}
				if a.Kind == Full && a.Text != fullP {
					t.Errorf("full text differs from the first announcement (-want +got):\n%s", cmp.Diff(fullP, a.Text))
				}
			})
		}
	}
}

// BC-1: the announcement text is derived from the set of names and nothing
// else: whatever came before, the same pool gets the same bytes. (Exec's
// description being constant is the root package's to test.)
func TestTextDependsOnlyOnNames(t *testing.T) {
	want := first(t, poolP...).Text
	noisy := []Message{{IsMeta: true, Text: "server instructions"}, {Text: want}, {IsMeta: true, Text: "<!-- execlua-announce kind=bogus hash=aaaaaaaaaaaa -->"}}
	shuffled := slices.Clone(poolP)
	slices.Reverse(shuffled)
	for name, history := range histories(t) {
		for _, h := range [][]Message{history, append(slices.Clone(history), noisy...)} {
			if a, ok := decide(h, shuffled, true); ok && a.Text != want {
				t.Errorf("after %q (-want +got):\n%s", name, cmp.Diff(want, a.Text))
			}
		}
	}
}

// BC-4: Decide only reads; the history and the names slice are left exactly
// as given, so appending its result is the only change a host makes.
func TestOnlyAppends(t *testing.T) {
	for hname, history := range histories(t) {
		for nname, now := range nows {
			h, names := slices.Clone(history), slices.Clone(now.names)
			decide(h, names, now.exec)
			if diff := cmp.Diff(history, h); diff != "" {
				t.Errorf("%s/%s: history changed (-want +got):\n%s", hname, nname, diff)
			}
			if diff := cmp.Diff(now.names, names); diff != "" {
				t.Errorf("%s/%s: names changed (-want +got):\n%s", hname, nname, diff)
			}
		}
	}
}

// BC-6: compaction or rewind that removes the marker means a full
// announcement again, even when a summary quotes the old one verbatim.
func TestMarkerRemovedReannounces(t *testing.T) {
	a := first(t, poolP...)
	for name, history := range map[string][]Message{
		"compacted":         {{Text: "Summary of the conversation so far."}},
		"summary quotes it": {{Text: "Summary. The host said:\n" + a.Text}},
		"rewound":           {{Text: "user: first question"}},
	} {
		got, ok := decide(history, poolP, true)
		if !ok || got.Text != a.Text {
			t.Errorf("%s: got %v (-want +got):\n%s", name, ok, cmp.Diff(a.Text, got.Text))
		}
	}
}

// BC-10: without a channel nothing is said, in any state; in particular an
// unreadable history is never taken for an emptied pool or a closed channel.
func TestNoChannelSkipsSilently(t *testing.T) {
	for hname, history := range histories(t) {
		for nname, now := range nows {
			in := Input{History: history, Names: now.names, ExecEnabled: now.exec}
			if a, ok := Decide(in); ok || a != (Announcement{}) {
				t.Errorf("%s/%s: without a channel got %+v, %v", hname, nname, a, ok)
			}
		}
	}
	if a, ok := Decide(Input{}); ok {
		t.Errorf("zero Input announced %+v", a)
	}
}

// BC-11: MCP servers coming and going change only the appended message, and
// the decision depends on the Input alone: the same Input gives the same
// answer whatever was decided before, for this session or another.
func TestDecisionIsAFunctionOfItsInput(t *testing.T) {
	type result struct {
		Announcement
		OK bool
	}
	var inputs []Input
	for _, history := range histories(t) {
		for _, now := range nows {
			for _, channel := range []bool{true, false} {
				inputs = append(inputs, Input{HasChannel: channel, History: history, Names: now.names, ExecEnabled: now.exec})
			}
		}
	}
	results := make([]result, len(inputs))
	for i, in := range inputs {
		results[i].Announcement, results[i].OK = Decide(in)
	}
	for i := len(inputs) - 1; i >= 0; i-- {
		var again result
		again.Announcement, again.OK = Decide(inputs[i])
		if diff := cmp.Diff(results[i], again); diff != "" {
			t.Errorf("input %d decided differently the second time (-first +second):\n%s", i, diff)
		}
	}
}

// The exact model-visible wording, spelled out here independently of the
// package's constants, with hashes pinned: a changed hash would re-announce
// to every stored session, so it must be a deliberate change.
const (
	wantLead   = `Catalogued tools your scripts can call, as tools.<name>(args) or tools["<name>"](args); this list replaces any earlier one:`
	wantSearch = `Names only: look up a tool's parameters with tools.ToolSearch{ query = "<name>" } in the same script, then call it.`
	wantEmpty  = "The tool catalogue has changed: no catalogued tools are available right now; later updates may add some. None of the tools listed earlier can be called now.\n" +
		"<!-- execlua-announce kind=empty hash=fgodefnkkdoi -->"
	wantClosed = "The tool catalogue has been withdrawn: the earlier list no longer applies; do not use its entries. Use only the tools declared to you directly.\n" +
		"<!-- execlua-announce kind=closed hash=anneohlgphej -->"
)

func wantFull(hash string, sortedNames ...string) string {
	return wantLead + "\n" + strings.Join(sortedNames, "\n") + "\n" + wantSearch +
		"\n<!-- execlua-announce kind=full hash=" + hash + " -->"
}

// One session, turn after turn, as a host drives it: before each request
// the history may be edited (compaction, rewind), then Decide runs, and its
// message, if any, is appended. Every step asserts the exact appended text.
func TestSession(t *testing.T) {
	builtins := []string{"WebFetch", "TaskCreate"}
	withGitHub := []string{"mcp__github__get-file.contents", "WebFetch", "mcp__github__create_issue", "TaskCreate"}
	var (
		fullBuiltins = wantFull("kgidbhdnakag", "TaskCreate", "WebFetch")
		fullGitHub   = wantFull("bkppnopfmfaj", "TaskCreate", "WebFetch", "mcp__github__create_issue", "mcp__github__get-file.contents")
		fullWebFetch = wantFull("cinhkgegppka", "WebFetch")
	)
	compact := func(h []Message) []Message {
		return []Message{{Text: "Summary of the conversation so far."}}
	}
	quoteOld := func(h []Message) []Message {
		return append(h, Message{Text: "user: you said earlier:\n" + fullBuiltins})
	}
	rewindLastAnnouncement := func(h []Message) []Message {
		for i := len(h) - 1; i >= 0; i-- {
			if h[i].IsMeta {
				return h[:i]
			}
		}
		return h
	}
	steps := []struct {
		id      string
		edit    func([]Message) []Message
		noChan  bool
		names   []string
		disable bool
		want    string
	}{
		{id: "BC-3 fresh session, empty pool", names: nil},
		{id: "BC-2 deferred builtins only", names: builtins, want: fullBuiltins},
		{id: "BC-5 same pool, other order", names: []string{"TaskCreate", "WebFetch", "WebFetch"}},
		{id: "BC-7 BC-11 github connects", names: withGitHub, want: fullGitHub},
		{id: "BC-5 user quotes the old list", edit: quoteOld, names: withGitHub},
		{id: "BC-6 compaction removed the marker", edit: compact, names: withGitHub, want: fullGitHub},
		{id: "BC-5 after re-announcement", names: withGitHub},
		{id: "BC-7 BC-11 github disconnects", names: builtins, want: fullBuiltins},
		{id: "BC-10 no channel, pool unreadable", noChan: true, names: nil},
		{id: "BC-8 pool emptied", names: nil, want: wantEmpty},
		{id: "BC-8 still empty, not repeated", names: nil},
		{id: "pool back after empty", names: []string{"WebFetch"}, want: fullWebFetch},
		{id: "BC-9 Exec switched off", names: []string{"WebFetch"}, disable: true, want: wantClosed},
		{id: "BC-9 closed once, pool changes meanwhile", names: builtins, disable: true},
		{id: "BC-9 reopened with the same pool", names: []string{"WebFetch"}, want: fullWebFetch},
		{id: "BC-9 closed again", names: []string{"WebFetch"}, disable: true, want: wantClosed},
		{id: "reopened with an empty pool", names: nil},
		{id: "pool filled after reopening", names: []string{"WebFetch"}, want: fullWebFetch},
		{id: "BC-6 rewind removed that announcement", edit: rewindLastAnnouncement, names: []string{"WebFetch"}, want: fullWebFetch},
		{id: "BC-10 no channel after a list", noChan: true, names: nil, disable: true},
		{id: "BC-5 channel back, nothing changed", names: []string{"WebFetch"}},
	}
	var history []Message
	for i, s := range steps {
		if s.edit != nil {
			history = s.edit(history)
		}
		history = append(history, Message{Text: "user: turn " + s.id})
		before := slices.Clone(history)
		a, ok := Decide(Input{HasChannel: !s.noChan, History: history, Names: s.names, ExecEnabled: !s.disable})
		got := ""
		if ok {
			got = a.Text
			history = append(history, Message{IsMeta: true, Text: a.Text})
		}
		if diff := cmp.Diff(s.want, got); diff != "" {
			t.Fatalf("step %d (%s): appended text (-want +got):\n%s", i, s.id, diff)
		}
		if diff := cmp.Diff(before, history[:len(before)]); diff != "" {
			t.Fatalf("step %d (%s): earlier messages changed (BC-4) (-want +got):\n%s", i, s.id, diff)
		}
		history = append(history, Message{Text: "assistant: done"})
	}
}

// A List rendered once decides every cell of the table as the names it was
// rendered from do (BC-5, BC-7, BC-8, BC-9 with a cached list).
func TestListStandsForNames(t *testing.T) {
	for hname, history := range histories(t) {
		for nname, now := range nows {
			want, wantOK := decide(history, now.names, now.exec)
			got, gotOK := Decide(Input{HasChannel: true, History: history, Names: []string{"ignored"}, List: NewList(now.names), ExecEnabled: now.exec})
			if diff := cmp.Diff(want, got); diff != "" || gotOK != wantOK {
				t.Errorf("%s / %s: with a List (-names +list):\n%s ok %v, want %v", hname, nname, diff, gotOK, wantOK)
			}
		}
	}
}

// A list changed by random joins and leaves (List.With) is the list of
// the changed set made afresh, byte for byte.
func TestListWithEqualsNewList(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 5))
	name := func() string { return fmt.Sprint("mcp__s", r.IntN(6), "__t", r.IntN(8)) }
	set := map[string]bool{}
	list := NewList(nil)
	for step := range 300 {
		var joined, left []string
		for range r.IntN(5) {
			joined = append(joined, name())
		}
		for range r.IntN(5) {
			left = append(left, name())
		}
		for _, n := range left {
			delete(set, n)
		}
		for _, n := range joined {
			set[n] = true
		}
		list = list.With(joined, left)
		want := NewList(slices.Collect(maps.Keys(set)))
		if diff := cmp.Diff(want, list, cmp.AllowUnexported(List{})); diff != "" {
			t.Fatalf("step %d: joined %q, left %q (-NewList +With):\n%s", step, joined, left, diff)
		}
	}
}
