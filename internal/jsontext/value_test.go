package jsontext

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The hand-written parser must agree with encoding/json on what is JSON
// and on what a string decodes to.
func TestParseJSONAgreesWithEncodingJSON(t *testing.T) {
	inputs := []string{
		`"plain"`, `"esc \" \\ \/ \b \f \n \r \t"`, `"\u00e9\u4e2d"`, `"\ud83d\ude00"`,
		`"\ud83d"`, `"\ude00x"`, `"\ud83d\u0041"`, "\"bad utf8 \xff\"", "\"\xff\xfe run\"", "\"\\n\xff\xff\"",
		`-0`, `1.5e+10`, `1e`, `.5`, `-`, `01`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `[1 2]`,
		`tru`, `nul`, `{}`, `[]`, ` [ {} , [ ] ] `, `{"a":{"b":[null,true,false]}}`,
	}
	for _, in := range inputs {
		v, err := Parse(in)
		if valid := json.Valid([]byte(in)); valid != (err == nil) {
			t.Errorf("%q: json.Valid = %v, Parse err = %v", in, valid, err)
			continue
		}
		if err == nil && v.Kind == 's' {
			var want string
			if err := json.Unmarshal([]byte(in), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, v.Str); diff != "" {
				t.Errorf("%q (-encoding/json +Parse):\n%s", in, diff)
			}
		}
	}
}

// A Reader steps through a document value by value: keys from Next,
// scalars whole from Value, containers opened by Value and closed by Next.
func TestReaderSteps(t *testing.T) {
	var r Reader
	r.Reset(` {"a": [1, "x", true, null], "b": {}} `)
	var got []string
	var walk func() error
	walk = func() error {
		kind, err := r.Value()
		if err != nil {
			return err
		}
		switch kind {
		case Object, Array:
			got = append(got, string(rune(kind))+"{")
			for {
				more, err := r.Next()
				if err != nil || !more {
					got = append(got, "}")
					return err
				}
				if kind == Object {
					got = append(got, "key "+r.Key)
				}
				if err := walk(); err != nil {
					return err
				}
			}
		case String, Number:
			got = append(got, string(rune(kind))+" "+r.Str)
		case Bool:
			got = append(got, string(rune(kind))+" "+strconv.FormatBool(r.Bool))
		default:
			got = append(got, string(rune(kind)))
		}
		return nil
	}
	if err := walk(); err != nil {
		t.Fatal(err)
	}
	if err := r.End(); err != nil {
		t.Fatal(err)
	}
	want := []string{"o{", "key a", "a{", "n 1", "s x", "b true", "z", "}", "key b", "o{", "}", "}"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
	r.Reset(`[1] x`)
	if _, err := r.Value(); err != nil {
		t.Fatal(err)
	}
	if more, err := r.Next(); !more || err != nil {
		t.Fatalf("Next = %v, %v", more, err)
	}
	r.Value()
	r.Next()
	if err := r.End(); err == nil || err.Error() != "invalid JSON at offset 4: unexpected data after the top-level value" {
		t.Errorf("End = %v", err)
	}
}

// RepeatedKey finds a key an object has twice, at any depth, and only
// within one object.
func TestRepeatedKey(t *testing.T) {
	for doc, want := range map[string]string{
		`{"a":1,"b":2}`:                 "",
		`{"a":1,"a":2}`:                 "a",
		`[{"x":{"k":1,"k":2}}]`:         "k",
		`{"a":{"b":1},"c":{"b":2}}`:     "",
		`["a","a"]`:                     "",
		`{"1":"int","1":"str"}`:         "1",
		`{"a":[{"z":1},{"z":2,"z":3}]}`: "z",
	} {
		v, err := Parse(doc)
		if err != nil {
			t.Fatal(err)
		}
		if key, twice := v.RepeatedKey(); key != want || twice != (want != "") {
			t.Errorf("%s: %q, %v; want %q", doc, key, twice, want)
		}
	}
}
