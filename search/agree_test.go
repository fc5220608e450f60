package search

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/execlua/execlua/internal/luavm"
	"github.com/execlua/execlua/render"
	glua "github.com/yuin/gopher-lua"
)

// One reader of JSON Schema: the signature (render), the empty-table rule
// (lua; the encoding ORCH-3 allows) and ToolSearch's argument check read
// the same awkward schemas the same way. For the probed field, all three
// must say whether it is an array and not an object: the signature's type
// has an array alternative and no object or any; an empty table there
// encodes as []; the argument check takes [] and refuses {}.
func TestSchemaReadersAgree(t *testing.T) {
	for _, tc := range []struct {
		name, schema, field string
		array               bool
	}{
		{"ref into allOf", `{"type":"object","allOf":[{"properties":{"xs":{"type":"array","items":{"type":"string"}}}}],"properties":{"ys":{"$ref":"#/allOf/0/properties/xs"}}}`, "ys", true},
		{"percent-encoded ref", `{"type":"object","$defs":{"a b":{"type":"array","items":{"type":"integer"}}},"properties":{"xs":{"$ref":"#/$defs/a%20b"}}}`, "xs", true},
		{"pointer escape ~1", `{"type":"object","$defs":{"a/b":{"type":"array"},"c~d":{"type":"object"}},"properties":{"xs":{"$ref":"#/$defs/a~1b"},"ys":{"$ref":"#/$defs/c~0d"}}}`, "xs", true},
		{"pointer escape ~0", `{"type":"object","$defs":{"a/b":{"type":"array"},"c~d":{"type":"object"}},"properties":{"xs":{"$ref":"#/$defs/a~1b"},"ys":{"$ref":"#/$defs/c~0d"}}}`, "ys", false},
		{"ref into an array element", `{"type":"object","$defs":{"pair":{"prefixItems":[{"type":"string"},{"type":"array","items":{"type":"number"}}]}},"properties":{"xs":{"$ref":"#/$defs/pair/prefixItems/1"}}}`, "xs", true},
		{"ref chain", `{"type":"object","definitions":{"a":{"$ref":"#/definitions/b"},"b":{"type":"array","items":{"type":"string"}}},"properties":{"xs":{"$ref":"#/definitions/a"}}}`, "xs", true},
		{"recursive definition", `{"type":"object","$defs":{"node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}}}},"properties":{"xs":{"$ref":"#/$defs/node/properties/kids"}}}`, "xs", true},
		{"recursive root", `{"type":"object","properties":{"self":{"$ref":"#"}}}`, "self", false},
		{"refs that loop", `{"type":"object","$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"properties":{"xs":{"$ref":"#/$defs/a"}}}`, "xs", false},
		{"dangling ref", `{"type":"object","properties":{"xs":{"$ref":"#/$defs/missing"}}}`, "xs", false},
		{"remote ref", `{"type":"object","properties":{"xs":{"$ref":"https://example.com/list.json"}}}`, "xs", false},
		{"anyOf of arrays", `{"type":"object","properties":{"xs":{"anyOf":[{"type":"array","items":{"type":"string"}},{"type":"array","items":{"type":"integer"}}]}}}`, "xs", true},
		{"oneOf array or null", `{"type":"object","properties":{"xs":{"oneOf":[{"type":"array","items":{"type":"string"}},{"type":"null"}]}}}`, "xs", true},
		{"anyOf array or string", `{"type":"object","properties":{"xs":{"anyOf":[{"type":"array"},{"type":"string"}]}}}`, "xs", true},
		{"anyOf array or object", `{"type":"object","properties":{"xs":{"anyOf":[{"type":"array"},{"type":"object","properties":{"a":{"type":"string"}}}]}}}`, "xs", false},
		{"nested anyOf through a ref", `{"type":"object","$defs":{"list":{"type":"array","items":{"type":"string"}}},"properties":{"xs":{"anyOf":[{"anyOf":[{"$ref":"#/$defs/list"}]},{"type":"null"}]}}}`, "xs", true},
		{"allOf with a ref", `{"type":"object","$defs":{"list":{"type":"array","items":{"type":"string"}}},"properties":{"xs":{"allOf":[{"$ref":"#/$defs/list"}],"description":"Some items."}}}`, "xs", true},
		{"nullable array", `{"type":"object","properties":{"xs":{"type":"array","items":{"type":"string"},"nullable":true}}}`, "xs", true},
		{"type list with null", `{"type":"object","properties":{"xs":{"type":["array","null"],"items":{"type":"string"}}}}`, "xs", true},
		{"type list array or object", `{"type":"object","properties":{"xs":{"type":["array","object"]}}}`, "xs", false},
		{"type list string or array", `{"type":"object","properties":{"xs":{"type":["string","array"]}}}`, "xs", true},
		{"items without type", `{"type":"object","properties":{"xs":{"items":{"type":"string"}}}}`, "xs", true},
		{"tuple", `{"type":"object","properties":{"xs":{"prefixItems":[{"type":"string"},{"type":"integer"}]}}}`, "xs", true},
		{"map", `{"type":"object","properties":{"xs":{"type":"object","additionalProperties":{"type":"array"}}}}`, "xs", false},
		{"untyped", `{"type":"object","properties":{"xs":{"description":"Anything."}}}`, "xs", false},
		{"constraints beside a type", `{"type":"object","properties":{"xs":{"type":"array","anyOf":[{"minItems":1},{"maxItems":0}]}}}`, "xs", true},
	} {
		got := map[string]bool{
			"signature":        renderSaysArray(t, tc.schema, tc.field),
			"empty-table rule": luaSendsArray(t, tc.schema, tc.field),
			"argument check":   checkTakesArray(tc.schema, tc.field),
		}
		for reader, array := range got {
			if array != tc.array {
				t.Errorf("%s: the %s says array=%v, want %v", tc.name, reader, array, tc.array)
			}
		}
	}
}

