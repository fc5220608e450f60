package sandbox

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ORCH-1: both calls happen for real and the second receives the first's
// output.
func TestORCH1_ChainedCalls(t *testing.T) {
	f := newFunnel(map[string]toolFunc{
		"mcp__srv__fetch": structured(`{"title":"hello","n":3}`),
		"mcp__srv__store": echo,
	})
	mustResult(t, f, `
		local a = tools.mcp__srv__fetch{ id = 1 }
		return tools.mcp__srv__store{ value = a }`,
		`{"value":{"n":3,"title":"hello"}}`)
	got := []string{string(f.calls[0].Args), string(f.calls[1].Args)}
	want := []string{`{"id":1}`, `{"value":{"n":3,"title":"hello"}}`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("arguments that reached the host (-want +got):\n%s", diff)
	}
}

// ORCH-2: the script gets structured content as a table, else the text
// blocks joined by newlines, else nil; never an envelope.
func TestORCH2_OutputShapes(t *testing.T) {
	f := newFunnel(map[string]toolFunc{
		"both": func(context.Context, map[string]any) (Output, error) {
			return Output{Structured: []byte(`{"k":[1,2]}`), Text: []string{"ignored"}}, nil
		},
		"text": func(context.Context, map[string]any) (Output, error) {
			return Output{Text: []string{"line one", "line two"}}, nil
		},
		"nothing": func(context.Context, map[string]any) (Output, error) {
			return Output{Images: []Image{{MIMEType: "image/png", Data: "AAAA"}}}, nil
		},
	})
	out := mustResult(t, f, `
		local b, t, n = tools.both{}, tools.text{}, tools.nothing{}
		assert(type(b) == "table" and b.content == nil and b.images == nil, "structured content has no envelope")
		assert(b.k[2] == 2, "structured content is a table")
		assert(type(t) == "string", "text is a string")
		assert(n == nil, "no text and no structured content is nil")
		return t`,
		"line one\nline two")
	if len(out.Images) != 1 {
		t.Errorf("images of an image-only result: got %d, want 1", len(out.Images))
	}
}

// ORCH-3: arguments reach the tool field by field as written; the schema
// only decides how an empty table encodes.
func TestORCH3_ArgumentsAsWritten(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"t": echo})
	f.schemas["t"] = `{"type":"object","properties":{"list":{"type":"array"},"obj":{"type":"object"},
		"nested":{"$ref":"#/$defs/n"}},"$defs":{"n":{"type":"object","properties":{"tags":{"type":["array","null"]}}}}}`
	runScript(t, f, `tools.t{ camelCase = 1, snake_case = 2.5, big = 9007199254740992, neg = -3,
		list = {}, obj = {}, other = {}, nested = { tags = {} }, s = "x\ny", yes = true,
		seq = { "a", "b" }, ["with-dash"] = 0 }`, nil)
	want := `{"big":9007199254740992,"camelCase":1,"list":[],"neg":-3,"nested":{"tags":[]},"obj":{},"other":{},` +
		`"s":"x\ny","seq":["a","b"],"snake_case":2.5,"with-dash":0,"yes":true}`
	if len(f.calls) != 1 {
		t.Fatalf("calls: %v", f.names())
	}
	if diff := cmp.Diff(want, string(f.calls[0].Args)); diff != "" {
		t.Errorf("arguments (-want +got):\n%s", diff)
	}
}

// ORCH-4: an mcp__ name outside the pool reaches the host's check and is
// refused there with a pointer to ToolSearch; the funnel never sees it, and
// it is recorded as a refused call is (SUM-7).
func TestORCH4_UnknownMCPName(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"mcp__srv__known": echo})
	out := runScript(t, f, `return tools.mcp__other__tool{ x = 1 }`, nil)
	if !errors.Is(out.Err, ErrUnknownTool) {
		t.Fatalf("err = %v, want ErrUnknownTool", out.Err)
	}
	for _, want := range []string{"mcp__other__tool", "only this session's catalogued tools", "tools.ToolSearch"} {
		if !strings.Contains(out.Err.Error(), want) {
			t.Errorf("error %q does not mention %q", out.Err, want)
		}
	}
	if len(f.calls) != 0 {
		t.Errorf("the funnel saw %v", f.names())
	}
	if len(out.Calls) != 1 || out.Calls[0] != "mcp__other__tool" {
		t.Errorf("a name outside the pool must be recorded: %v", out.Calls)
	}
}

