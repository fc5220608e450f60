package luavm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"testing"
	"time"

	"github.com/execlua/execlua/internal/cputime"
	glua "github.com/yuin/gopher-lua"
)

// extremes are the argument values of the library sweep: numbers at the
// edges of float64 and int64, huge and negative counts, and one value of
// every other kind. Tables are built fresh for every call.
func extremes(L *glua.LState) []glua.LValue {
	nums := []float64{0, -1, 1 << 53, -(1 << 62), 1 << 63, math.Inf(1), math.Inf(-1), math.NaN(), 2.5, math.Copysign(0, -1), 1,
		-(1 << 53), 1 << 62, -(1 << 63), 1e308, 1 << 31, -(1 << 31)}
	var out []glua.LValue
	for _, n := range nums {
		out = append(out, glua.LNumber(n))
	}
	seq := L.NewTable()
	for i := 1; i <= 3; i++ {
		seq.RawSetInt(i, glua.LNumber(i))
	}
	return append(out, glua.LNil, glua.LTrue, glua.LString(""), glua.LString("%a%"), glua.LString("abc"), L.NewTable(), seq,
		L.NewFunction(func(L *glua.LState) int { return L.GetTop() }))
}

// fewer is how many of the extremes (the first ones, numbers) are tried
// past the first argument of three or four.
const fewer = 9

// fourArgs are the functions that read a fourth argument.
var fourArgs = map[string]bool{"string.find": true, "string.gsub": true, "table.concat": true, "string.format": true}

// Class 5: no library function, called with any of the extreme values in
// its first three arguments, panics in Go or runs long.
func TestLibrarySweep(t *testing.T) {
	var crash error
	s := New(&Options{OnCrash: func(err error) { crash = err }, MaxStringBytes: 1 << 20})
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s.L.SetContext(ctx)
	type entry struct {
		name string
		fn   *glua.LFunction
	}
	var fns []entry
	collect := func(prefix string, t *glua.LTable) {
		t.ForEach(func(k, v glua.LValue) {
			if fn, ok := v.(*glua.LFunction); ok {
				fns = append(fns, entry{prefix + k.String(), fn})
			}
		})
	}
	collect("", s.L.G.Global)
	for _, lib := range []string{"string", "table", "math"} {
		collect(lib+".", s.L.GetGlobal(lib).(*glua.LTable))
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].name < fns[j].name })
	calls := 0
	for _, f := range fns {
		// Every pair of values; three and four arguments from a few of
		// them, for the functions that take that many.
		for arity := 0; arity <= 4; arity++ {
			if arity == 4 && !fourArgs[f.name] {
				break
			}
			all := len(extremes(s.L))
			// base(i) is how many values argument i ranges over.
			base := func(i int) int {
				if arity > 2 && i > 0 {
					return fewer
				}
				return all
			}
			combos := 1
			for i := range arity {
				combos *= base(i)
			}
			for c := range combos {
				values := extremes(s.L)
				args := make([]glua.LValue, arity)
				for i, x := 0, c; i < arity; i++ {
					args[i] = values[x%base(i)]
					x /= base(i)
				}
				var err error
				spent := cputime.Spent(t, func() {
					s.L.Push(f.fn)
					for _, a := range args {
						s.L.Push(a)
					}
					err = s.L.PCall(arity, glua.MultRet, nil)
					s.L.SetTop(0)
				})
				calls++
				desc := fmt.Sprintf("%s(%v)", f.name, args)
				if crash != nil {
					t.Fatalf("%s panicked: %v", desc, crash)
				}
				var apiErr *glua.ApiError
				if errors.As(err, &apiErr) && apiErr.Type == glua.ApiErrorPanic {
					t.Fatalf("%s panicked: %v", desc, err)
				}
				if spent > 500*time.Millisecond*slowdown {
					t.Errorf("%s spent %v of CPU", desc, spent)
				}
			}
		}
	}
	t.Logf("%d functions, %d calls", len(fns), calls)
}
