package luavm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/execlua/execlua/internal/cputime"
	"github.com/execlua/execlua/internal/heapwatch"
	"github.com/execlua/execlua/internal/jsontext"
	"github.com/google/go-cmp/cmp"
	glua "github.com/yuin/gopher-lua"
)

// eval runs a Lua expression in a fresh environment (no prelude: the
// language layer alone) and returns its first value rendered.
func eval(t testing.TB, expr string) (string, error) {
	t.Helper()
	var crash error
	s := New(&Options{OnCrash: func(err error) { crash = err }})
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s.L.SetContext(ctx)
	script, err := Compile("return " + expr)
	if err != nil {
		return "", err
	}
	fn, args := s.Load(script)
	s.L.Push(fn)
	for _, a := range args {
		s.L.Push(a)
	}
	if err := s.L.PCall(len(args), 0, nil); err != nil {
		return "", err
	}
	if crash != nil {
		t.Fatalf("%s: %v", expr, crash)
	}
	values, _ := s.Results()
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = renderJSON(s, v)
	}
	return strings.Join(parts, " "), nil
}

// renderJSON is RenderCut with room for any test value.
func renderJSON(s *State, v glua.LValue) string {
	text, _, _ := s.RenderCut(v, 1<<20)
	return text
}

// The pattern matcher against results C Lua 5.1 gives.
func TestPatterns(t *testing.T) {
	for expr, want := range map[string]string{
		`string.find("hello", "l")`:                        "3 3",
		`string.find("hello", "xyz")`:                      "null",
		`string.find("hello", "")`:                         "1 0",
		`string.find("hello", "", 10)`:                     "6 5", // 5.1 clamps init
		`string.find("hello", "l", -2)`:                    "4 4",
		`string.find("a+b", "+", 1, true)`:                 "2 2",
		`string.find("abc", "^b")`:                         "null",
		`string.find("abc", "c$")`:                         "3 3",
		`string.find("a$c", "$c")`:                         "2 3",
		`string.match("  trim  ", "^%s*(.-)%s*$")`:         `"trim"`,
		`string.match("2024-01-05", "(%d+)-(%d+)-(%d+)")`:  `"2024" "01" "05"`,
		`string.match("abab", "(ab)%1")`:                   `"ab"`,
		`string.match("[[x]]", "%[(%b[])%]")`:              `"[x]"`,
		`string.match("x=1", "()=()")`:                     "2 3",
		`string.match("hello", "[^aeiou]+")`:               `"h"`,
		`string.match("a]b", "[]]")`:                       `"]"`,
		`string.match("a-b", "[a%-]+")`:                    `"a-"`,
		`string.match("F00d", "%x+")`:                      `"F00d"`,
		`string.match("key = value", "(%w+)%s*=%s*(%w+)")`: `"key" "value"`,
		`string.match("aaa", "a-b")`:                       "null",
		`string.match("aaab", "a-b")`:                      `"aaab"`,
		`string.match("ab", "a?b")`:                        `"ab"`,
		`string.match("THE END", "%u+")`:                   `"THE"`,
		`string.match("a.b", "%.")`:                        `"."`,
		`string.gsub("hello world", "(%w+)", "<%1>")`:      `"<hello> <world>" 2`,
		`string.gsub("abc", "", "-")`:                      `"-a-b-c-" 4`,
		`string.gsub("abc", ".", { a = 1, b = true })`:     "", // error: invalid replacement
		`string.gsub("THE (quick) fox", "%f[%a]%a+", "W")`: `"W (W) W" 3`,
		`string.gsub("a b", "%s", "%%")`:                   `"a%b" 1`,
	} {
		got, err := eval(t, expr)
		if want == "" {
			if err == nil {
				t.Errorf("%s = %s, want an error", expr, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", expr, err)
			continue
		}
		if got != want {
			t.Errorf("%s = %s, want %s", expr, got, want)
		}
	}
}

// Malformed patterns fail with C Lua's messages, never a Go panic.
func TestMalformedPatterns(t *testing.T) {
	for pat, want := range map[string]string{
		"%":  "malformed pattern (ends with '%')",
		"[a": "malformed pattern (missing ']')",
		"[":  "malformed pattern (missing ']')",
		"(a": "unfinished capture",
		"a)": "invalid pattern capture",
		"%1": "invalid capture index",
		"%b": "unbalanced pattern",
		"%f": "missing '[' after '%f' in pattern",
		"[%": "malformed pattern",
		strings.Repeat("(", 40) + strings.Repeat(")", 40): "too many captures",
		strings.Repeat("a?", 300):                         "pattern too complex",
	} {
		_, err := eval(t, `string.match(("a"):rep(300), "`+pat+`")`)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("pattern %q: err = %v, want %q", pat, err, want)
		}
	}
}

func TestFormat(t *testing.T) {
	for expr, want := range map[string]string{
		`string.format("%5.1f|%-5d|%+d|% d|%#x|%o", 2.25, 3, 4, 5, 255, 8)`: `"  2.2|3    |+4| 5|0xff|10"`,
		`string.format("%c%c", 72, 105)`:                                    `"Hi"`,
		`string.format("%.3s", "abcdef")`:                                   `"abc"`,
		`string.format("%f %e", 1/0, -1/0)`:                                 `"inf -inf"`,
		`string.format("%u", -1)`:                                           `"18446744073709551615"`,
		`string.format("%q", "a\0b\r")`:                                     `"\"a\\000b\\r\""`,
		`string.format("%q %q %q", 1/0, 0/0, 2.5)`:                          `"\"inf\" \"nan\" \"2.5\""`,
		`string.format("%10.4f", math.pi)`:                                  `"    3.1416"`,
	} {
		got, err := eval(t, expr)
		if err != nil || got != want {
			t.Errorf("%s = %s (%v), want %s", expr, got, err, want)
		}
	}
	for _, bad := range []string{`string.format("%y", 1)`, `string.format("%100d", 1)`, `string.format("%.100f", 1)`, `string.format("%-+ #0-d", 1)`, `string.format("%d")`} {
		if _, err := eval(t, bad); err == nil {
			t.Errorf("%s: want an error", bad)
		}
	}
}

// ToJSON: integers, empty tables by schema, paths in errors.
func TestToJSON(t *testing.T) {
	schema, err := ParseSchema([]byte(`{"type":"object","properties":{
		"tags":{"type":"array"},
		"opt":{"anyOf":[{"type":"null"},{"type":"array","items":{"type":"string"}}]},
		"meta":{"type":"object","additionalProperties":{"type":"array"}},
		"tuple":{"prefixItems":[{"type":"object"},{"type":"array"}]},
		"node":{"$ref":"#/definitions/node"}},
		"definitions":{"node":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/definitions/node"}}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	s := New(nil)
	defer s.Close()
	for code, want := range map[string]string{
		`{ tags = {}, opt = {}, other = {} }`:                        `{"opt":[],"other":{},"tags":[]}`,
		`{ meta = { a = {} } }`:                                      `{"meta":{"a":[]}}`,
		`{ tuple = { {}, {} } }`:                                     `{"tuple":[{},[]]}`,
		`{ node = { children = { { children = {} } } } }`:            `{"node":{"children":[{"children":[]}]}}`,
		`{ n = 1e15, f = 0.1, neg = -0, big = 2^53, bigger = 2^60 }`: `{"big":9007199254740992,"bigger":1152921504606847000,"f":0.1,"n":1000000000000000,"neg":0}`,
		`{ s = "\"<>&\1\127é" }`:                                     `{"s":"\"<>&\u0001\u007fé"}`,
	} {
		if err := s.L.DoString("x = " + code); err != nil {
			t.Fatal(err)
		}
		got, err := ToJSON(s.L, s.L.GetGlobal("x"), schema, "args", 1<<20)
		if err != nil {
			t.Errorf("%s: %v", code, err)
			continue
		}
		if diff := cmp.Diff(want, string(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", code, diff)
		}
	}
	if err := s.L.DoString(`x = { a = { ["b c"] = { 1, 2, print } } }`); err != nil {
		t.Fatal(err)
	}
	_, err = ToJSON(s.L, s.L.GetGlobal("x"), nil, "args", 1<<20)
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Path != `args.a["b c"][3]` || !errors.Is(err, ErrNotData) {
		t.Errorf("err = %#v", err)
	}
}

// FromJSON builds fresh values: null is nil in an object and tools.null in
// an array, and what comes in goes back out as the same JSON (class 8).
func TestFromJSON(t *testing.T) {
	s := New(nil)
	defer s.Close()
	const in = `{"a":[1,null,3],"b":null,"c":{"d":"e"},"e":[],"f":1.5,"n":[null,null],"o":{}}`
	v, err := FromJSON(s.L, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	tbl := v.(*glua.LTable)
	a := tbl.RawGetString("a").(*glua.LTable)
	if tbl.RawGetString("b") != glua.LNil || a.RawGetInt(2) != s.null || a.Len() != 3 {
		t.Error("null must be absent in an object, tools.null in an array")
	}
	const out = `{"a":[1,null,3],"c":{"d":"e"},"e":[],"f":1.5,"n":[null,null],"o":{}}`
	if got := renderJSON(s, v); got != out {
		t.Errorf("render %s", got)
	}
	// A schema that says otherwise does not change what came from JSON.
	schema, _ := ParseSchema([]byte(`{"properties":{"e":{"type":"object"},"o":{"type":"array"}}}`))
	if got, err := ToJSON(s.L, v, schema, "args", 1<<20); err != nil || string(got) != out {
		t.Errorf("ToJSON = %s, %v", got, err)
	}
	if _, err := FromJSON(s.L, []byte(`{"a":`)); err == nil {
		t.Error("invalid JSON must fail")
	}
}

// FuzzPatterns: no pattern or subject makes a builtin panic.
func FuzzPatterns(f *testing.F) {
	for _, seed := range []string{"%b()", "[%a-z]", "(a*(.)%w(%s*))", "%f[%w]%w+", "[^]]", "%", "((", "a-b-c-", "[a-", "%1"} {
		f.Add(seed, "hello (world) [x] 123")
	}
	f.Fuzz(func(t *testing.T, pat, subject string) {
		var crash error
		s := New(&Options{OnCrash: func(err error) { crash = err }})
		defer s.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		s.L.SetContext(ctx)
		s.L.SetGlobal("p", glua.LString(pat))
		s.L.SetGlobal("s", glua.LString(subject))
		_ = s.L.DoString(`string.find(s, p) string.match(s, p) string.gsub(s, p, "%0") for _ in string.gmatch(s, p) do end`)
		if crash != nil {
			t.Fatalf("pattern %q on %q: %v", pat, subject, crash)
		}
	})
}

func TestSyntaxErrors(t *testing.T) {
	for code, want := range map[string]string{
		"local x = = 1":       "script:1: syntax error near '=' (column 11)",
		"if x then\nreturn 1": "script: syntax error at the end of the script",
		// What models bring from newer Lua and other languages gets a hint.
		"local a = 7 // 2":                           "script:1: syntax error near '/' (column 14); Lua 5.1 has no // operator: write math.floor(a / b)",
		"if a != b then end":                         "script:1: Invalid token near '!' (column 6); Lua writes not-equal as ~=",
		"local x = 1\nx += 1":                        "script:2: parse error near '+' (column 3); Lua has no +=, -=, *= or /=: write x = x + 1",
		"for i = 1, 3 do if i then continue end end": "script:1: parse error near 'end' (column 38); Lua has no continue: write goto continue, with the label ::continue:: just before the loop's end",
		"local f = (x) => x + 1":                     "script:1: syntax error near '=' (column 15); Lua has no arrow functions: write function(x) return x + 1 end",
		"local t = [1, 2, 3]":                        "script:1: syntax error near '[' (column 11); a list is a table in Lua: { 1, 2, 3 }, not [1, 2, 3]",
		"local t = { a: 1 }":                         "script:1: syntax error near '1' (column 16); table fields are written { name = value }, not name: value",
		"return `x`":                                 "script:1: Invalid token near '`' (column 8); Lua strings are quoted with ' or \", and built with .. or string.format",
		"return 5 & 3":                               "script:1: Invalid token near '&' (column 10); Lua 5.1 has no bitwise operators (&, |, ~, <<, >>) and no bit library: compute with arithmetic",
		"local n = 1\nreturn 7 // 2":                 "script:2: syntax error near '/' (column 11); Lua 5.1 has no // operator: write math.floor(a / b)",
		"local x <const> = 5":                        "script:1: syntax error near '<' (column 9); Lua 5.1 has no <const> or <close>: write a plain local",
		"return ~1":                                  "script:1: Invalid '~' token near '~' (column 8); Lua 5.1 has no bitwise operators (&, |, ~, <<, >>) and no bit library: compute with arithmetic",
		"return 8 >> 1":                              "script:1: syntax error near '>' (column 11); Lua 5.1 has no bitwise operators (&, |, ~, <<, >>) and no bit library: compute with arithmetic",
		"local u = 'a//b' return = 1":                "script:1: syntax error near '=' (column 25)",
	} {
		_, err := Compile(code)
		if err == nil || err.Error() != want {
			t.Errorf("%q: err = %v, want %q", code, err, want)
		}
	}
}

// dropNullFields removes the fields whose value is null, at any depth.
func dropNullFields(v any) any {
	switch v := v.(type) {
	case []any:
		for i := range v {
			v[i] = dropNullFields(v[i])
		}
	case map[string]any:
		for k, item := range v {
			if item == nil {
				delete(v, k)
			} else {
				v[k] = dropNullFields(item)
			}
		}
	}
	return v
}

// FuzzFromJSON: FromJSON accepts exactly what encoding/json accepts (and
// refuses it as jsontext.Parse does, at the same offset), builds
// the same value as FromGo does from encoding/json's decoding, and what it
// builds renders back as the same JSON (class 8).
func FuzzFromJSON(f *testing.F) {
	for _, seed := range []string{`{"a":[1,null,{"b":"\u00e9\n"}],"c":-1.5e3,"d":null,"e":[[],{}]}`, `[]`, `"x"`, `{"a":}`, `[1,]`, `01`, `"\ud83d\ude00"`, `1e400`, ` {"k" : true } `, `{"a":1,"b":null,"a":[{}]}`, `[1 2]`, `{"a" 1}`, "\"\xff\""} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := New(nil)
		defer s.Close()
		got, err := FromJSON(s.L, data)
		var ref any
		refErr := json.Unmarshal(data, &ref)
		if (err == nil) != (refErr == nil) {
			t.Fatalf("%q: FromJSON err %v, encoding/json err %v", data, err, refErr)
		}
		if err != nil {
			// The same refusal as the tree jsontext.Parse reads, which
			// takes in a number too large for a float64 as text.
			_, perr := jsontext.Parse(string(data))
			if perr == nil && !strings.Contains(err.Error(), "does not fit a float64") ||
				perr != nil && err.Error() != "tool output is not valid JSON: "+perr.Error() {
				t.Fatalf("%q: FromJSON err %v, jsontext.Parse err %v", data, err, perr)
			}
			return
		}
		// Compared as encoding/json reads both, which folds the order of
		// keys and one intended difference: invalid UTF-8 stays raw bytes
		// in Lua but is U+FFFD for encoding/json. The other is the
		// contract's: a null field of an object is absent in Lua.
		var back, viaGo any
		if err := json.Unmarshal([]byte(renderJSON(s, got)), &back); err != nil {
			t.Fatalf("%q renders as invalid JSON: %v", data, err)
		}
		_ = json.Unmarshal([]byte(renderJSON(s, fromGo(s.L, ref))), &viaGo)
		if diff := cmp.Diff(viaGo, back); diff != "" {
			t.Fatalf("%q: FromJSON and FromGo differ (-FromGo +FromJSON):\n%s", data, diff)
		}
		if diff := cmp.Diff(dropNullFields(ref), back); diff != "" {
			t.Fatalf("%q (-want +got):\n%s", data, diff)
		}
	})
}

// Numbers show as C Lua shows them ("%.14g"), integers in full.
func TestNumberStrings(t *testing.T) {
	for expr, want := range map[string]string{
		"tostring(0.1 + 0.2)":             `"0.3"`,
		"tostring(10/3)":                  `"3.3333333333333"`,
		"tostring(2^63)":                  `"9.2233720368548e+18"`,
		"tostring(1e15)":                  `"1e+15"`,
		"tostring(1e14 - 1)":              `"99999999999999"`,
		"tostring(-0)":                    `"-0"`,
		"-0 .. ''":                        `"-0"`,
		"tostring(2^53)":                  `"9.007199254741e+15"`,
		"tonumber('1e5')":                 `100000`,
		"tonumber(' 0x1F ')":              `31`,
		"tonumber('-0x10')":               `-16`,
		"tonumber('.5')":                  `0.5`,
		"tonumber('1e')":                  `null`,
		"tonumber('1_000')":               `null`,
		"tonumber('inf')":                 `null`,
		"tonumber('nan')":                 `null`,
		"tonumber('')":                    `null`,
		"tonumber('ff', 16)":              `255`,
		"tonumber('zz', 36)":              `1295`,
		"tonumber('8', 8)":                `null`,
		"tonumber('1e400')":               `"inf"`,
		"#(('x'):rep(4 * 2^20 - 1) .. 7)": `4194304`,
		"tostring(-1/0)":                  `"-inf"`,
		"1/4 .. '|' .. 7":                 `"0.25|7"`,
		"table.concat({1/3})":             `"0.33333333333333"`,
		`("%s"):format(1e100)`:            `"1e+100"`,
	} {
		got, err := eval(t, expr)
		if err != nil || got != want {
			t.Errorf("%s = %s (%v), want %s", expr, got, err, want)
		}
	}
}

// The compile-time rewrite leaves the script's own names alone and keeps
// Lua's meaning of return and ... at the top level.
func TestRewrite(t *testing.T) {
	for expr, want := range map[string]string{
		`(function() local os = { time = function() return 7 end } return os.time() end)()`: "7",
		`(function(...) return select("#", ...) end)(1, 2)`:                                 "2",
		`select("#", ...)`: "0",
		`(function() local load = tostring return load(5) end)()`: `"5"`,
		`require == nil and os == nil`:                            "true",
	} {
		got, err := eval(t, expr)
		if err != nil || got != want {
			t.Errorf("%s = %s (%v), want %s", expr, got, err, want)
		}
	}
	for code, want := range map[string]string{
		`function os.exit() end`:                    "os is not available inside Exec",
		`local t = io:lines()`:                      "io is not available inside Exec",
		`if true then return debug.traceback() end`: "debug is not available inside Exec",
	} {
		_, err := eval(t, `(function() `+code+` end)()`)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", code, err, want)
		}
	}
}

