package jsonschema

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/execlua/execlua/internal/jsontext"
)

// Unknown is the Kind of a value whose contents are not known: Check
// takes it for whatever the schema wants. Preflight uses it for every
// argument that is not a literal.
const Unknown byte = 0

// Problem is one place where a value breaks its schema. Path is in Lua
// syntax from the root the caller named (args.items[2].id, 1-based as a
// script indexes); Message says what was wanted.
type Problem struct {
	Path    string
	Message string
}

func (p Problem) String() string { return p.Path + ": " + p.Message }

// Check returns where v breaks schema s (a position in the document root),
// each place once, in document order. It is conservative: it checks only
// what it can decide alone at one position (type, enum, required members,
// members a closed object does not declare, and the same below), and a
// position with alternatives (anyOf, oneOf) or several allOf branches is
// taken as valid, so that a value Check passes may still be refused by the
// tool, but a value it refuses breaks the schema for certain.
func Check(root, s *jsontext.Value, v *jsontext.Value, path string) []Problem {
	var out []Problem
	check(root, s, v, path, &out, 0)
	return out
}

// maxCheckDepth bounds the walk, as schemas and values may nest deeply.
const maxCheckDepth = 64

func check(root, s, v *jsontext.Value, path string, out *[]Problem, depth int) {
	branches := Branches(root, s)
	if v == nil || v.Kind == Unknown || len(branches) != 1 || depth > maxCheckDepth {
		return
	}
	b := branches[0]
	if types := AllowedTypes(root, b); len(types) > 0 && !acceptsValue(v, types) {
		*out = append(*out, Problem{path, fmt.Sprintf("want %s, got %s", strings.Join(types, " or "), kindName(v))})
		return
	}
	if enum := b.Get("enum"); enum.IsArray() && !inEnum(v, enum) {
		*out = append(*out, Problem{path, "want one of " + enumList(enum) + ", got " + scalarText(v)})
		return
	}
	switch v.Kind {
	case 'o':
		checkObject(root, b, v, path, out, depth)
	case 'a':
		for i, m := range v.Members {
			if item := Item(root, b, i); item != nil {
				check(root, item, m.Value, fmt.Sprintf("%s[%d]", path, i+1), out, depth+1)
			}
		}
	}
}

// checkObject checks an object's members against b, a single branch.
func checkObject(root, b, v *jsontext.Value, path string, out *[]Problem, depth int) {
	if req := b.Get("required"); req.IsArray() {
		for _, r := range req.Members {
			if r.Value.Kind == 's' && v.Get(r.Value.Str) == nil {
				*out = append(*out, Problem{member(path, r.Value.Str), "required, missing"})
			}
		}
	}
	props := b.Get("properties")
	closed := b.Get("additionalProperties")
	forbids := closed != nil && closed.Kind == 'b' && !closed.Bool && b.Get("patternProperties") == nil
	for _, m := range v.Members {
		p := props.Get(m.Key)
		if p == nil && forbids {
			*out = append(*out, Problem{member(path, m.Key), "not a parameter" + declaredList(props)})
			continue
		}
		if p == nil && closed.IsObject() && b.Get("patternProperties") == nil {
			p = closed
		}
		if p != nil {
			check(root, p, m.Value, member(path, m.Key), out, depth+1)
		}
	}
}

// member is the path of field key under path, in Lua syntax.
func member(path, key string) string {
	if isIdentifier(key) {
		return path + "." + key
	}
	return path + "[" + strconv.Quote(key) + "]"
}

func isIdentifier(s string) bool {
	if s == "" || luaKeywords[s] {
		return false
	}
	for i, r := range s {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

var luaKeywords = map[string]bool{"and": true, "break": true, "do": true, "else": true, "elseif": true, "end": true,
	"false": true, "for": true, "function": true, "if": true, "in": true, "local": true, "nil": true, "not": true,
	"or": true, "repeat": true, "return": true, "then": true, "true": true, "until": true, "while": true}

// declaredList names the declared properties, for a "not a parameter"
// message.
func declaredList(props *jsontext.Value) string {
	if !props.IsObject() || len(props.Members) == 0 {
		return " (the tool takes none)"
	}
	names := make([]string, len(props.Members))
	for i, m := range props.Members {
		names[i] = m.Key
	}
	return " (it takes " + strings.Join(names, ", ") + ")"
}

func acceptsValue(v *jsontext.Value, types []string) bool {
	for _, t := range types {
		switch t {
		case "number":
			if v.Kind == 'n' {
				return true
			}
		case "integer":
			if v.Kind == 'n' {
				f, _ := strconv.ParseFloat(v.Str, 64)
				if f == math.Trunc(f) {
					return true
				}
			}
		default:
			if kinds[t] == v.Kind {
				return true
			}
		}
	}
	return false
}

func kindName(v *jsontext.Value) string {
	switch v.Kind {
	case 'n':
		if f, _ := strconv.ParseFloat(v.Str, 64); f != math.Trunc(f) {
			return "number " + v.Str
		}
		return "integer"
	case 'o':
		return "object"
	case 'a':
		return "array"
	case 's':
		return "string"
	case 'b':
		return "boolean"
	}
	return "null"
}

func inEnum(v *jsontext.Value, enum *jsontext.Value) bool {
	for _, e := range enum.Members {
		if sameScalar(v, e.Value) {
			return true
		}
		if k := e.Value.Kind; k == 'o' || k == 'a' {
			return true // a structured member: not compared, so not refused
		}
	}
	return false
}

func sameScalar(a, b *jsontext.Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case 'n':
		x, _ := strconv.ParseFloat(a.Str, 64)
		y, _ := strconv.ParseFloat(b.Str, 64)
		return x == y
	case 's':
		return a.Str == b.Str
	case 'b':
		return a.Bool == b.Bool
	}
	return a.Kind == 'z'
}

func enumList(enum *jsontext.Value) string {
	parts := make([]string, len(enum.Members))
	for i, e := range enum.Members {
		parts[i] = scalarText(e.Value)
	}
	return strings.Join(parts, ", ")
}

// scalarText is a scalar as a script would write it.
func scalarText(v *jsontext.Value) string {
	switch v.Kind {
	case 's':
		return strconv.Quote(v.Str)
	case 'n':
		return v.Str
	case 'b':
		return strconv.FormatBool(v.Bool)
	case 'z':
		return "nil"
	}
	return kindName(v)
}
