package luavm

import (
	"runtime"
	"testing"

	glua "github.com/yuin/gopher-lua"
)

// yieldableByGoStack is canYield's oracle: a yield is safe when exactly
// one gopher-lua main loop runs between the caller and its thread's start,
// read off the Go stack (slow, but it needs nothing of gopher-lua's
// internals besides its function names).
func yieldableByGoStack() bool {
	pcs := make([]uintptr, 512)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	loops := 0
	for {
		f, more := frames.Next()
		switch f.Function {
		case "github.com/yuin/gopher-lua.mainLoop", "github.com/yuin/gopher-lua.mainLoopWithContext":
			loops++
		case "github.com/yuin/gopher-lua.threadRun":
			return loops == 1
		}
		if !more {
			return false
		}
	}
}

// canYield, which reads gopher-lua's call frames, agrees with the Go stack
// in every context a tool call can be made from.
func TestCanYield(t *testing.T) {
	for name, tc := range map[string]struct {
		src  string
		want bool
	}{
		"plain call":          {`probe()`, true},
		"inside functions":    {`local function f() local function g() probe() end g() end f()`, true},
		"tail call":           {`local function f() return probe() end return f()`, true},
		"pcall of a function": {`pcall(function() probe() end)`, false}, // gopher-lua's own pcall, a Go frame
		"__index":             {`local t = setmetatable({}, { __index = function() probe() end }) local _ = t.x`, false},
		"__add":               {`local t = setmetatable({}, { __add = function() probe() return 1 end }) local _ = t + 1`, false},
		"__call":              {`local t = setmetatable({}, { __call = function() probe() end }) t()`, true},
		"for iterator":        {`for _ in function() probe() end do end`, false},
		"table.sort":          {`table.sort({ 3, 1, 2 }, function(a, b) probe() return a < b end)`, false},
		"string.gsub":         {`string.gsub("ab", "%w", function() probe() end)`, false},
		"__tostring":          {`tostring(setmetatable({}, { __tostring = function() probe() return "" end }))`, false},
		"coroutine in a metamethod": {`local t = setmetatable({}, { __index = function()
			coroutine.resume(coroutine.create(function() probe() end)) end }) local _ = t.x`, true},
		"main thread": {``, false},
	} {
		t.Run(name, func(t *testing.T) {
			s := New(nil)
			defer s.Close()
			L := s.L
			L.Push(L.NewFunction(glua.OpenCoroutine))
			L.Push(glua.LString(glua.CoroutineLibName))
			L.Call(1, 0)
			L.SetGlobal("pcall", L.NewFunction(func(L *glua.LState) int {
				err := L.PCall(L.GetTop()-1, glua.MultRet, nil)
				L.Push(glua.LBool(err == nil))
				return 1
			}))
			var got [][2]bool
			L.SetGlobal("probe", L.NewFunction(func(L *glua.LState) int {
				got = append(got, [2]bool{canYield(L), yieldableByGoStack()})
				return 0
			}))
			if tc.src == "" {
				L.Push(L.GetGlobal("probe"))
				L.Call(0, 0)
			} else {
				fn, err := L.LoadString(tc.src)
				if err != nil {
					t.Fatal(err)
				}
				th, _ := L.NewThread()
				if state, err, _ := L.Resume(th, fn); state != glua.ResumeOK {
					t.Fatal(err)
				}
			}
			if len(got) == 0 {
				t.Fatal("probe did not run")
			}
			for _, g := range got {
				if g != [2]bool{tc.want, tc.want} {
					t.Errorf("canYield %v, Go stack %v; want %v", g[0], g[1], tc.want)
				}
			}
		})
	}
}
