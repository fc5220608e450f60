package sandbox

import (
	"bytes"
	"sync"

	"github.com/execlua/execlua/internal/luavm"
)

// Toolset is a reachable set prepared for many runs: the name map, and
// each tool's input schema parsed at its first call. It is built once per
// pool and shared read-only by every run that reaches that pool, so a run
// costs the same whatever the pool's size.
type Toolset struct {
	tools  []Tool
	byName map[string]*toolEntry
}

type toolEntry struct {
	tool   Tool
	schema func() *luavm.Schema
}

// NewToolset prepares tools for runs; a repeated name keeps its last tool.
func NewToolset(tools []Tool) *Toolset { return (*Toolset)(nil).Update(tools) }

// Update returns a set prepared for tools that reuses ts's entry of every
// tool whose name and input schema did not change, with its schema parsed
// already when a run has called it: a pool reassembled when one server
// connects prepares only that server's tools again. ts is left as it was
// (runs may be using it); a nil ts prepares every tool.
func (ts *Toolset) Update(tools []Tool) *Toolset {
	next := &Toolset{tools: tools, byName: make(map[string]*toolEntry, len(tools))}
	for _, t := range tools {
		if old := ts.lookup(t.Name); old != nil && bytes.Equal(old.tool.InputSchema, t.InputSchema) {
			next.byName[t.Name] = old
			continue
		}
		next.byName[t.Name] = &toolEntry{tool: t, schema: parsedOnce(func() []byte { return t.InputSchema })}
	}
	return next
}

// NewLazyToolset prepares a set known by its names, whose input schemas
// are fetched by schema at a tool's first call with arguments: a worker
// process learns the names with its run and asks its host for a schema
// only when it needs one. Tools of such a set have no InputSchema.
func NewLazyToolset(names []string, schema func(name string) []byte) *Toolset {
	ts := &Toolset{byName: make(map[string]*toolEntry, len(names))}
	for _, name := range names {
		t := Tool{Name: name}
		ts.tools = append(ts.tools, t)
		ts.byName[name] = &toolEntry{tool: t, schema: parsedOnce(func() []byte { return schema(name) })}
	}
	return ts
}

// parsedOnce parses an input schema at first use; a schema that does not
// parse (or cannot be had) only loses the empty-array rule.
func parsedOnce(raw func() []byte) func() *luavm.Schema {
	return sync.OnceValue(func() *luavm.Schema {
		schema, _ := luavm.ParseSchema(raw())
		return schema
	})
}

// Tools returns the tools the set was prepared from, in their order: what a
// worker process needs to prepare the same set on its side.
func (ts *Toolset) Tools() []Tool {
	if ts == nil {
		return nil
	}
	return ts.tools
}

func (ts *Toolset) lookup(name string) *toolEntry {
	if ts == nil {
		return nil
	}
	return ts.byName[name]
}
