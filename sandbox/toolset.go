package sandbox

import (
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
func NewToolset(tools []Tool) *Toolset {
	ts := &Toolset{tools: tools, byName: make(map[string]*toolEntry, len(tools))}
	for _, t := range tools {
		ts.byName[t.Name] = &toolEntry{tool: t, schema: parsedOnce(func() []byte { return t.InputSchema })}
	}
	return ts
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
