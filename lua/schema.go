package lua

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Schema is a tool's input JSON Schema, parsed once per run. It is used
// for one thing only: deciding whether an empty Lua table at some position
// encodes as [] (the schema declares an array there) or {}. It validates
// nothing.
type Schema struct {
	root any
}

// maxRefHops bounds $ref chains, so a schema whose refs loop cannot hang.
const maxRefHops = 32

// ParseSchema parses a JSON Schema; empty input gives a nil *Schema, which
// is valid and declares nothing.
func ParseSchema(raw json.RawMessage) (*Schema, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var root any
	if err := json.Unmarshal(raw, &root); err != nil {
		return nil, fmt.Errorf("input schema is not valid JSON: %w", err)
	}
	return &Schema{root: root}, nil
}

// resolve follows local $refs ("#/$defs/x", "#/definitions/x", any JSON
// pointer into the document) and returns the node as an object.
func (s *Schema) resolve(node any) map[string]any {
	for range maxRefHops {
		m, ok := node.(map[string]any)
		if !ok {
			return nil
		}
		ref, ok := m["$ref"].(string)
		if !ok || s == nil {
			return m
		}
		node = s.pointer(ref)
	}
	return nil
}

func (s *Schema) pointer(ref string) any {
	if !strings.HasPrefix(ref, "#") {
		return nil
	}
	node := s.root
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#"), "/")[1:] {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		m, ok := node.(map[string]any)
		if !ok {
			return nil
		}
		node = m[part]
	}
	return node
}

// branches are the node itself and its anyOf/oneOf/allOf alternatives.
func (s *Schema) branches(node any) []map[string]any {
	m := s.resolve(node)
	if m == nil {
		return nil
	}
	out := []map[string]any{m}
	for _, key := range []string{"anyOf", "oneOf", "allOf"} {
		alts, _ := m[key].([]any)
		for _, alt := range alts {
			if b := s.resolve(alt); b != nil {
				out = append(out, b)
			}
		}
	}
	return out
}

func hasType(m map[string]any, want string) bool {
	switch t := m["type"].(type) {
	case string:
		return t == want
	case []any:
		for _, x := range t {
			if x == want {
				return true
			}
		}
	}
	return false
}

// wantsArray reports whether the schema at node declares an array and not
// an object.
func (s *Schema) wantsArray(node any) bool {
	array, object := false, false
	for _, b := range s.branches(node) {
		array = array || hasType(b, "array") || b["items"] != nil || b["prefixItems"] != nil
		object = object || hasType(b, "object") || b["properties"] != nil
	}
	return array && !object
}

// property returns the schema of field name under node.
func (s *Schema) property(node any, name string) any {
	for _, b := range s.branches(node) {
		if props, ok := b["properties"].(map[string]any); ok {
			if p, ok := props[name]; ok {
				return p
			}
		}
	}
	for _, b := range s.branches(node) {
		if extra, ok := b["additionalProperties"].(map[string]any); ok {
			return extra
		}
	}
	return nil
}

// item returns the schema of array element i (0-based) under node.
func (s *Schema) item(node any, i int) any {
	for _, b := range s.branches(node) {
		if prefix, ok := b["prefixItems"].([]any); ok && i < len(prefix) {
			return prefix[i]
		}
		switch items := b["items"].(type) {
		case map[string]any:
			return items
		case []any: // draft-04 tuples
			if i < len(items) {
				return items[i]
			}
		}
	}
	return nil
}
