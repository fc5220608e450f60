package overlay

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Random sequences of changes give, at every version, the map a plain
// map given the same changes holds; earlier versions stay as they were.
func TestWithEqualsAPlainMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for seq := range 8 {
		want := map[string]int{}
		m := New(map[string]int{})
		type version struct {
			m    *Map[int]
			want map[string]int
		}
		var versions []version
		for step := range 300 {
			set, del := map[string]int{}, []string(nil)
			for range r.IntN(40) {
				k := fmt.Sprint("k", r.IntN(500))
				if r.IntN(3) == 0 {
					del = append(del, k)
				} else {
					set[k] = step
				}
			}
			m = m.With(set, del)
			for _, k := range del {
				delete(want, k)
			}
			maps.Copy(want, set)
			versions = append(versions, version{m, maps.Clone(want)})
		}
		for i, v := range versions {
			got := map[string]int{}
			v.m.All(func(k string, x int) bool { got[k] = x; return true })
			if !maps.Equal(v.want, got) || v.m.Len() != len(v.want) {
				t.Fatalf("sequence %d, version %d (-want +got, len %d):\n%s", seq, i, v.m.Len(), cmp.Diff(v.want, got))
			}
			for k, x := range v.want {
				if y, ok := v.m.Get(k); !ok || y != x {
					t.Fatalf("sequence %d, version %d: Get(%q) = %d, %v; want %d", seq, i, k, y, ok, x)
				}
			}
			if _, ok := v.m.Get("absent"); ok {
				t.Fatal("Get found a key never set")
			}
		}
	}
}

func TestNilIsEmpty(t *testing.T) {
	var m *Map[int]
	if _, ok := m.Get("x"); ok || m.Len() != 0 {
		t.Error("a nil Map is not empty")
	}
	if v, ok := m.With(map[string]int{"x": 1}, nil).Get("x"); !ok || v != 1 {
		t.Error("With on a nil Map lost its value")
	}
}
