package pool

import (
	"encoding/json"
	"errors"
	"fmt"

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
	// Pool are the tools reachable only through Exec, in registration order,
	// with their output schemas. Empty unless Exec is declared: the sandbox,
	// the announcement and ToolSearch all read this and nothing else.
	Pool []Tool
	// Exec says whether Exec is in Tools and, if not, why (the announcement
	// tells "the pool emptied" from "Exec went away").
	Exec ExecStatus

	// index maps every claimed name to its registration index (-1 for
	// Exec); slots says where each registered tool went. One map serves the
	// duplicate check, Available and Lookup.
	index map[string]int
	slots []slot
}

type where uint8

const (
	excluded where = iota // denied by the permission filter
	flat
	pooled
)

type slot struct {
	where where
	i     int // index into Flat or Pool
}

// Assemble builds the pool and tools[] from the registered tools (in
// registration order) and Exec's own declaration, which is returned
// unchanged when declared. It fails with a *NameError if a name is empty or
// registered twice (Exec's included, unless disabled), or if a deferred,
// permitted tool is named ToolSearch or parallel; the last is checked even
// with Exec off, so turning Exec on later cannot fail.
func Assemble(registered []Tool, exec Declaration, opts *Options) (*Assembly, error) {
	opts = opts.orDefault()
	a := &Assembly{
		index: make(map[string]int, len(registered)+1),
		slots: make([]slot, len(registered)),
	}
	claim := func(name string, i int) error {
		if name == "" {
			return &NameError{Name: name, Err: ErrEmptyName}
		}
		if _, dup := a.index[name]; dup {
			return &NameError{Name: name, Err: ErrDuplicateName}
		}
		a.index[name] = i
		return nil
	}
	if !opts.DisableExec {
		if err := claim(exec.Name, -1); err != nil {
			return nil, err
		}
	}
	var nDenied, nDeferred int
	for i, t := range registered {
		if err := claim(t.Name, i); err != nil {
			return nil, err
		}
		switch {
		case opts.denied(t.Name):
			a.slots[i].where = excluded
			nDenied++
		case Decide(t, opts).Deferred:
			if t.Name == SearchName || t.Name == ParallelName {
				return nil, &NameError{Name: t.Name, Err: ErrReservedName}
			}
			a.slots[i].where = pooled
			nDeferred++
		default:
			a.slots[i].where = flat
		}
	}

	switch {
	case opts.DisableExec:
		a.Exec = ExecDisabled
	case opts.denied(exec.Name):
		a.Exec = ExecDenied
	case nDeferred == 0:
		a.Exec = ExecEmptyPool
	default:
		a.Exec = ExecDeclared
	}
	if a.Exec != ExecDeclared {
		nDeferred = 0 // the deferred tools go back to tools[]
	}

	nFlat := len(registered) - nDenied - nDeferred
	a.Flat = make([]Tool, 0, nFlat)
	a.Pool = make([]Tool, 0, nDeferred)
	a.Tools = make([]Declaration, 0, nFlat+1)
	if a.Exec == ExecDeclared {
		a.Tools = append(a.Tools, exec)
	}
	for i, t := range registered {
		s := &a.slots[i]
		if s.where == pooled && a.Exec != ExecDeclared {
			s.where = flat
		}
		switch s.where {
		case pooled:
			s.i = len(a.Pool)
			a.Pool = append(a.Pool, t)
		case flat:
			s.i = len(a.Flat)
			a.Flat = append(a.Flat, t)
			a.Tools = append(a.Tools, t.Declaration())
		}
	}
	return a, nil
}

// Available is the one answer to "can this session use tool X": true for a
// permitted registered tool, declared flat or in the pool, and for Exec when
// it is declared. Host-side checks (reminders, availability guards) must ask
// this rather than look in Tools, which leaves pool tools out.
func (a *Assembly) Available(name string) bool {
	i, ok := a.index[name]
	switch {
	case !ok:
		return false
	case i < 0:
		return a.Exec == ExecDeclared
	}
	return a.slots[i].where != excluded
}

// Lookup returns the available registered tool with this name and whether it
// is in the pool. The sandbox may call a tool only when inPool is true; a flat
// tool is called directly, not from a script.
func (a *Assembly) Lookup(name string) (t Tool, inPool, ok bool) {
	i, ok := a.index[name]
	if !ok || i < 0 {
		return Tool{}, false, false
	}
	switch s := a.slots[i]; s.where {
	case pooled:
		return a.Pool[s.i], true, true
	case flat:
		return a.Flat[s.i], false, true
	}
	return Tool{}, false, false
}

// PoolNames returns the pool's tool names in registration order: what the
// announcement lists.
func (a *Assembly) PoolNames() []string {
	out := make([]string, len(a.Pool))
	for i, t := range a.Pool {
		out[i] = t.Name
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
