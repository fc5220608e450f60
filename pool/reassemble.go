package pool

import (
	"bytes"
	"slices"
	"sync"

	"github.com/execlua/execlua/internal/overlay"
)

// PoolChange is how a reassembled pool differs from the pool it was
// reassembled from: what a holder of state built per pool tool (a search
// index, a prepared reachable set) updates instead of rebuilding.
type PoolChange struct {
	// Servers are the keys of the groups whose pool tools changed: an MCP
	// tool's server, "" for the builtins. PoolOf gives their tools now.
	Servers []string
	// Left are the names of pool tools that left or changed.
	Left []string
	// Joined are the pool tools that joined or changed.
	Joined []Tool
}

// PoolChange returns how a's pool differs from the pool of the Assembly a
// was reassembled from, and false when that is not known: a came from
// Assemble, or Exec's status changed and with it the whole pool.
func (a *Assembly) PoolChange() (PoolChange, bool) { return a.change, a.changeSet }

// PoolOf returns the pool tools of the MCP server key (the builtins for
// ""), in registration order.
func (a *Assembly) PoolOf(key string) []Tool {
	if a.Exec != ExecDeclared {
		return nil
	}
	var out []Tool
	for _, g := range a.groups {
		if g.key == key {
			out = appendWhere(out, g, pooled)
		}
	}
	return out
}

func appendWhere(out []Tool, g *group, w where) []Tool {
	for i := range g.tools {
		if g.where[i] == w {
			out = append(out, g.tools[i])
		}
	}
	return out
}

// settle derives Exec's status, tools[], the flat tools and the pool from
// the groups' verdicts: a scan of one byte per tool, the pool flattened
// only when asked for.
func (a *Assembly) settle() {
	var nDeferred, nFlat int
	for _, g := range a.groups {
		nDeferred += g.nDeferred
		nFlat += g.nFlat
	}
	switch {
	case a.opts.DisableExec:
		a.Exec = ExecDisabled
	case a.opts.denied(a.exec.Name):
		a.Exec = ExecDenied
	case nDeferred == 0:
		a.Exec = ExecEmptyPool
	default:
		a.Exec = ExecDeclared
	}
	declared := a.Exec == ExecDeclared
	if !declared {
		nFlat += nDeferred // the deferred tools go back to tools[]
	}
	a.Flat = make([]Tool, 0, nFlat)
	a.Tools = make([]Declaration, 0, nFlat+1)
	if declared {
		a.Tools = append(a.Tools, a.exec)
	}
	for _, g := range a.groups {
		if g.nFlat == 0 && (declared || g.nDeferred == 0) {
			continue
		}
		for i, w := range g.where {
			if w == flat || (w == pooled && !declared) {
				a.Flat = append(a.Flat, g.tools[i])
				a.Tools = append(a.Tools, g.tools[i].Declaration())
			}
		}
	}
	groups := a.groups
	a.pool = sync.OnceValue(func() []Tool {
		if !declared {
			return []Tool{}
		}
		out := make([]Tool, 0, nDeferred)
		for _, g := range groups {
			out = appendWhere(out, g, pooled)
		}
		return out
	})
}

// poolChange says what left and joined the pool between prev and a, given
// the groups a added and the ones of prev it did not reuse.
func poolChange(prev, a *Assembly, added, left []*group) PoolChange {
	var ch PoolChange
	if prev == nil || prev.Exec != a.Exec || a.Exec != ExecDeclared {
		return ch
	}
	servers := map[string]bool{}
	for _, g := range left {
		for _, t := range appendWhere(nil, g, pooled) {
			ch.Left = append(ch.Left, t.Name)
			servers[g.key] = true
		}
	}
	for _, g := range added {
		if g.nDeferred > 0 {
			ch.Joined = appendWhere(ch.Joined, g, pooled)
			servers[g.key] = true
		}
	}
	for _, g := range append(slices.Clone(left), added...) {
		if servers[g.key] {
			ch.Servers = append(ch.Servers, g.key)
			delete(servers, g.key)
		}
	}
	return ch
}

// spare are the groups of the assembly being reassembled, for the runs of
// the new registry to take when their tools are equal.
type spare struct {
	all   []*group
	byKey map[string][]*group
	taken map[*group]bool
}

