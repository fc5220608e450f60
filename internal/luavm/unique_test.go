package luavm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/execlua/execlua/internal/jsontext"
)

// evalRendered runs code and renders what it returns for the model, with
// keep characters kept.
func evalRendered(t *testing.T, code string, keep int) Rendered {
	t.Helper()
	s := New(nil)
	defer s.Close()
	script, err := Compile(code)
	if err != nil {
		t.Fatalf("%s: %v", code, err)
	}
	fn, args := s.Load(script)
	s.L.Push(fn)
	for _, a := range args {
		s.L.Push(a)
	}
	if err := s.L.PCall(len(args), 0, nil); err != nil {
		t.Fatalf("%s: %v", code, err)
	}
	values, _ := s.Results()
	r, err := s.RenderResult(values, keep)
	if err != nil {
		t.Fatalf("%s: %v", code, err)
	}
	return r
}

// A table whose keys write the same JSON name keeps one of them, so that
// the result is always valid JSON: a string key keeps its name, and of
// other keys of one name the first in the table's order; the others are
// counted as left out.
func TestRenderedKeysAreUnique(t *testing.T) {
	for code, want := range map[string]struct {
		json    string
		leftOut int
	}{
		`return {[1] = "int", ["1"] = "str"}`:                                  {`{"1":"str"}`, 1},
		`return {["1"] = "str", [1] = "int"}`:                                  {`{"1":"str"}`, 1},
		`return {[true] = 1, ["true"] = 2, [false] = 3}`:                       {`{"false":3,"true":2}`, 1},
		`return {[1e15] = "a", [1e15 + 1] = "b"}`:                              {`{"1e+15":"a"}`, 1},
		`return {[print] = 1, [type] = 2, x = 3}`:                              {`{"<function>":1,"x":3}`, 1},
		`return {[2] = "two", ["2"] = "s", a = {[1] = 1, ["1"] = 2, [2] = 3}}`: {`{"2":"s","a":{"1":2,"2":3}}`, 2},
		`return {1, 2, 3}`:                                                     {`[1,2,3]`, 0},
		`return {a = 1, [1.5] = 2}`:                                            {`{"1.5":2,"a":1}`, 0},
	} {
		got := evalRendered(t, code, 1<<20)
		if got.Text != want.json || got.LeftOut != want.leftOut {
			t.Errorf("%s: %s with %d left out, want %s with %d", code, got.Text, got.LeftOut, want.json, want.leftOut)
		}
		// Counted rather than built, the length is the same.
		if cut := evalRendered(t, code, 2); cut.Chars != got.Chars || cut.LeftOut != got.LeftOut {
			t.Errorf("%s: counted %d characters and %d left out, built %d and %d", code, cut.Chars, cut.LeftOut, got.Chars, got.LeftOut)
		}
	}
}

// fuzzKeys are the keys FuzzRenderedKeys builds tables from: numbers and
// strings that write the same names, booleans and their names, functions,
// tables, and numbers that print alike.
var fuzzKeys = []string{
	"1", `"1"`, "2", `"2"`, "1.5", `"1.5"`, "true", `"true"`, "false", `"false"`,
	"print", "type", `"<function>"`, "{}", `"<table>"`, "1e15", "1e15 + 1", `"1e+15"`, "-1", `"-1"`, "0", `"0"`,
}

// FuzzRenderedKeys builds tables, nested, from keys that write the same
// JSON names, and checks that what a script returns is valid JSON with no
// key twice in an object, that counting gives the length building does,
// and that every key is written or counted as left out.
func FuzzRenderedKeys(f *testing.F) {
	f.Add([]byte{0, 1})
	f.Add([]byte{6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17})
	f.Add([]byte{0, 1, 255, 2, 3, 254, 4, 5})
	f.Fuzz(func(t *testing.T, program []byte) {
		var b bytes.Buffer
		b.WriteString("local t, n = {}, 0\nlocal cur = t\n")
		for i, op := range program {
			switch {
			case op == 255: // open a nested table under the next key
				fmt.Fprintf(&b, "do local inner = {} cur[%q .. %d] = inner cur = inner end\n", "nest", i)
			case op == 254: // back to the top
				b.WriteString("cur = t\n")
			default:
				fmt.Fprintf(&b, "cur[%s] = %d\n", fuzzKeys[int(op)%len(fuzzKeys)], i)
			}
		}
		b.WriteString("return t")
		got := evalRendered(t, b.String(), 1<<20)
		doc, err := jsontext.Parse(got.Text)
		if err != nil || !json.Valid([]byte(got.Text)) {
			t.Fatalf("%s\nis not valid JSON (%v): %s", b.String(), err, got.Text)
		}
		if key, twice := doc.RepeatedKey(); twice {
			t.Fatalf("%s\nwrites key %q twice: %s", b.String(), key, got.Text)
		}
		if cut := evalRendered(t, b.String(), 1); cut.Chars != got.Chars || cut.LeftOut != got.LeftOut {
			t.Fatalf("%s\ncounted %d characters and %d left out, built %d and %d", b.String(), cut.Chars, cut.LeftOut, got.Chars, got.LeftOut)
		}
	})
}
