package pool

import (
	"bytes"
	"slices"
	"sync"
	"unsafe"

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
// only when asked for. tools[] and the flat tools are prev's when Exec's
// status is and the groups with tools in tools[] are prev's, in prev's
// order.
func (a *Assembly) settle(prev *Assembly) {
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
	if prev != nil && prev.Exec == a.Exec && slices.Equal(prev.declaring(), a.declaring()) {
		a.Flat, a.Tools = prev.Flat, prev.Tools
	} else {
		a.declare(declared, nFlat, nDeferred)
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

// declaring returns the groups with tools in tools[], in order.
func (a *Assembly) declaring() []*group {
	var out []*group
	for _, g := range a.groups {
		if g.nFlat > 0 || a.Exec != ExecDeclared && g.nDeferred > 0 {
			out = append(out, g)
		}
	}
	return out
}

// declare lists tools[] and the flat tools.
func (a *Assembly) declare(declared bool, nFlat, nDeferred int) {
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
// the new registry to take when their tools are equal. A registry that
// changed little lists its runs in the order of the groups, so each run is
// first compared with the group after the one taken last; the groups are
// looked up by key only when that one is not equal.
type spare struct {
	all    []*group
	taken  []bool
	nTaken int
	next   int
	// first and then chain the groups of one key: made at the first run
	// out of order.
	first map[string]int
	then  []int
}

func (a *Assembly) groupsByKey() *spare {
	s := &spare{}
	if a != nil {
		s.all, s.taken = a.groups, make([]bool, len(a.groups))
	}
	return s
}

// take returns an untaken group whose tools equal run, or nil.
func (s *spare) take(run []Tool) *group {
	key := groupKey(&run[0])
	if s.next < len(s.all) && s.tryTake(s.next, key, run) {
		s.next++
		return s.all[s.next-1]
	}
	if s.nTaken == len(s.all) {
		return nil // a server joining at the end
	}
	if s.first == nil {
		s.chain()
	}
	i, ok := s.first[key]
	for ; ok && i >= 0; i = s.then[i] {
		if s.tryTake(i, key, run) {
			s.next = i + 1
			return s.all[i]
		}
	}
	return nil
}

// chain links the groups of each key, in order.
func (s *spare) chain() {
	s.first, s.then = make(map[string]int, len(s.all)), make([]int, len(s.all))
	for i := len(s.all) - 1; i >= 0; i-- {
		next, ok := s.first[s.all[i].key]
		if !ok {
			next = -1
		}
		s.then[i], s.first[s.all[i].key] = next, i
	}
}

func (s *spare) tryTake(i int, key string, run []Tool) bool {
	g := s.all[i]
	if s.taken[i] || g.key != key || !sameTools(g.tools, run) {
		return false
	}
	s.taken[i] = true
	s.nTaken++
	return true
}

// left returns the groups no run took, in their order.
func (s *spare) left() []*group {
	var out []*group
	for i, g := range s.all {
		if !s.taken[i] {
			out = append(out, g)
		}
	}
	return out
}

// unchanged reports that every group was taken, in order: the registry
// is the one the groups were made of.
func (s *spare) unchanged(runs int) bool {
	return runs == len(s.all) && s.next == len(s.all) && s.first == nil
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
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameTool(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

// sameTool compares every field of Tool (TestSameToolSeesEveryField keeps
// it so): strings and schemas by content. A host hands an unchanged tool
// over as the same value again, every string and schema sharing its bytes,
// so one comparison of the two values' memory settles the common case: the
// same bytes there are the same pointers, lengths and flags.
func sameTool(x, y *Tool) bool {
	const size = unsafe.Sizeof(Tool{})
	if *(*[size]byte)(unsafe.Pointer(x)) == *(*[size]byte)(unsafe.Pointer(y)) {
		return true
	}
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
