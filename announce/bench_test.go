package announce

import (
	"strings"
	"testing"

	"github.com/execlua/execlua/internal/cputime"
	"github.com/execlua/execlua/internal/realpool"
)

// benchHistory is a 500-message session: long ordinary messages, an isMeta
// message (hook output, server instructions) every tenth, and the
// announcement for names early on, so the scan has to walk back through
// almost all of it.
func benchHistory(b *testing.B, names []string) []Message {
	a, ok := decide(nil, names, true)
	if !ok {
		b.Fatal("no announcement")
	}
	chat := strings.Repeat("some ordinary conversation text, tool output and code. ", 40)
	history := make([]Message, 0, 500)
	for i := range 500 {
		switch {
		case i == 20:
			history = append(history, meta(a))
		case i%10 == 0:
			history = append(history, Message{IsMeta: true, Text: "PostToolUse:WebFetch hook blocking error from command: \"check\": " + chat[:200]})
		default:
			history = append(history, Message{Text: chat})
		}
	}
	return history
}

// The decision over a 500-message history with a 1,000-name pool, for the
// outcomes a request assembly meets.
func BenchmarkDecide(b *testing.B) {
	pool := syntheticPool(1000)
	history := benchHistory(b, pool)
	changed := append(pool[1:], "mcp__new__tool")
	for _, bc := range []struct {
		name    string
		history []Message
		names   []string
		exec    bool
	}{
		{"unchanged", history, pool, true},
		{"changed", history, changed, true},
		{"compacted", history[21:], pool, true},
		{"closed", history, pool, false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				decide(bc.history, bc.names, bc.exec)
			}
		})
	}
}

// The decision over 10,024 real tool names, rendered once (NewList, what a
// session does at its first request), after a change (List.With, at the
// first request after one) and then decided for each request from the
// rendered list, beside BenchmarkDecide.
func BenchmarkDecideReal10k(b *testing.B) {
	var names []string
	for _, l := range realpool.Pool(10_024) {
		names = append(names, "mcp__"+l.Server+"__"+l.Name)
	}
	history := benchHistory(b, names)
	b.Run("render", func(b *testing.B) {
		b.ReportAllocs()
		defer cputime.PerOp(b)()
		for b.Loop() {
			NewList(names)
		}
	})
	list := NewList(names)
	joined, left := names[len(names)-24:], names[:24]
	b.Run("with", func(b *testing.B) { // a server of 24 joins, one leaves
		b.ReportAllocs()
		defer cputime.PerOp(b)()
		for b.Loop() {
			list.With(joined, left)
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := Decide(Input{HasChannel: true, History: history, List: list, ExecEnabled: true}); ok {
				b.Fatal("re-announced an unchanged pool")
			}
		}
	})
}
