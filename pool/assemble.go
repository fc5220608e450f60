package pool

import (
	"encoding/json"
	"errors"
	"fmt"
	"iter"

	"github.com/execlua/execlua/internal/overlay"
	"github.com/execlua/execlua/internal/toolname"
)

// The names the sandbox assigns on its tools table. A pool tool with one of
// these names would be silently shadowed there, so Assemble refuses it.
const (
	SearchName   = toolname.ToolSearch
	ParallelName = toolname.Parallel
)

// Errors Assemble reports, wrapped in a *NameError that names the tool.
var (
	ErrEmptyName     = errors.New("name is empty")
	ErrDuplicateName = errors.New("name is registered more than once")
	ErrReservedName  = errors.New("name is reserved on the sandbox's tools table (tools." + SearchName + ", tools." + ParallelName + ")")
)

// NameError says which tool made Assemble fail; errors.Is matches its Err.
type NameError struct {
	Name string
	Err  error
}

func (e *NameError) Error() string { return fmt.Sprintf("pool: tool %q: %v", e.Name, e.Err) }
func (e *NameError) Unwrap() error { return e.Err }

// Options are the host's policy, settings and permissions. The zero value
// (and nil) means: Exec enabled, nothing exempt, no non-deferred lists,
// nothing denied.
type Options struct {
	// Exempt names tools the host never defers, whatever they ask: for a
	// coding agent the core loop it calls every turn, where wrapping each
	// call in a script would cost more than the schemas save (package
	// host/preset has that list). Exec itself is always exempt.
	Exempt []string
	// DisableExec is enableExec: false. Exec is then not declared and every
	// permitted tool is declared flat.
	DisableExec bool
	// RemoteNonDeferred and LocalNonDeferred name builtins to keep out of the
	// pool, from remote settings and from the local settings file. Both
	// apply; unknown names are ignored.
	RemoteNonDeferred []string
	LocalNonDeferred  []string
	// Denied is the permission filter (disallowedTools, deny rules, a tool
	// missing from an allowed-tools list). It is applied once to every tool,
	// flat or deferred, and to Exec itself. Nil denies nothing.
	Denied func(name string) bool
}

func (o *Options) orDefault() *Options {
	if o == nil {
		return &Options{}
	}
	return o
}

func (o *Options) denied(name string) bool { return o.Denied != nil && o.Denied(name) }

