package luavm

import (
	"runtime"
	"testing"

	"github.com/execlua/execlua/internal/heapwatch"
)

// ISO-8: Footprint's estimate of what a script holds follows the heap it really
// holds, for every kind of object a script can keep alive (issue 22,
// class 6): live gmatch iterators (their subjects were invisible),
// closures and their upvalues, boxed numbers, hash entries, coroutines
// with deep stacks. The memory guard stops a run on the estimate, so an
// estimate far below the heap lets a run hold gigabytes under its cap.
func TestFootprintFollowsTheHeap(t *testing.T) {
	for name, src := range map[string]string{
		"gmatch iterators":      `keep = {} for i = 1, 100 do keep[i] = string.gmatch(("x"):rep(100000) .. i, ".") end`,
		"closures":              `keep = {} for i = 1, 50000 do keep[i] = function() return i end end`,
		"closures over strings": `keep = {} for i = 1, 2000 do local s = ("y"):rep(10000) .. i keep[i] = function() return s end end`,
		"numbers":               `keep = {} for i = 1, 250000 do keep[i] = i + 0.5 end`,
		"strings":               `keep = {} for i = 1, 50000 do keep[i] = "s" .. i end`,
		"coroutines": `keep = {} local args = {} for i = 1, 100 do args[i] = i end
			local function f(n, ...) if n == 0 then coroutine.yield() else f(n - 1, ...) end end
			for i = 1, 50 do local co = coroutine.create(f) coroutine.resume(co, 200, unpack(args)) keep[i] = co end`,
		"hash entries":      `keep = {} for i = 1, 50000 do keep["k" .. i] = true end`,
		"tables":            `keep = {} for i = 1, 25000 do keep[i] = {} end`,
		"sparse array part": `keep = {} for i = 1, 2 do keep[i * 2^20] = i end`,
	} {
		t.Run(name, func(t *testing.T) {
			before := heapwatch.Live()
			s := New(nil)
			defer s.Close()
			s.InstallPrelude(Host{})
			sc, err := Compile(src)
			if err != nil {
				t.Fatal(err)
			}
			fn, args := s.Load(sc)
			s.L.Push(fn)
			for _, a := range args {
				s.L.Push(a)
			}
			if err := s.L.PCall(len(args), 0, nil); err != nil {
				t.Fatal(err)
			}
			held := float64(heapwatch.Live() - min(before, heapwatch.Live()))
			est, _ := s.Footprint(nil, 1<<40)
			runtime.KeepAlive(s)
			// Within a factor of 1.6 either way: the cap is on the
			// estimate, so it may stop a run somewhat early or late, never
			// at a multiple of its limit.
			if ratio := held / float64(est); ratio > 1.6 || ratio < 1/1.6 {
				t.Errorf("holds %.1f MiB, estimated %.1f MiB (ratio %.2f)", held/(1<<20), float64(est)/(1<<20), ratio)
			}
		})
	}
}