// renderSaysArray reads field's type from the tool's signature: a field of
// the Args class, or a member of the inline table type.
func renderSaysArray(t *testing.T, schema, field string) bool {
	t.Helper()
	sig, err := render.Signature("t", json.RawMessage(schema), nil)
	if err != nil {
		t.Fatalf("%s: %v", schema, err)
	}
	var typ string
	if i := strings.Index(sig, "---@class t.Args\n"); i >= 0 {
		class, _, _ := strings.Cut(sig[i:], "\n\n")
		m := regexp.MustCompile(`(?m)^---@field ` + field + `\??\s(.*)$`).FindStringSubmatch(class)
		if m == nil {
			t.Fatalf("no field %s in\n%s", field, sig)
		}
		typ = topType(m[1], ' ')
	} else {
		_, rest, ok := strings.Cut(sig, " "+field+"?: ")
		if !ok {
			_, rest, ok = strings.Cut(sig, " "+field+": ")
		}
		if !ok {
			t.Fatalf("no member %s in\n%s", field, sig)
		}
		typ = strings.TrimSpace(topType(rest, ','))
	}
	array, other := false, false
	for rest := typ; rest != ""; {
		part := topType(rest, '|')
		rest = strings.TrimPrefix(rest[len(part):], "|")
		part = strings.TrimSuffix(strings.TrimPrefix(part, "("), ")")
		switch {
		case strings.HasSuffix(part, "[]") || strings.HasPrefix(part, "["):
			array = true
		case part == "string" || part == "integer" || part == "number" || part == "boolean" || part == "nil" || strings.HasPrefix(part, `"`):
		default: // an object, a class, a map or any
			other = true
		}
	}
	return array && !other
}

// topType returns the type at the start of s, up to stop (or a closing
// brace or a line end) outside brackets.
func topType(s string, stop byte) string {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '(' || c == '[' || c == '{' || c == '<':
			depth++
		case (c == ')' || c == ']' || c == '}' || c == '>') && depth > 0:
			depth--
		case depth == 0 && (c == stop || c == '}' || c == '\n'):
			return s[:i]
		}
	}
	return s
}

// luaSendsArray encodes { field = {} } as the tool's arguments.
func luaSendsArray(t *testing.T, schema, field string) bool {
	t.Helper()
	s, err := luavm.ParseSchema(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	L := glua.NewState()
	defer L.Close()
	args := L.NewTable()
	args.RawSetString(field, L.NewTable())
	out, err := luavm.ToJSON(L, args, s, "args", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	return string(out) == `{"`+field+`":[]}`
}

// checkTakesArray asks the argument check about [] and {} for field.
func checkTakesArray(schema, field string) bool {
	spec := specOf(schema)
	takes := func(v string) bool {
		_, err := spec.parse(json.RawMessage(`{"` + field + `":` + v + `}`))
		return err == nil || !strings.Contains(err.Error(), `field "`+field+`"`)
	}
	return takes(`[]`) && !takes(`{}`)
}