// A call of something that is not a function names what the line calls.
func TestExplainCalls(t *testing.T) {
	script, err := Compile("local s = 'a,b'\nlocal parts = s:split(',')\nlocal x = string.trim(s) .. foo()")
	if err != nil {
		t.Fatal(err)
	}
	for msg, want := range map[string]string{
		"script:2: attempt to call a non-function object": "script:2: attempt to call a non-function object (method 'split' is not a function)",
		"script:3: attempt to call a non-function object": "script:3: attempt to call a non-function object (one of field 'trim', global 'foo' is not a function)",
		"script:1: boom": "script:1: boom",
	} {
		if got := script.Explain(msg); got != want {
			t.Errorf("Explain(%q) = %q, want %q", msg, got, want)
		}
	}
}

// Indexing what is not a table names what the line indexed with that key,
// as C Lua names it: a field of a tool's output that was absent.
func TestExplainIndexes(t *testing.T) {
	script, err := Compile("local n = {}\nlocal a = n.author.name\nlocal x = 5 local b, c, d = x.y, n.items[2].id, n['a-b'].c\nlocal e = n.p.q or n.r.q\nreturn f().z")
	if err != nil {
		t.Fatal(err)
	}
	for msg, want := range map[string]string{
		"script:2: attempt to index a non-table object(nil) with key 'name'":   "script:2: attempt to index a non-table object(nil) with key 'name' (n.author is nil)",
		"script:3: attempt to index a non-table object(number) with key 'y'":   "script:3: attempt to index a non-table object(number) with key 'y' (x is a number)",
		"script:3: attempt to index a non-table object(nil) with key 'id'":     "script:3: attempt to index a non-table object(nil) with key 'id' (n.items[2] is nil)",
		"script:3: attempt to index a non-table object(nil) with key 'c'":      `script:3: attempt to index a non-table object(nil) with key 'c' (n["a-b"] is nil)`,
		"script:4: attempt to index a non-table object(nil) with key 'q'":      "script:4: attempt to index a non-table object(nil) with key 'q' (n.p or n.r is nil)",
		"script:5: attempt to index a non-table object(nil) with key 'z'":      "script:5: attempt to index a non-table object(nil) with key 'z'",
		"script:2: attempt to index a non-table object(nil) with key 'absent'": "script:2: attempt to index a non-table object(nil) with key 'absent'",
	} {
		if got := script.Explain(msg); got != want {
			t.Errorf("Explain(%q) = %q, want %q", msg, got, want)
		}
	}
}

