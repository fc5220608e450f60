package jsontext

import (
	"strings"
	"sync"
)

// Value is a parsed JSON value that keeps object members in document order:
// a schema's property order is the author's and must survive into a
// signature, which encoding/json's maps would lose. Parsing by hand is also
// what keeps one wide schema well under the render budget.
type Value struct {
	// Kind is 'o' object, 'a' array, 's' string, 'n' number, 'b' bool or
	// 'z' null.
	Kind byte
	Bool bool
	// Str is a string's contents or a number's text.
	Str string
	// Members holds an object's members, or an array's elements with empty
	// keys: one slice for both keeps values small.
	Members []Member
}

// Member is one member of an object (or element of an array).
type Member struct {
	Key   string
	Value *Value
}

// Get returns the member named key (the last one, as encoding/json would),
// or nil when v is not an object or has no such member.
func (v *Value) Get(key string) *Value {
	if v == nil || v.Kind != 'o' {
		return nil
	}
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == key {
			return v.Members[i].Value
		}
	}
	return nil
}

// Entries returns an object's members or an array's elements; nil for
// anything else, nil included.
func (v *Value) Entries() []Member {
	if v == nil {
		return nil
	}
	return v.Members
}

// IsObject reports whether v is a JSON object.
func (v *Value) IsObject() bool { return v != nil && v.Kind == 'o' }

// IsArray reports whether v is a JSON array.
func (v *Value) IsArray() bool { return v != nil && v.Kind == 'a' }

// Text returns a string member's contents, or "" if it is missing or not a
// string.
func (v *Value) Text(key string) string {
	if m := v.Get(key); m != nil && m.Kind == 's' {
		return m.Str
	}
	return ""
}

// RepeatedKey returns the first key that an object within v (v itself or
// any nested value) has twice: JSON that other readers would read
// differently (encoding/json keeps the last, others the first or fail).
func (v *Value) RepeatedKey() (string, bool) {
	if v == nil {
		return "", false
	}
	var seen map[string]bool
	if v.Kind == 'o' {
		seen = make(map[string]bool, len(v.Members))
	}
	for _, m := range v.Members {
		if seen != nil {
			if seen[m.Key] {
				return m.Key, true
			}
			seen[m.Key] = true
		}
		if key, ok := m.Value.RepeatedKey(); ok {
			return key, true
		}
	}
	return "", false
}

// MaxNesting bounds parser recursion the way encoding/json does.
const MaxNesting = 10000

type parser struct {
	r    Reader
	slab []Value // values are carved from here: one allocation for many
	// Members and elements collect here and are copied out once, into
	// mslab, when their object or array ends.
	members []Member
	mslab   []Member
}

func (p *parser) alloc(v Value) *Value {
	if len(p.slab) == cap(p.slab) {
		p.slab = make([]Value, 0, 64)
	}
	p.slab = append(p.slab, v)
	return &p.slab[len(p.slab)-1]
}

// finish copies the members collected since mark into the member slab and
// returns them, capacity capped so that no later append can reach a
// neighbour's.
func (p *parser) finish(mark int) []Member {
	n := len(p.members) - mark
	if n == 0 {
		return nil
	}
	if cap(p.mslab)-len(p.mslab) < n {
		p.mslab = make([]Member, 0, max(n, 64))
	}
	start := len(p.mslab)
	p.mslab = append(p.mslab, p.members[mark:]...)
	p.members = Pop(p.members, mark)
	return p.mslab[start:len(p.mslab):len(p.mslab)]
}

// parsers keep their scratch (members, the reader's) from one Parse to the
// next: schemas are parsed on every assembly.
var parsers = sync.Pool{New: func() any { return new(parser) }}

// maxScratch is the most scratch kept from one document to the next, in
// elements.
const maxScratch = 1 << 12

// Pop truncates a stack of scratch to its first n entries, clearing the
// rest, so that what a document left above its top holds nothing: Recycle
// then clears only what is still on the stack, not the whole capacity
// a large document once grew it to.
func Pop[T any](scratch []T, n int) []T {
	clear(scratch[n:])
	return scratch[:n]
}

// Recycle empties scratch, a stack its user shrinks with Pop, for the
// next document: it holds nothing of the last one, and is dropped when it
// grew past a modest size.
func Recycle[T any](scratch []T) []T {
	if cap(scratch) > maxScratch {
		return nil
	}
	return Pop(scratch, 0)
}

// release returns p to the pool, holding nothing of the tree it built.
func (p *parser) release() {
	p.members = Recycle(p.members)
	p.r.Reset("")
	p.slab, p.mslab = nil, nil
	parsers.Put(p)
}

// Parse parses one JSON document.
func Parse(s string) (*Value, error) {
	// Every value but the first follows a ':' or a ',' (or opens an
	// array). Descriptions hold many of those characters too, so about
	// half the count is a fair first guess at how many values there are.
	n := (strings.Count(s, ":")+strings.Count(s, ",")+strings.Count(s, "["))/2 + 4
	n = min(n, 4096)
	p := parsers.Get().(*parser)
	defer p.release()
	p.slab, p.mslab = make([]Value, 0, n), make([]Member, 0, n)
	p.r.Reset(s)
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	if err := p.r.End(); err != nil {
		return nil, err
	}
	return v, nil
}

func (p *parser) value() (*Value, error) {
	kind, err := p.r.Value()
	if err != nil {
		return nil, err
	}
	switch kind {
	case Object, Array:
		v := p.alloc(Value{Kind: byte(kind)})
		mark := len(p.members)
		for {
			more, err := p.r.Next()
			if err != nil {
				return nil, err
			}
			if !more {
				break
			}
			var k string
			if kind == Object {
				k = p.r.Key
			}
			m, err := p.value()
			if err != nil {
				return nil, err
			}
			p.members = append(p.members, Member{k, m})
		}
		v.Members = p.finish(mark)
		return v, nil
	case String, Number:
		return p.alloc(Value{Kind: byte(kind), Str: p.r.Str}), nil
	case Bool:
		return p.alloc(Value{Kind: 'b', Bool: p.r.Bool}), nil
	}
	return p.alloc(Value{Kind: 'z'}), nil
}
