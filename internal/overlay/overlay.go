package overlay

// Map is one immutable version. The zero value and nil are empty maps.
type Map[V any] struct {
	base  map[string]V
	layer map[string]change[V]
	n     int
}

type change[V any] struct {
	v    V
	gone bool
}

// New returns a Map holding m, which it keeps: the caller must not change
// m afterwards.
func New[V any](m map[string]V) *Map[V] { return &Map[V]{base: m, n: len(m)} }

// Get returns the value of k.
func (m *Map[V]) Get(k string) (V, bool) {
	var zero V
	if m == nil {
		return zero, false
	}
	if c, ok := m.layer[k]; ok {
		if c.gone {
			return zero, false
		}
		return c.v, true
	}
	v, ok := m.base[k]
	return v, ok
}

// Len is the number of keys.
func (m *Map[V]) Len() int {
	if m == nil {
		return 0
	}
	return m.n
}

// With returns a version of m without the keys of del and with the values
// of set (set wins over del for a key in both). m is left as it was.
func (m *Map[V]) With(set map[string]V, del []string) *Map[V] {
	if m == nil {
		m = &Map[V]{}
	}
	if len(set) == 0 && len(del) == 0 {
		return m
	}
	next := &Map[V]{base: m.base, n: m.n, layer: make(map[string]change[V], len(m.layer)+len(set)+len(del))}
	for k, c := range m.layer {
		next.layer[k] = c
	}
	for _, k := range del {
		if _, ok := next.Get(k); ok {
			next.layer[k] = change[V]{gone: true}
			next.n--
		}
	}
	for k, v := range set {
		if _, ok := next.Get(k); !ok {
			next.n++
		}
		next.layer[k] = change[V]{v: v}
	}
	if len(next.layer) > len(next.base)/8+64 {
		next.fold()
	}
	return next
}

// fold makes a new base of base and layer.
func (m *Map[V]) fold() {
	base := make(map[string]V, m.n)
	for k, v := range m.base {
		if _, changed := m.layer[k]; !changed {
			base[k] = v
		}
	}
	for k, c := range m.layer {
		if !c.gone {
			base[k] = c.v
		}
	}
	m.base, m.layer = base, nil
}

// All calls yield for every key and value, in no order, until it returns
// false.
func (m *Map[V]) All(yield func(string, V) bool) {
	if m == nil {
		return
	}
	for k, c := range m.layer {
		if !c.gone && !yield(k, c.v) {
			return
		}
	}
	for k, v := range m.base {
		if _, changed := m.layer[k]; !changed && !yield(k, v) {
			return
		}
	}
}