// Class 2: builtins check the size of what one step would build before
// building it; ranges that overflow are refused, not looped over.
func TestSingleStepsAreBounded(t *testing.T) {
	for expr, want := range map[string]string{
		`string.gsub(("x"):rep(2^20), ".+", ("%0"):rep(1000))`:  "resulting string too large",
		`string.gsub(("x"):rep(2^20), "(.+)", ("%1"):rep(100))`: "resulting string too large",
		`unpack({}, 0/0)`:                  "no integer representation",
		`unpack({}, 1, 0/0)`:               "no integer representation",
		`unpack({}, -2^62, 2^62)`:          "too many results",
		`unpack({}, -2^63, 2^63)`:          "too many results",
		`table.unpack({1}, 2^62, -2^62)`:   "",
		`table.insert({}, 2^26 - 1, true)`: "position out of bounds",
		`table.insert({}, 0/0, true)`:      "no integer representation",
		`table.insert({1}, 3, true)`:       "position out of bounds",
		`rawset({}, 2^26 - 1, true)`:       "too far past",
		// Issue 22, class 7: every path that sets an integer key.
		`{[33554431] = 1}`: "too far past",
		`(function() local b = {} b[1], b[50331647] = 1, 2 end)()`:                          "too far past",
		`(function() local a = {} a[2^25] = true end)()`:                                    "too far past",
		`(function() local a = {{}} a[1][2^25] = true end)()`:                               "too far past",
		`(function() local a = setmetatable({}, {__newindex = {}}) a[2^25] = true end)()`:   "too far past",
		`(function() local a = {} a[0/0] = 1 end)()`:                                        "NaN",
		`(function() local a = {} a[2^26], a[2^40], a[1e6] = 1, 2, 3 return a[2^40] end)()`: "",
		`rawset({}, 0/0, true)`:                   "NaN",
		`select("#", table.insert({1, 2}, 1, 0))`: "",
	} {
		runtime.GC()
		before := heapwatch.Allocated()
		_, err := eval(t, expr)
		if built := heapwatch.Allocated() - before; built > 16<<20 {
			t.Errorf("%s allocated %d MiB", expr, built>>20)
		}
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", expr, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: err = %v, want %q", expr, err, want)
		}
	}
	for expr, want := range map[string]string{
		`(function() local t = {1, 2} table.insert(t, 1, 0) table.insert(t, 4, 3) return t end)()`: "[0,1,2,3]",
		`rawset({}, 3, "x")[3]`:  `"x"`,
		`unpack({1, 2, 3}, 2.7)`: "2 3",
	} {
		if got, err := eval(t, expr); err != nil || got != want {
			t.Errorf("%s = %s, %v; want %s", expr, got, err, want)
		}
	}
}

