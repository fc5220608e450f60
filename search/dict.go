package search

import (
	"runtime"
	"slices"
	"strings"
	"sync"
)

// dict is an immutable map from string keys (stems, lowercase names) to
// values, kept in buckets by the keys' first two bytes, each bucket sorted.
// An update copies only the buckets it touches, so adding or removing one
// server's tools costs in proportion to that server, not to the pool; and
// every key sharing a prefix of two bytes or more sits in one bucket,
// where prefixes and near spellings are looked up.
type dict[V any] struct {
	buckets []*bucket[V] // nil until the first key
	// hashed spreads keys by a hash of the whole key rather than its first
	// bytes, for keys that share a prefix (mcp__...); such a dict answers
	// no prefix lookups.
	hashed bool
}

type bucket[V any] struct {
	keys []string
	vals []V
}

const nBuckets = 2048

func (d dict[V]) bucketOf(k string) int {
	if d.hashed {
		h := uint32(2166136261) // FNV-1a
		for i := 0; i < len(k); i++ {
			h = (h ^ uint32(k[i])) * 16777619
		}
		return int(h % nBuckets)
	}
	h := 0
	if len(k) > 0 {
		h = int(k[0]) << 8
	}
	if len(k) > 1 {
		h |= int(k[1])
	}
	return h % nBuckets
}

func (d dict[V]) get(k string) (V, bool) {
	var zero V
	if d.buckets == nil {
		return zero, false
	}
	b := d.buckets[d.bucketOf(k)]
	if b == nil {
		return zero, false
	}
	if i, ok := slices.BinarySearch(b.keys, k); ok {
		return b.vals[i], true
	}
	return zero, false
}

// near calls f with every key of k's bucket that starts with prefix; a
// prefix shorter than two bytes is not looked up.
func (d dict[V]) near(prefix string, f func(key string, v V)) {
	if d.buckets == nil || len(prefix) < 2 || d.hashed {
		return
	}
	b := d.buckets[d.bucketOf(prefix)]
	if b == nil {
		return
	}
	for i := range b.keys {
		if strings.HasPrefix(b.keys[i], prefix) {
			f(b.keys[i], b.vals[i])
		}
	}
}

// with returns d with the keys of set replaced (or added), and those for
// which keep is false removed. d is unchanged. Many changes are put in
// their buckets on every CPU, each CPU a range of buckets.
func (d dict[V]) with(set map[string]V, keep func(V) bool) dict[V] {
	if len(set) == 0 {
		return d
	}
	// The changes in bucket order (a counting sort): bucket i's are
	// changes[at[i]:at[i+1]].
	at := make([]int32, nBuckets+1)
	unsorted := make([]change[V], 0, len(set))
	for k, v := range set {
		b := d.bucketOf(k)
		unsorted = append(unsorted, change[V]{k, v, int32(b)})
		at[b+1]++
	}
	for i := range nBuckets {
		at[i+1] += at[i]
	}
	changes, next := make([]change[V], len(unsorted)), slices.Clone(at)
	for _, c := range unsorted {
		changes[next[c.b]] = c
		next[c.b]++
	}
	out := dict[V]{buckets: make([]*bucket[V], nBuckets), hashed: d.hashed}
	if d.buckets != nil {
		copy(out.buckets, d.buckets)
	}
	put := func(from, to int) {
		for i := from; i < to; i++ {
			if at[i] < at[i+1] {
				out.buckets[i] = out.buckets[i].with(changes[at[i]:at[i+1]], keep)
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(set)/(parallelMin/2))
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Go(func() { put(w*nBuckets/workers, (w+1)*nBuckets/workers) })
	}
	put(0, nBuckets/max(workers, 1))
	wg.Wait()
	return out
}

// change is a key of a dict set to a value, in bucket b.
type change[V any] struct {
	k string
	v V
	b int32
}

// with returns b (nil for none) with the changes of its bucket made, or
// nil when it keeps no key.
func (b *bucket[V]) with(changes []change[V], keep func(V) bool) *bucket[V] {
	slices.SortFunc(changes, func(x, y change[V]) int { return strings.Compare(x.k, y.k) })
	old := b
	if old == nil {
		old = &bucket[V]{}
	}
	nb := &bucket[V]{keys: make([]string, 0, len(old.keys)+len(changes)), vals: make([]V, 0, len(old.keys)+len(changes))}
	put := func(k string, v V) {
		if keep(v) {
			nb.keys = append(nb.keys, k)
			nb.vals = append(nb.vals, v)
		}
	}
	// Merge the sorted old keys with the sorted changes.
	j := 0
	for _, c := range changes {
		for j < len(old.keys) && old.keys[j] < c.k {
			put(old.keys[j], old.vals[j])
			j++
		}
		if j < len(old.keys) && old.keys[j] == c.k {
			j++
		}
		put(c.k, c.v)
	}
	for ; j < len(old.keys); j++ {
		put(old.keys[j], old.vals[j])
	}
	if len(nb.keys) == 0 {
		return nil
	}
	return nb
}
