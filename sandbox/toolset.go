package sandbox

import (
	"bytes"
	"slices"
	"strings"
	"sync"

	"github.com/execlua/execlua/internal/luavm"
	"github.com/execlua/execlua/internal/overlay"
)

// Toolset is a reachable set prepared for many runs: the name map, and
// each tool's input schema parsed at its first call. It is built once per
// pool and shared read-only by every run that reaches that pool, so a run
// costs the same whatever the pool's size.
type Toolset struct {
	tools  func() []Tool
	byName *overlay.Map[*toolEntry]
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
	byName := make(map[string]*toolEntry, len(tools))
	for _, t := range tools {
		byName[t.Name] = ts.entry(t)
	}
	return &Toolset{tools: func() []Tool { return tools }, byName: overlay.New(byName)}
}

// With returns a set prepared for ts's tools less those named in left,
// with joined added (a tool of the same name replaced), at a cost that
// follows the change: what a pool where one server joined or left needs.
// Its Tools are listed by name, made at the first call. ts is left as it
// was, and the new set keeps nothing of it but shared entries.
func (ts *Toolset) With(joined []Tool, left []string) *Toolset {
	set := make(map[string]*toolEntry, len(joined))
	for _, t := range joined {
		set[t.Name] = ts.entry(t)
	}
	byName := ts.names().With(set, left)
	return &Toolset{byName: byName, tools: sync.OnceValue(func() []Tool {
		tools := make([]Tool, 0, byName.Len())
		byName.All(func(_ string, e *toolEntry) bool {
			tools = append(tools, e.tool)
			return true
		})
		slices.SortFunc(tools, func(a, b Tool) int { return strings.Compare(a.Name, b.Name) })
		return tools
	})}
}

// entry is ts's entry of t when its input schema did not change (its
// schema parsed already when a run has called it), else a new one.
func (ts *Toolset) entry(t Tool) *toolEntry {
	if old := ts.lookup(t.Name); old != nil && bytes.Equal(old.tool.InputSchema, t.InputSchema) {
		return old
	}
	return &toolEntry{tool: t, schema: parsedOnce(func() []byte { return t.InputSchema })}
}

func (ts *Toolset) names() *overlay.Map[*toolEntry] {
	if ts == nil {
		return nil
	}
	return ts.byName
}

// NewLazyToolset prepares a set known by its names, whose input schemas
// are fetched by schema at a tool's first call with arguments: a worker
// process learns the names with its run and asks its host for a schema
// only when it needs one. Tools of such a set have no InputSchema.
func NewLazyToolset(names []string, schema func(name string) []byte) *Toolset {
	tools, byName := make([]Tool, 0, len(names)), make(map[string]*toolEntry, len(names))
	for _, name := range names {
		t := Tool{Name: name}
		tools = append(tools, t)
		byName[name] = &toolEntry{tool: t, schema: parsedOnce(func() []byte { return schema(name) })}
	}
	return &Toolset{tools: func() []Tool { return tools }, byName: overlay.New(byName)}
}

// parsedOnce parses an input schema at first use; a schema that does not
// parse (or cannot be had) only loses the empty-array rule.
func parsedOnce(raw func() []byte) func() *luavm.Schema {
	return sync.OnceValue(func() *luavm.Schema {
		schema, _ := luavm.ParseSchema(raw())
		return schema
	})
}

// Tools returns the tools the set was prepared from, in their order (by
// name for a set made by With): what a worker process needs to prepare the
// same set on its side.
func (ts *Toolset) Tools() []Tool {
	if ts == nil {
		return nil
	}
	return ts.tools()
}

func (ts *Toolset) lookup(name string) *toolEntry {
	e, _ := ts.names().Get(name)
	return e
}
