package luavm

import (
	"encoding/json"
	"fmt"

	"github.com/execlua/execlua/internal/jsonschema"

	"github.com/execlua/execlua/internal/jsontext"
)

// Schema is a tool's input JSON Schema, parsed once per run. It is used
// for one thing only: deciding whether an empty Lua table at some position
// encodes as [] (the schema declares an array there) or {}. It validates
// nothing. The reading of the schema ($refs, alternatives, inferred types)
// is jsonschema's, the same that renders signatures.
type Schema struct {
	root *schemaNode
}

// schemaNode is one position in a Schema; nil declares nothing.
type schemaNode = jsontext.Value

// ParseSchema parses a JSON Schema; empty input gives a nil *Schema, which
// is valid and declares nothing.
func ParseSchema(raw json.RawMessage) (*Schema, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	root, err := jsontext.Parse(string(raw))
	if err != nil {
		return nil, fmt.Errorf("input schema is not valid JSON: %w", err)
	}
	return &Schema{root: root}, nil
}

// wantsArray reports whether the schema at node declares an array and not
// an object.
func (s *Schema) wantsArray(node *schemaNode) bool {
	return s != nil && jsonschema.WantsArray(s.root, node)
}

// property returns the schema of field name under node.
func (s *Schema) property(node *schemaNode, name string) *schemaNode {
	if s == nil {
		return nil
	}
	return jsonschema.Property(s.root, node, name)
}

// item returns the schema of array element i (0-based) under node.
func (s *Schema) item(node *schemaNode, i int) *schemaNode {
	if s == nil {
		return nil
	}
	return jsonschema.Item(s.root, node, i)
}