// ORCH-5: a failing nested call inside pcall is caught and the script
// continues, in every position a Lua programmer would write it.
func TestORCH5_PcallCatchesNestedFailure(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"ok": echo, "bad": failing("permission denied by rule")})
	cases := map[string]string{
		"direct": `local ok, err = pcall(tools.bad, {})
			assert(not ok and err:find("permission denied by rule"), tostring(err))
			return tools.ok{ after = true }.after`,
		"closure": `local ok, err = pcall(function() return tools.bad{} end)
			assert(not ok, "caught")
			return tools.ok{ v = 1 }.v == 1`,
		"xpcall": `local ok, msg = xpcall(function() tools.bad{} end, function(e) return "handled: " .. e end)
			assert(not ok and msg:find("^handled: "), msg)
			return tools.ok{ v = 2 }.v == 2`,
		"nested pcall": `local ok, inner = pcall(function()
				local ok2, err = pcall(tools.bad, {})
				return (not ok2) and tools.ok{ v = 3 }.v
			end)
			return ok and inner == 3`,
		"after a caught error": `pcall(error, "first")
			local ok = pcall(tools.bad, {})
			return (not ok) and tools.ok{ v = 4 }.v == 4`,
		"inside coroutine.wrap": `local gen = coroutine.wrap(function()
				local ok = pcall(tools.bad, {})
				coroutine.yield(ok)
				coroutine.yield(tools.ok{ v = 5 }.v)
			end)
			return gen() == false and gen() == 5`,
		"tail call": `local function get() return tools.ok{ v = 6 } end
			local ok, r = pcall(get)
			return ok and r.v == 6`,
		"error object is kept": `local ok, err = pcall(error, { code = 7 })
			return (not ok) and err.code == 7 and tools.ok{}.x == nil`,
	}
	for name, code := range cases {
		t.Run(name, func(t *testing.T) {
			out := runScript(t, f, code, nil)
			if out.Err != nil || (out.Result != "true" && out.Result != "1") {
				t.Errorf("result %q, err %v", out.Result, out.Err)
			}
		})
	}
}

// ORCH-6: print output is collected and returned with the result.
func TestORCH6_PrintCollected(t *testing.T) {
	f := newFunnel(nil)
	out := mustResult(t, f, `print() print("a", 1, true, nil, { x = { 1, 2 } }) print("second") return "done"`, "done")
	want := "\na\t1\ttrue\tnil\t{\"x\":[1,2]}\nsecond"
	if diff := cmp.Diff(want, out.Log); diff != "" {
		t.Errorf("log (-want +got):\n%s", diff)
	}
}

// ORCH-7: a returned table is JSON; several values are a JSON array; a
// string is verbatim; nothing returned is reported as such.
func TestORCH7_ReturnValues(t *testing.T) {
	f := newFunnel(nil)
	for code, want := range map[string]string{
		`return { b = 2, a = { 1, "x" } }`: `{"a":[1,"x"],"b":2}`,
		`return "plain text"`:              "plain text",
		`return 1, "two", { 3 }`:           `[1,"two",[3]]`,
		`return nil`:                       "null",
		`return 0.5`:                       "0.5",
		`return {}`:                        "{}",
		`return print`:                     `"<function>"`,
		`return { [true] = 1, [false] = 0, [print] = 2, [3] = 3 }`: `{"3":3,"<function>":2,"false":0,"true":1}`,
		`return select("#", ...)`:                                  "0",
		`if true then return "early" end return "late"`:            "early",
	} {
		mustResult(t, f, code, want)
	}
	out := runScript(t, f, `local x = 1`, nil)
	if out.Err != nil || out.HasResult || out.Log != "" {
		t.Errorf("no return and no output: %+v", out)
	}
}

