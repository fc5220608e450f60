package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/execlua/execlua"
)

// executor performs one tool call after the permission check and the
// PreToolUse hook: the shape of the host's Execute middleware, which is
// where dry runs, recording and replay plug in, so that permissions and
// hooks apply to them exactly as to a real call.
type executor = func(ctx context.Context, tool execlua.Tool, call execlua.Call) (execlua.Output, error)

// dryRun performs the calls of tools annotated read-only and answers every
// other call without performing it, keeping it to be listed afterwards.
type dryRun struct {
	mu      sync.Mutex
	skipped []execlua.Call
}

func (d *dryRun) wrap(next executor) executor {
	return func(ctx context.Context, tool execlua.Tool, call execlua.Call) (execlua.Output, error) {
		if tool.Annotations.ReadOnly() {
			return next(ctx, tool, call)
		}
		d.mu.Lock()
		d.skipped = append(d.skipped, call)
		d.mu.Unlock()
		return standIn(tool), nil
	}
}

// calls are the calls that were answered without being performed, in order.
func (d *dryRun) calls() []execlua.Call {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.skipped
}

// standIn is the answer to a call a dry run does not perform: a value of
// the shape the tool's outputSchema declares, so that a script reading a
// field finds one, or a line of text saying the call was skipped for a tool
// that declares none.
func standIn(tool execlua.Tool) execlua.Output {
	if len(tool.OutputSchema) > 0 {
		var schema any
		if json.Unmarshal(tool.OutputSchema, &schema) == nil {
			if v, err := json.Marshal(placeholder(schema, 0)); err == nil {
				return execlua.Output{Structured: v}
			}
		}
	}
	return execlua.Output{Text: []string{fmt.Sprintf("(dry run: %s was not performed)", tool.Name)}}
}

// placeholderDepth bounds placeholder's descent, as rendering bounds its
// own: deeper levels are left nil.
const placeholderDepth = 8

// placeholder builds the plainest value a JSON Schema allows: its const,
// default or first enum value if it has one; else the first alternative of
// anyOf or oneOf; else by its first non-null type, every declared property
// of an object, an empty array, "", 0 or false; nil for anything else
// ($ref included).
func placeholder(schema any, depth int) any {
	s, ok := schema.(map[string]any)
	if !ok || depth > placeholderDepth {
		return nil
	}
	for _, key := range []string{"const", "default"} {
		if v, ok := s[key]; ok {
			return v
		}
	}
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if alts, ok := s[key].([]any); ok && len(alts) > 0 {
			return placeholder(alts[0], depth+1)
		}
	}
	typ, _ := s["type"].(string)
	if alts, ok := s["type"].([]any); ok {
		// The first type that is not null: a value beats nil to go on with.
		for _, alt := range alts {
			if name, _ := alt.(string); name != "null" {
				typ = name
				break
			}
		}
	}
	if props, ok := s["properties"].(map[string]any); ok && (typ == "" || typ == "object") {
		obj := make(map[string]any, len(props))
		for name, prop := range props {
			if v := placeholder(prop, depth+1); v != nil {
				obj[name] = v
			}
		}
		return obj
	}
	switch typ {
	case "object":
		return map[string]any{}
	case "array":
		return []any{}
	case "string":
		return ""
	case "integer", "number":
		return 0
	case "boolean":
		return false
	}
	return nil
}