func (a *Assembly) groupsByKey() *spare {
	s := &spare{byKey: map[string][]*group{}, taken: map[*group]bool{}}
	if a == nil {
		return s
	}
	s.all = a.groups
	for _, g := range a.groups {
		s.byKey[g.key] = append(s.byKey[g.key], g)
	}
	return s
}

// take returns an untaken group whose tools equal run, or nil.
func (s *spare) take(run []Tool) *group {
	for _, g := range s.byKey[groupKey(&run[0])] {
		if !s.taken[g] && sameTools(g.tools, run) {
			s.taken[g] = true
			return g
		}
	}
	return nil
}

// left returns the groups no run took, in their order.
func (s *spare) left() []*group {
	var out []*group
	for _, g := range s.all {
		if !s.taken[g] {
			out = append(out, g)
		}
	}
	return out
}

// claims hands out names: the names of the assembly reassembled from
// (less those of its groups no run took) and the ones claimed now.
type claims struct {
	prev *overlay.Map[ref]
	gone map[string]bool
	del  []string
	set  map[string]ref
}

func newClaims(prev *Assembly, left []*group, size int) *claims {
	c := &claims{gone: map[string]bool{}, set: make(map[string]ref, size)}
	if prev != nil {
		c.prev = prev.names
	}
	for _, g := range left {
		for _, t := range g.tools {
			c.gone[t.Name] = true
			c.del = append(c.del, t.Name)
		}
	}
	return c
}

func (c *claims) claim(name string, r ref) error {
	if name == "" {
		return &NameError{Name: name, Err: ErrEmptyName}
	}
	_, claimed := c.set[name]
	if _, had := c.prev.Get(name); claimed || had && !c.gone[name] {
		return &NameError{Name: name, Err: ErrDuplicateName}
	}
	c.set[name] = r
	return nil
}

// group claims run's names and decides each of its tools.
func (c *claims) group(run []Tool, opts *Options) (*group, error) {
	g := &group{key: groupKey(&run[0]), tools: slices.Clone(run), where: make([]where, len(run))}
	for i := range g.tools {
		t := &g.tools[i]
		if err := c.claim(t.Name, ref{g, i}); err != nil {
			return nil, err
		}
		switch {
		case opts.denied(t.Name):
			g.where[i] = excluded
		case Decide(*t, opts).Deferred:
			if t.Name == SearchName || t.Name == ParallelName {
				return nil, &NameError{Name: t.Name, Err: ErrReservedName}
			}
			g.where[i] = pooled
			g.nDeferred++
		default:
			g.where[i] = flat
			g.nFlat++
		}
	}
	return g, nil
}

func (c *claims) names() *overlay.Map[ref] {
	if c.prev == nil {
		return overlay.New(c.set)
	}
	return c.prev.With(c.set, c.del)
}

func sameTools(a, b []Tool) bool {
	return len(a) == len(b) && slices.EqualFunc(a, b, func(x, y Tool) bool { return sameTool(&x, &y) })
}

// sameTool compares every field of Tool (TestSameToolSeesEveryField keeps
// it so): strings and schemas by content, which costs little when they
// share their bytes, as a host's unchanged tools do.
func sameTool(x, y *Tool) bool {
	return x.Name == y.Name && x.Description == y.Description &&
		bytes.Equal(x.InputSchema, y.InputSchema) && bytes.Equal(x.OutputSchema, y.OutputSchema) &&
		x.Kind == y.Kind && x.Server == y.Server && x.ServerTool == y.ServerTool &&
		x.ShouldDefer == y.ShouldDefer && x.AlwaysLoad == y.AlwaysLoad && x.SearchHint == y.SearchHint &&
		x.Annotations.equal(y.Annotations)
}

func (a Annotations) equal(b Annotations) bool {
	same := func(x, y *bool) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return a.Title == b.Title && same(a.ReadOnlyHint, b.ReadOnlyHint) && same(a.DestructiveHint, b.DestructiveHint) &&
		same(a.IdempotentHint, b.IdempotentHint) && same(a.OpenWorldHint, b.OpenWorldHint)
}