// repeated is prefix, then body(i) for i = 0, 1, ... until size bytes, then
// suffix.
func repeated(prefix string, size int, body func(i int) string, suffix string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for i := 0; b.Len() < size; i++ {
		b.WriteString(body(i))
	}
	b.WriteString(suffix)
	return b.String()
}

// Class 3: sources that would keep gopher-lua's compiler busy for seconds
// are refused by cheap measures, with a message saying which.
func TestCompileLimits(t *testing.T) {
	const size = 250 << 10
	itoa := strconv.Itoa
	for name, c := range map[string]struct{ src, want string }{
		"constants":      {repeated("local t = {", size, func(i int) string { return itoa(i) + "," }, "}"), "script:1: a function uses more than 10000 distinct constants"},
		"globals":        {repeated("", size, func(i int) string { return "x" + itoa(i) + " = 1\n" }, ""), "distinct constants"},
		"strings":        {repeated("", size, func(i int) string { return "local _ = '" + itoa(i) + "'\n" }, ""), "distinct constants"},
		"calls_one_line": {repeated("", size/3, func(i int) string { return "f" + itoa(i%3000) + "() " }, ""), ""},
		"nested_blocks":  {strings.Repeat("do ", 20000) + strings.Repeat("end ", 20000), "script:1: the script nests blocks, functions or expressions more than 200 levels deep"},
		"nested_ifs":     {strings.Repeat("if x then ", 20000) + strings.Repeat("end ", 20000), "more than 200 levels"},
		"nested_funcs":   {"return " + strings.Repeat("function() return ", 20000) + "1" + strings.Repeat(" end", 20000), "more than 200 levels"},
		"nested_tables":  {"return " + strings.Repeat("{", 20000) + strings.Repeat("}", 20000), "more than 200 levels"},
		"nested_powers":  {"return 2" + strings.Repeat("^2", 20000), "more than 200 levels"},
		"long_sum":       {"return 1" + strings.Repeat(" + 1", 20000), ""},
		"long_elseif":    {"if x then" + strings.Repeat(" elseif x then", 2000) + " end", ""},
	} {
		var err error
		if spent := cputime.Spent(t, func() { _, err = Compile(c.src) }); spent > slowdown*time.Second {
			t.Errorf("%s: compiling spent %v of CPU", name, spent)
		}
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: err = %v, want %q", name, err, c.want)
		}
	}
}

