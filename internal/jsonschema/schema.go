package jsonschema

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/execlua/execlua/internal/jsontext"
)

// Resolve follows a local reference against the schema document root: "#"
// is root itself, "#/a/b" a JSON Pointer whose tokens are percent-decoded
// (a reference is a URI fragment) and then unescaped (~1 is /, ~0 is ~),
// walking object members by name and array elements by index. Remote
// references, anchors and pointers to nothing resolve to nil.
func Resolve(root *jsontext.Value, ref string) *jsontext.Value {
	if ref == "#" {
		return root
	}
	if !strings.HasPrefix(ref, "#/") {
		return nil
	}
	v := root
	for _, tok := range strings.Split(ref[2:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(unescapePercent(tok), "~1", "/"), "~0", "~")
		switch {
		case v == nil:
			return nil
		case v.Kind == 'o':
			v = v.Get(tok)
		case v.Kind == 'a':
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v.Members) {
				return nil
			}
			v = v.Members[i].Value
		default:
			return nil
		}
	}
	return v
}

func unescapePercent(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(n))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// maxRefHops bounds a chain of $refs, so that refs that loop cannot hang.
const maxRefHops = 32

// Deref returns the schema v stands for: v itself, or where its $ref chain
// ends. A $ref replaces its siblings. Nil when a reference dangles or the
// chain loops.
func Deref(root, v *jsontext.Value) *jsontext.Value {
	for range maxRefHops {
		ref := v.Get("$ref")
		if ref == nil || ref.Kind != 's' {
			return v
		}
		v = Resolve(root, ref.Str)
	}
	return nil
}

// Types lists the JSON types schema s declares, or the one its keywords
// imply (properties: object; items: array), or "any".
func Types(s *jsontext.Value) []string {
	if out := declared(s); len(out) > 0 {
		return out
	}
	switch {
	case s.Get("properties") != nil || s.Get("additionalProperties") != nil || s.Get("patternProperties") != nil:
		return []string{"object"}
	case s.Get("items") != nil || s.Get("prefixItems") != nil:
		return []string{"array"}
	}
	return []string{"any"}
}

// TypeIncludes reports whether s's type keyword names the type name.
func TypeIncludes(s *jsontext.Value, name string) bool {
	return slices.Contains(declared(s), name)
}

// declared lists the names in s's type keyword, a string or a list.
func declared(s *jsontext.Value) []string {
	t := s.Get("type")
	switch {
	case t != nil && t.Kind == 's':
		return []string{t.Str}
	case !t.IsArray():
		return nil
	}
	var out []string
	for _, x := range t.Members {
		if x.Value.Kind == 's' {
			out = append(out, x.Value.Str)
		}
	}
	return out
}

// Branches are the schemas a value at s must or may match: s itself with
// its $ref followed, then its allOf, anyOf and oneOf alternatives, theirs
// in turn, each schema once (a recursive definition is visited once).
func Branches(root, s *jsontext.Value) []*jsontext.Value {
	var out []*jsontext.Value
	var visit func(*jsontext.Value)
	visit = func(v *jsontext.Value) {
		v = Deref(root, v)
		if !v.IsObject() {
			return
		}
		for _, seen := range out {
			if seen == v {
				return
			}
		}
		out = append(out, v)
		for _, key := range [...]string{"allOf", "anyOf", "oneOf"} {
			if alts := v.Get(key); alts.IsArray() {
				for _, alt := range alts.Members {
					visit(alt.Value)
				}
			}
		}
	}
	visit(s)
	return out
}

// AllowedTypes lists the JSON types a value at s may have, gathered over
// its Branches (a union: lenient where allOf would intersect), with "null"
// added for OpenAPI's nullable. A branch that names no type (only
// constraints, like an anyOf entry that adds a required list) adds
// nothing. Nil means any type: no branch names one.
func AllowedTypes(root, s *jsontext.Value) []string {
	var out []string
	for _, b := range Branches(root, s) {
		ts := Types(b)
		if n := b.Get("nullable"); n != nil && n.Kind == 'b' && n.Bool && ts[0] != "any" {
			ts = append(ts, "null")
		}
		for _, t := range ts {
			if t != "any" && !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// WantsArray is the empty-table rule: it reports whether the schema at s
// allows an array and no object, so that an empty Lua table there is the
// JSON [] rather than {}.
func WantsArray(root, s *jsontext.Value) bool {
	array, object := false, false
	for _, t := range AllowedTypes(root, s) {
		array = array || t == "array"
		object = object || t == "object"
	}
	return array && !object
}

// Property returns the schema of member name of an object at s: a
// declared property, else additionalProperties when that is a schema.
func Property(root, s *jsontext.Value, name string) *jsontext.Value {
	branches := Branches(root, s)
	for _, b := range branches {
		if p := b.Get("properties").Get(name); p != nil {
			return p
		}
	}
	for _, b := range branches {
		if extra := b.Get("additionalProperties"); extra.IsObject() {
			return extra
		}
	}
	return nil
}

// Item returns the schema of element i (0-based) of an array at s.
func Item(root, s *jsontext.Value, i int) *jsontext.Value {
	for _, b := range Branches(root, s) {
		if prefix := b.Get("prefixItems"); prefix.IsArray() && i < len(prefix.Members) {
			return prefix.Members[i].Value
		}
		switch items := b.Get("items"); {
		case items.IsObject():
			return items
		case items.IsArray() && i < len(items.Members): // draft-04 tuples
			return items.Members[i].Value
		}
	}
	return nil
}

// Accepts reports whether the JSON value raw is of one of the types (any
// when types is empty or names "any"). It checks the type only: a value
// that is not JSON is of no type.
func Accepts(raw []byte, types []string) bool {
	v, err := jsontext.Parse(string(raw))
	if err != nil {
		return false
	}
	if len(types) == 0 {
		return true
	}
	for _, t := range types {
		switch t {
		case "any":
			return true
		case "number", "integer":
			if v.Kind != 'n' {
				continue
			}
			// The syntax is checked: an error is a number out of range,
			// ±Inf, which counts as whole.
			f, _ := strconv.ParseFloat(v.Str, 64)
			if t == "number" || f == math.Trunc(f) {
				return true
			}
		default:
			if kinds[t] == v.Kind {
				return true
			}
		}
	}
	return false
}

// kinds maps the other JSON Schema types to Value kinds.
var kinds = map[string]byte{"object": 'o', "array": 'a', "string": 's', "boolean": 'b', "null": 'z'}