// SRCH-11: an ordinary unknown key is nil and calling it is a plain Lua
// error that never reaches the host; an unknown mcp__ name does reach the
// host's check and gets ORCH-4's error.
func TestSRCH11_UnknownKeys(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"known": echo})
	mustResult(t, f, `
		assert(tools["then"] == nil and tools.search == nil and tools[1] == nil)
		local ok, err = pcall(function() return tools.search("x") end)
		assert(not ok and err:find("attempt to call a nil value %(field 'search'%)"), err)
		local ok2, err2 = pcall(tools.mcp__gone__x, {})
		assert(not ok2 and err2:find("only this session's catalogued tools"), err2)
		return "ok"`, "ok")
	if len(f.calls) != 0 {
		t.Errorf("the funnel saw %v", f.names())
	}
}

// SRCH-11, and the way out: a tool's own name without its
// mcp__<server>__ prefix, as models write it, is still a plain Lua error
// that never reaches the host, and it names the tools meant.
func TestUnknownKeySuggestsThePrefixedName(t *testing.T) {
	f := newFunnel(map[string]toolFunc{
		"mcp__notes__list_notes": echo, "mcp__my__srv__list_notes": echo,
		"mcp__notes__get_note": echo, "mcp__shop__get-item": echo, "list_notes_all": echo,
	})
	for code, want := range map[string]string{
		`tools.list_notes{}`:  "attempt to call a nil value (field 'list_notes'): no tool of that name in this session; did you mean tools.mcp__my__srv__list_notes or tools.mcp__notes__list_notes?",
		`tools.Get_Note{}`:    "(field 'Get_Note'): no tool of that name in this session; did you mean tools.mcp__notes__get_note?",
		`tools["get-item"]{}`: `did you mean tools["mcp__shop__get-item"]?`,
		`tools.notes{}`:       `(field 'notes'): no tool of that name in this session; find tools with tools.ToolSearch{ query = "..." }`,
		`tools.note{}`:        `find tools with tools.ToolSearch`,
	} {
		out := runScript(t, f, code, nil)
		if out.Err == nil || !strings.Contains(out.Err.Error(), want) {
			t.Errorf("%s: err = %v, want it to contain %q", code, out.Err, want)
		}
	}
	if len(f.calls) != 0 {
		t.Errorf("the funnel saw %v", f.names())
	}
}

// Runs share nothing: many at once, each on its own goroutine and state,
// give each its own answer (run under -race).
func TestConcurrentRuns(t *testing.T) {
	f := newFunnel(map[string]toolFunc{"t": echo})
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			code := fmt.Sprintf(`
				local a, b = tools.parallel(function() return tools.t{ n = %d }.n end, function() return select(2, pcall(tools.t, { n = 1 })).n end)
				local gen = coroutine.wrap(function() coroutine.yield(tools.t{ n = a }.n) end)
				leaked = %d
				return gen() + b`, i, i)
			out := runScript(t, f, code, nil)
			if want := fmt.Sprint(i + 1); out.Err != nil || out.Result != want {
				t.Errorf("run %d: result %q, err %v", i, out.Result, out.Err)
			}
		})
	}
	wg.Wait()
}

// A run without a funnel computes; its calls fail with a clear error.
func TestNoFunnel(t *testing.T) {
	out := Run(context.Background(), Request{Code: `return tools.t{}`, Tools: NewToolset([]Tool{{Name: "t"}})}, nil)
	if !errors.Is(out.Err, ErrNoFunnel) {
		t.Errorf("err = %v", out.Err)
	}
}

// Indexing an absent field of a tool's output names it (n.author is nil).
func TestIndexOfNilIsNamed(t *testing.T) {
	out := runScript(t, newFunnel(map[string]toolFunc{"t": echo}), "local n = tools.t{ title = 'x' }\nreturn n.author.name", nil)
	if out.Err == nil || !strings.Contains(out.Err.Error(), "script:2: attempt to index a non-table object(nil) with key 'name' (n.author is nil)") {
		t.Errorf("err = %v", out.Err)
	}
}

// The failure of a call of a non-function names what the line called.
func TestCallOfNonFunctionIsNamed(t *testing.T) {
	out := runScript(t, newFunnel(nil), "local s = 'a,b'\nreturn s:split(',')", nil)
	if out.Err == nil || !strings.Contains(out.Err.Error(), "method 'split' is not a function") {
		t.Errorf("err = %v", out.Err)
	}
}