// Class 9: a function with more upvalues than gopher-lua can address is
// refused when the script compiles, naming the line.
func TestUpvalueLimit(t *testing.T) {
	var locals, uses strings.Builder
	for i := range 300 {
		fmt.Fprintf(&locals, "local v%d = %d\n", i, i)
		fmt.Fprintf(&uses, "s = s + v%d\n", i)
	}
	_, err := Compile(locals.String() + "return function() local s = 0\n" + uses.String() + "return s end")
	if err == nil || !strings.Contains(err.Error(), "more than 255 local variables of the functions around it") {
		t.Errorf("err = %v", err)
	}
	// 200 locals used from a nested function are fine, and so is a name
	// used many times.
	var few strings.Builder
	for i := range 200 {
		fmt.Fprintf(&few, "s = s + v%d + v%d\n", i, i)
	}
	var some strings.Builder
	for i := range 200 {
		fmt.Fprintf(&some, "local v%d = %d\n", i, i)
	}
	if got, err := eval(t, "(function() "+some.String()+" return (function() local s = 0\n"+few.String()+" return s end)() end)()"); err != nil || got != "39800" {
		t.Errorf("200 upvalues: %s, %v", got, err)
	}
}

// The append idiom t[#t + 1] = v is spared the far-key check (its key is
// never far), and only when both names are the same table's.
func TestAppendIdiom(t *testing.T) {
	if got, err := eval(t, `(function() local t = {} for i = 1, 3 do t[#t + 1] = i end t[#t + 2] = 5 return t[5], #t end)()`); err != nil || got != "5 5" {
		t.Errorf("appends: %s, %v", got, err)
	}
	_, err := eval(t, `(function() local u = {} u[2^20] = true local t = {} t[#u + 1] = 1 end)()`)
	if err == nil || !strings.Contains(err.Error(), "too far past") {
		t.Errorf("t[#u + 1] = v on an empty t: err = %v, want the far-key error", err)
	}
}
