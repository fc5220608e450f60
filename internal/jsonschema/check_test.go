package jsonschema

import (
	"strings"
	"testing"

	"github.com/execlua/execlua/internal/jsontext"
)

// Check refuses only what breaks the schema for certain: alternatives,
// several allOf branches and unknown values pass; $refs are followed.
func TestCheckIsConservative(t *testing.T) {
	for _, c := range []struct{ schema, value, want string }{
		{`{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}`, `{"a":true}`, ""},
		{`{"type":"object","properties":{"a":{"allOf":[{"type":"string"},{"minLength":1}]}}}`, `{"a":1}`, ""},
		{`{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}},"$defs":{"n":{"type":"integer"}}}`, `{"a":"x"}`, "args.a: want integer, got string"},
		{`{"type":"object","additionalProperties":false,"patternProperties":{"^x":{}}}`, `{"xa":1}`, ""},
		{`{"type":"object","additionalProperties":{"type":"string"}}`, `{"k-1":2}`, `args["k-1"]: want string, got integer`},
		{`{"type":"object","required":["a","b"]}`, `{"b":null}`, "args.a: required, missing"},
		{`{"type":"array","items":{"enum":[1,2]}}`, `[1,2.0,3]`, "args[3]: want one of 1, 2, got 3"},
		{`{"type":"object","properties":{"end":{"type":"string"}},"additionalProperties":false}`, `{"end":"x","and":1}`, `args["and"]: not a parameter (it takes end)`},
		{`{"type":["string","null"]}`, `null`, ""},
		{`{"type":"integer"}`, `1e3`, ""},
	} {
		root, err := jsontext.Parse(c.schema)
		if err != nil {
			t.Fatal(err)
		}
		v, err := jsontext.Parse(c.value)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range Check(root, root, v, "args") {
			got = append(got, p.String())
		}
		if strings.Join(got, "; ") != c.want {
			t.Errorf("%s against %s: %q, want %q", c.value, c.schema, got, c.want)
		}
	}
	// A value of Kind Unknown passes wherever it is.
	root, _ := jsontext.Parse(`{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}`)
	v := &jsontext.Value{Kind: 'o', Members: []jsontext.Member{{Key: "a", Value: &jsontext.Value{Kind: Unknown}}}}
	if ps := Check(root, root, v, "args"); len(ps) != 0 {
		t.Errorf("an unknown value: %v", ps)
	}
}
