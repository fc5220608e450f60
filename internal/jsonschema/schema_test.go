package jsonschema

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/execlua/execlua/internal/jsontext"
)

func mustParse(t *testing.T, s string) *jsontext.Value {
	t.Helper()
	v, err := jsontext.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestResolve(t *testing.T) {
	root := mustParse(t, `{"$defs":{"a b":{"n":1},"a/b":{"n":2},"c~d":{"n":3},"%":{"n":4}},
		"allOf":[{"properties":{"xs":{"n":5}}}],"list":[{"n":6}]}`)
	for ref, want := range map[string]string{
		"#/$defs/a%20b":                 "1",
		"#/$defs/a~1b":                  "2",
		"#/$defs/a%2Fb":                 "2",
		"#/$defs/c~0d":                  "3",
		"#/$defs/%25":                   "4",
		"#/allOf/0/properties/xs":       "5",
		"#/list/0":                      "6",
		"#/list/1":                      "",
		"#/list/-1":                     "",
		"#/list/x":                      "",
		"#/$defs/missing":               "",
		"#/$defs/a b/n/deeper":          "",
		"https://example.com/s.json#/a": "",
		"#anchor":                       "",
	} {
		got := Resolve(root, ref).Get("n")
		if (got == nil) != (want == "") || got != nil && got.Str != want {
			t.Errorf("Resolve(%q) = %v, want %q", ref, got, want)
		}
	}
	if Resolve(root, "#") != root {
		t.Error(`"#" is not the root`)
	}
}

func TestDeref(t *testing.T) {
	root := mustParse(t, `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"type":"array"},"x":{"$ref":"#/$defs/y"},"y":{"$ref":"#/$defs/x"}}}`)
	if got := Deref(root, mustParse(t, `{"$ref":"#/$defs/a","type":"object"}`)); got.Text("type") != "array" {
		t.Errorf("chain: %v", got)
	}
	if got := Deref(root, mustParse(t, `{"$ref":"#/$defs/x"}`)); got != nil {
		t.Errorf("loop: %v", got)
	}
	if got := Deref(root, mustParse(t, `{"$ref":"#/nowhere"}`)); got != nil {
		t.Errorf("dangling: %v", got)
	}
}

func TestAllowedTypes(t *testing.T) {
	for schema, want := range map[string][]string{
		`{"type":"string"}`:                {"string"},
		`{"type":["integer","null"]}`:      {"integer", "null"},
		`{"type":"array","nullable":true}`: {"array", "null"},
		`{"nullable":true}`:                nil,
		`{"properties":{}}`:                {"object"},
		`{"items":{}}`:                     {"array"},
		`{"anyOf":[{"type":"string"},{"oneOf":[{"type":"boolean"}]}]}`: {"string", "boolean"},
		`{"type":"object","anyOf":[{"required":["a"]}]}`:               {"object"},
		`{"enum":[1,2]}`: nil,
		`{}`:             nil,
		`true`:           nil,
	} {
		v := mustParse(t, schema)
		if diff := cmp.Diff(want, AllowedTypes(v, v)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", schema, diff)
		}
	}
}

func TestPropertyAndItem(t *testing.T) {
	root := mustParse(t, `{"$defs":{"base":{"properties":{"a":{"type":"array"}}}},
		"allOf":[{"$ref":"#/$defs/base"}],"properties":{"b":{"prefixItems":[{"type":"string"}],"items":{"type":"integer"}},
		"c":{"items":[{"type":"boolean"}]},"m":{"additionalProperties":{"type":"array"}}}}`)
	if !WantsArray(root, Property(root, root, "a")) {
		t.Error("a property from an allOf $ref is lost")
	}
	b := Property(root, root, "b")
	if Item(root, b, 0).Text("type") != "string" || Item(root, b, 1).Text("type") != "integer" {
		t.Error("prefixItems then items")
	}
	c := Property(root, root, "c")
	if Item(root, c, 0).Text("type") != "boolean" || Item(root, c, 1) != nil {
		t.Error("draft-04 tuple")
	}
	if !WantsArray(root, Property(root, Property(root, root, "m"), "anything")) {
		t.Error("additionalProperties")
	}
	if Property(root, root, "zzz") != nil {
		t.Error("unknown property")
	}
}

func TestAccepts(t *testing.T) {
	for _, tc := range []struct {
		v     string
		types []string
		want  bool
	}{
		{`"s"`, []string{"string"}, true},
		{`1`, []string{"string"}, false},
		{`1.5`, []string{"integer"}, false},
		{`2.0`, []string{"integer"}, true},
		{`1e400`, []string{"integer"}, true},
		{`1.5`, []string{"number"}, true},
		{`null`, []string{"null"}, true},
		{`0`, []string{"null"}, false},
		{`[]`, []string{"array", "null"}, true},
		{`{}`, []string{"array", "null"}, false},
		{`true`, []string{"boolean"}, true},
		{`{}`, nil, true},
		{`{}`, []string{"any"}, true},
		{`nope`, nil, false},
	} {
		if got := Accepts([]byte(tc.v), tc.types); got != tc.want {
			t.Errorf("Accepts(%s, %v) = %v", tc.v, tc.types, got)
		}
	}
}