// Declaration is one entry of tools[], in the shape of the Anthropic Messages
// API's tool definitions.
type Declaration struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Declaration returns t's flat declaration. The schema bytes are t's own (not
// copied, not re-encoded), so the declaration is byte-exact; an empty schema
// becomes {"type":"object"}.
func (t Tool) Declaration() Declaration {
	schema := t.InputSchema
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	return Declaration{Name: t.Name, Description: t.Description, InputSchema: schema}
}

// ExecStatus says whether Exec is declared and, if not, why.
type ExecStatus int

const (
	// ExecDeclared: enabled, allowed, and the pool is non-empty.
	ExecDeclared ExecStatus = iota
	// ExecDisabled: Options.DisableExec.
	ExecDisabled
	// ExecDenied: the permission filter denies Exec.
	ExecDenied
	// ExecEmptyPool: enabled and allowed, but nothing is deferred.
	ExecEmptyPool
)

func (s ExecStatus) String() string {
	switch s {
	case ExecDeclared:
		return "declared"
	case ExecDisabled:
		return "disabled"
	case ExecDenied:
		return "denied"
	case ExecEmptyPool:
		return "empty pool"
	}
	return "unknown"
}

// Enabled reports that Exec is switched on and not denied, whether or not an
// empty pool keeps it out of tools[]. The announcement needs the difference:
// an emptied pool is said as such, a withdrawn Exec as a closed channel.
func (s ExecStatus) Enabled() bool { return s == ExecDeclared || s == ExecEmptyPool }

// Assembly is what one request may use: the declarations, and the registered
// tools split into flat and pool. Denied tools are in none of them. Its
// methods only read, so concurrent Exec runs may share one Assembly.
type Assembly struct {
	// Tools is tools[]: Exec first when declared, then the flat tools in
	// registration order.
	Tools []Declaration
	// Flat are the registered tools declared in Tools, in registration
	// order. When Exec is not declared this is every permitted tool.
	Flat []Tool
	// Exec says whether Exec is in Tools and, if not, why (the announcement
	// tells "the pool emptied" from "Exec went away").
	Exec ExecStatus

	exec Declaration
	opts *Options
	// groups are the registry in registration order, a run of consecutive
	// tools of one server (or of builtins) each: the unit Reassemble reuses.
	groups []*group
	// names maps every claimed name to its tool (a nil group for Exec):
	// one map serves the duplicate check, Available and Lookup.
	names *overlay.Map[ref]
	pool  func() []Tool
	// change is how the pool differs from the one Reassemble started from.
	change    PoolChange
	changeSet bool
}

type where uint8

const (
	excluded where = iota // denied by the permission filter
	flat
	pooled // deferred: in the pool when Exec is declared, flat otherwise
)

// group is a run of consecutive registered tools with one key (an MCP
// tool's server, "" for builtins), with the verdict on each. Groups are
// never changed once built, so assemblies share them.
type group struct {
	key       string
	tools     []Tool
	where     []where
	nDeferred int
	nFlat     int
}

type ref struct {
	g *group
	i int
}

// Assemble builds the pool and tools[] from the registered tools (in
// registration order) and Exec's own declaration, which is returned
// unchanged when declared. It fails with a *NameError if a name is empty or
// registered twice (Exec's included, unless disabled), or if a deferred,
// permitted tool is named ToolSearch or parallel; the last is checked even
// with Exec off, so turning Exec on later cannot fail.
func Assemble(registered []Tool, exec Declaration, opts *Options) (*Assembly, error) {
	return assemble(nil, registered, exec, opts.orDefault())
}

// Reassemble is Assemble of registered under a's Exec declaration and
// options, at a cost that follows what changed: a run of one server's
// tools (or of builtins) equal to one of a's keeps its verdicts, so a
// server joining or leaving costs that server's tools and one comparison
// of the others, and tools[] is kept while no flat tool changed. The
// permission filter is consulted for changed tools only; a host whose
// rules change calls Assemble. a is left as it was, and is what
// Reassemble returns when registered is the registry a was made of
// (nothing changed: a's PoolChange is still the one it was made with).
func (a *Assembly) Reassemble(registered []Tool) (*Assembly, error) {
	return assemble(a, registered, a.exec, a.opts)
}

func assemble(prev *Assembly, registered []Tool, exec Declaration, opts *Options) (*Assembly, error) {
	a := &Assembly{exec: exec, opts: opts}
	spare := prev.groupsByKey()
	var fresh [][]Tool // runs that match no group of prev, in order
	for run := range runs(registered) {
		g := spare.take(run)
		if g == nil {
			fresh = append(fresh, run)
		}
		a.groups = append(a.groups, g) // nil until claimed below
	}
	if prev != nil && spare.unchanged(len(a.groups)) {
		return prev, nil
	}
	left := spare.left()
	size := 8 // a change is a server or two
	if prev == nil {
		size = len(registered) + 1
	}
	c := newClaims(prev, left, size)
	if prev == nil && !opts.DisableExec {
		if err := c.claim(exec.Name, ref{}); err != nil {
			return nil, err
		}
	}
	var added []*group
	for i := range a.groups {
		if a.groups[i] != nil {
			continue
		}
		g, err := c.group(fresh[0], opts)
		if err != nil {
			return nil, err
		}
		a.groups[i], fresh = g, fresh[1:]
		added = append(added, g)
	}
	a.names = c.names()
	a.settle(prev)
	a.change, a.changeSet = poolChange(prev, a, added, left), prev != nil && prev.Exec == a.Exec
	return a, nil
}

// runs splits tools into runs of consecutive tools with one key, each
// handed over as soon as it ends: while its tools are still in the
// processor's cache for the comparison that follows.
func runs(tools []Tool) iter.Seq[[]Tool] {
	return func(yield func([]Tool) bool) {
		for start := 0; start < len(tools); {
			end, key := start+1, groupKey(&tools[start])
			for end < len(tools) && groupKey(&tools[end]) == key {
				end++
			}
			if !yield(tools[start:end]) {
				return
			}
			start = end
		}
	}
}

func groupKey(t *Tool) string {
	if t.Kind == MCP {
		return t.Server
	}
	return ""
}

// Available is the one answer to "can this session use tool X": true for a
// permitted registered tool, declared flat or in the pool, and for Exec when
// it is declared. Host-side checks (reminders, availability guards) must ask
// this rather than look in Tools, which leaves pool tools out.
func (a *Assembly) Available(name string) bool {
	r, ok := a.names.Get(name)
	switch {
	case !ok:
		return false
	case r.g == nil:
		return a.Exec == ExecDeclared
	}
	return r.g.where[r.i] != excluded
}

// Lookup returns the available registered tool with this name and whether it
// is in the pool. The sandbox may call a tool only when inPool is true; a flat
// tool is called directly, not from a script.
func (a *Assembly) Lookup(name string) (t Tool, inPool, ok bool) {
	r, ok := a.names.Get(name)
	if !ok || r.g == nil || r.g.where[r.i] == excluded {
		return Tool{}, false, false
	}
	return r.g.tools[r.i], r.g.where[r.i] == pooled && a.Exec == ExecDeclared, true
}

// Pool returns the tools reachable only through Exec, in registration
// order, with their output schemas: empty unless Exec is declared. The
// sandbox, the announcement and ToolSearch all read this and nothing else.
// It is made at the first call and shared: read-only.
func (a *Assembly) Pool() []Tool { return a.pool() }

// PoolNames returns the pool's tool names in registration order: what the
// announcement lists.
func (a *Assembly) PoolNames() []string { return Names(a.Pool()) }

// Names returns the tools' names, in order.
func Names(tools []Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}

// Registered returns the registered tools in registration order, as
// Assemble or Reassemble was given them.
func (a *Assembly) Registered() []Tool {
	var out []Tool
	for _, g := range a.groups {
		out = append(out, g.tools...)
	}
	return out
}

// Denied returns the names of the registered tools the permission filter
// left out, in registration order.
func (a *Assembly) Denied() []string {
	var out []string
	for _, g := range a.groups {
		for i, w := range g.where {
			if w == excluded {
				out = append(out, g.tools[i].Name)
			}
		}
	}
	return out
}

// Guidance is one system-prompt line that only makes sense when Tool can be
// used, such as the advice to track work with TaskCreate.
type Guidance struct {
	Tool string
	Line string
}

// Guidance returns, in the given order, the lines whose tool is Available. A
// tool moved into the pool keeps its line: it was taken out of tools[], not
// out of the session.
func (a *Assembly) Guidance(lines []Guidance) []string {
	var out []string
	for _, g := range lines {
		if a.Available(g.Tool) {
			out = append(out, g.Line)
		}
	}
	return out
}
