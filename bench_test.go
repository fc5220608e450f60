package execlua

import (
	"fmt"
	"strings"
	"testing"

	"github.com/execlua/execlua/announce"
	"github.com/execlua/execlua/host/preset"
	"github.com/execlua/execlua/internal/cputime"
)

// benchSession is a session with 1,000 pool tools (the preset builtins and
// MCP tools from 20 servers) and a 500-message history whose announcement
// sits early, so the marker scan walks back through almost all of it.
func benchSession(b *testing.B) (*Session, []announce.Message) {
	s := newSession(b, &fakeFunnel{}, benchOptions())
	r := s.Request(nil)
	if n := len(r.Assembly.Pool()); n != 1000 {
		b.Fatalf("pool of %d tools, want 1000", n)
	}
	chat := strings.Repeat("some ordinary conversation text, tool output and code. ", 40)
	history := make([]announce.Message, 0, 500)
	for i := range 500 {
		switch {
		case i == 20:
			history = append(history, announce.Message{IsMeta: true, Text: r.Announcement.Text})
		case i%10 == 0:
			history = append(history, announce.Message{IsMeta: true, Text: "PostToolUse:WebFetch hook blocking error: " + chat[:200]})
		default:
			history = append(history, announce.Message{Text: chat})
		}
	}
	return s, history
}

// benchOptions are those of a session with 1,000 pool tools: the preset
// builtins and MCP tools from 20 servers.
func benchOptions() *Options {
	tools := preset.Builtins()
	for i := 0; len(tools) < 1000+6; i++ { // the six core builtins stay flat
		tools = append(tools, mcpTool(fmt.Sprintf("server%02d", i%20), fmt.Sprintf("tool_%d", i)))
	}
	return &Options{Tools: tools, Exempt: preset.Exempt(), Guidance: testGuidance}
}

// A full request assembly: tools[], guidance and the broadcast decision
// (target ≤ 1 ms). "unchanged" is the common case; "changed" follows a
// server connecting, which re-announces.
func BenchmarkRequest1000(b *testing.B) {
	s, history := benchSession(b)
	b.Run("unchanged", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if s.Request(history).Announcement != nil {
				b.Fatal("re-announced an unchanged pool")
			}
		}
	})
	if err := s.SetTools(append(s.cur.Load().asm.Registered(), mcpTool("late", "tool"))); err != nil {
		b.Fatal(err)
	}
	b.Run("changed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if s.Request(history).Announcement == nil {
				b.Fatal("a changed pool was not announced")
			}
		}
	})
}

// SetTools with the same 1,000-tool registry again: one comparison of
// every tool, the state kept (a server joining or leaving costs that
// server besides: BenchmarkSetToolsReal10k).
func BenchmarkSetTools1000(b *testing.B) {
	s, _ := benchSession(b)
	tools := s.cur.Load().asm.Registered()
	b.ReportAllocs()
	for b.Loop() {
		if err := s.SetTools(tools); err != nil {
			b.Fatal(err)
		}
	}
}

// One Exec run with a ToolSearch over the 1,000-tool pool and two nested
// calls.
func BenchmarkRunSearchAndCall(b *testing.B) {
	s, _ := benchSession(b)
	code := input(`local r = tools.ToolSearch{ query = "tool_42" }
local a = tools[r.matches[1].name]{ id = 1 }
return { a, tools.WebFetch{ url = "x" } }`)
	b.ReportAllocs()
	for b.Loop() {
		if res := s.Run(b.Context(), code, nil); res.IsError {
			b.Fatal(res.Text)
		}
	}
}

// What Options.Preflight adds to an in-process Exec run, in CPU time: a
// short script (two calls) and one of 300 lines. Preflight parses the
// script before the run compiles it again (docs/preflight.md).
func BenchmarkRunPreflight(b *testing.B) {
	short := `local a = tools.mcp__server00__tool_0{ id = 1 }
return { a, tools.WebFetch{ url = "x", prompt = "y" } }`
	var long strings.Builder
	for i := range 149 {
		fmt.Fprintf(&long, "local v%d = { n = %d, s = \"x\" .. %d }\nif v%d.n > 1000 then return v%d.s end\n", i, i, i, i, i)
	}
	long.WriteString(short)
	for _, script := range []struct{ name, code string }{{"short", short}, {"300lines", long.String()}} {
		for _, preflight := range []bool{false, true} {
			opts := benchOptions()
			opts.Preflight = preflight
			s := newSession(b, &fakeFunnel{}, opts)
			code := input(script.code)
			b.Run(fmt.Sprintf("%s/preflight=%v", script.name, preflight), func(b *testing.B) {
				defer cputime.PerOp(b)()
				for b.Loop() {
					if res := s.Run(b.Context(), code, nil); res.IsError {
						b.Fatal(res.Text)
					}
				}
			})
		}
	}
}
