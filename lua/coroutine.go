package lua

import (
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"sync"

	glua "github.com/yuin/gopher-lua"
)

//go:embed prelude.lua
var preludeSource string

// preludeProto is compiled once and shared: gopher-lua protos are
// immutable and may be instantiated in many states.
var preludeProto = sync.OnceValue(func() *glua.FunctionProto {
	L := glua.NewState(glua.Options{SkipOpenLibs: true})
	defer L.Close()
	fn, err := L.Load(strings.NewReader(preludeSource), "prelude")
	if err != nil {
		panic("lua: prelude does not compile: " + err.Error())
	}
	return fn.Proto
})

// Host is what the prelude calls into for tool calls; the sandbox
// implements it.
type Host struct {
	// Known reports whether name is in this run's reachable set.
	Known func(name string) bool
	// Submit converts and records one call and returns its id, or refuses
	// it with an error raised at the script's call site.
	Submit func(L *glua.LState, name string, args glua.LValue) (id int, err error)
	// Perform carries out submitted calls on the spot, when no yield can
	// reach the driver (the caller is inside a Go frame).
	Perform func(ids []int)
	// Collect returns a performed call's output as a fresh Lua value, or
	// its error.
	Collect func(L *glua.LState, id int) (glua.LValue, error)
}

// InstallPrelude adds tools, pcall, xpcall and coroutine to the globals.
func (s *State) InstallPrelude(host Host) {
	L := s.L
	orig := func(name string) glua.LGFunction {
		return libraries()["coroutine"][name].(*glua.LFunction).GFunction
	}
	create, resume, yield := orig("create"), orig("resume"), orig("yield")
	prim := L.NewTable()
	s.register(prim, map[string]glua.LGFunction{
		"create": func(L *glua.LState) int {
			s.coroutines++
			if s.coroutines > s.opts.MaxCoroutines {
				L.RaiseError("too many coroutines (the limit is %d per run)", s.opts.MaxCoroutines)
			}
			n := create(L)
			if th, ok := L.Get(-1).(*glua.LState); ok {
				s.shareContext(th)
			}
			return n
		},
		"thread": s.thread,
		"first":  s.first,
		"release": func(L *glua.LState) int {
			s.release(L.CheckThread(1))
			return 0
		},
		"resume": func(L *glua.LState) int {
			s.enter(L)
			n := resume(L)
			s.leave()
			if n >= 2 && L.Get(-n) == glua.LFalse {
				L.Replace(-n+1, StripPrelude(L.Get(-n+1)))
			}
			return n
		},
		"isgo": func(L *glua.LState) int {
			L.Push(glua.LBool(L.CheckFunction(1).IsG))
			return 1
		},
		"adopt": func(L *glua.LState) int {
			co := L.CheckThread(1)
			if parent, ok := L.Get(2).(*glua.LState); ok {
				s.owners[co] = parent
			} else {
				delete(s.owners, co)
			}
			return 0
		},
		"logical": func(L *glua.LState) int {
			co := L.Get(1)
			for {
				th, ok := co.(*glua.LState)
				if !ok || s.owners[th] == nil {
					break
				}
				co = s.owners[th]
			}
			L.Push(co)
			return 1
		},
		"status":  orig("status"),
		"running": orig("running"),
		"yield": func(L *glua.LState) int {
			if !canYield() {
				L.RaiseError("attempt to yield across a C-call boundary (from inside a metamethod, iterator, table.sort or string.gsub callback)")
			}
			return yield(L)
		},
		"await": func(L *glua.LState) int {
			n := L.GetTop()
			if canYield() {
				values := make([]glua.LValue, 0, n+1)
				values = append(values, s.mark)
				for i := 1; i <= n; i++ {
					values = append(values, L.Get(i))
				}
				return L.Yield(values...)
			}
			ids := make([]int, n)
			for i := range ids {
				ids[i] = L.CheckInt(i + 1)
			}
			host.Perform(ids)
			return 0
		},
		"submit": func(L *glua.LState) int {
			id, err := host.Submit(L, L.CheckString(1), L.Get(2))
			if err != nil {
				L.Push(glua.LNil)
				L.Push(glua.LString(err.Error()))
				return 2
			}
			L.Push(glua.LNumber(id))
			return 1
		},
		"collect": func(L *glua.LState) int {
			v, err := host.Collect(L, L.CheckInt(1))
			if err != nil {
				L.Push(glua.LFalse)
				L.Push(glua.LString(err.Error()))
				return 2
			}
			L.Push(glua.LTrue)
			L.Push(v)
			return 2
		},
		// reachable says whether tools[name] is a caller: a name of the
		// pool, or any mcp__ name, which the host then refuses in plain
		// words (ORCH-4) rather than the script meeting a nil.
		"reachable": func(L *glua.LState) int {
			name, ok := L.Get(1).(glua.LString)
			L.Push(glua.LBool(ok && (host.Known(string(name)) || strings.HasPrefix(string(name), "mcp__"))))
			return 1
		},
	})
	prim.RawSetString("null", s.null)
	L.Push(L.NewFunctionFromProto(preludeProto()))
	L.Push(s.mark)
	L.Push(s.yieldErr)
	L.Push(prim)
	L.Push(L.G.Global)
	L.Call(4, 1)
	hooks := L.Get(-1).(*glua.LTable)
	L.Pop(1)
	s.toolGuard = hooks.RawGetString("tool_guard")
	s.setMain = hooks.RawGetString("set_main")
}

// NameOverflow gives gopher-lua's "lua callstack overflow", which names no
// place, the script line where th's calls ran too deep; other values are
// returned as they are.
func NameOverflow(th *glua.LState, v glua.LValue) glua.LValue {
	if v != glua.LString(callStackOverflow) {
		return v
	}
	for level := 0; ; level++ {
		dbg, ok := th.GetStack(level)
		if !ok {
			break
		}
		if _, err := th.GetInfo("Sl", dbg, glua.LNil); err == nil && dbg.Source == ChunkName && dbg.CurrentLine > 0 {
			return glua.LString(fmt.Sprintf("%s:%d: stack overflow (calls nested more than %d deep: does a function call itself without end?)", ChunkName, dbg.CurrentLine, callStackSize))
		}
	}
	return glua.LString(fmt.Sprintf("stack overflow (calls nested more than %d deep)", callStackSize))
}

// preludePosition is the position gopher-lua gives an error raised by a Go
// function whose nearest Lua caller is the prelude ("prelude:64: ").
var preludePosition = regexp.MustCompile(`^prelude:\d+: `)

// StripPrelude removes a prelude position from an error message: it would
// point the script's author at code they cannot see.
func StripPrelude(v glua.LValue) glua.LValue {
	if msg, ok := v.(glua.LString); ok {
		return glua.LString(preludePosition.ReplaceAllString(string(msg), ""))
	}
	return v
}

// enter and leave count coroutines resumed inside coroutines: each level
// nests a Go call, and the Go stack is not the script's to exhaust.
func (s *State) enter(L *glua.LState) {
	s.depth++
	if s.depth > maxResumeDepth {
		s.depth--
		L.RaiseError("C stack overflow (coroutines and pcalls nested more than %d deep)", maxResumeDepth)
	}
}

func (s *State) leave() { s.depth-- }

// maxSpareThreads bounds the finished pcall threads kept for reuse.
const maxSpareThreads = 8

// thread returns a thread for pcall, xpcall or a parallel branch: a spare
// one when a finished one was released, since gopher-lua builds a whole
// state for every new thread. These threads never reach the script.
func (s *State) thread(L *glua.LState) int {
	if n := len(s.spare); n > 0 {
		L.Push(s.spare[n-1])
		s.spare = s.spare[:n-1]
		return 1
	}
	th, cancel := L.NewThread()
	if cancel != nil {
		cancel()
	}
	s.shareContext(th)
	L.Push(th)
	return 1
}

// shareContext gives a new thread the state's own context in place of the
// child gopher-lua derives for it, so that every thread's VM loop consults
// the one context the host set (the sandbox's watches memory through it).
func (s *State) shareContext(th *glua.LState) {
	if ctx := s.L.Context(); ctx != nil {
		th.SetContext(ctx)
	}
}

// first starts f on a thread from thread, as coroutine.resume would start
// a fresh coroutine: ok flag, then the results or the error.
func (s *State) first(L *glua.LState) int {
	th := L.CheckThread(1)
	fn := L.CheckFunction(2)
	args := make([]glua.LValue, 0, L.GetTop()-2)
	for i := 3; i <= L.GetTop(); i++ {
		args = append(args, L.Get(i))
	}
	s.enter(L)
	state, err, values := L.Resume(th, fn, args...)
	s.leave()
	if state == glua.ResumeError {
		L.Push(glua.LFalse)
		var apiErr *glua.ApiError
		if errors.As(err, &apiErr) {
			L.Push(StripPrelude(NameOverflow(th, apiErr.Object)))
		} else {
			L.Push(glua.LString(err.Error()))
		}
		return 2
	}
	L.Push(glua.LTrue)
	for _, v := range values {
		L.Push(v)
	}
	return len(values) + 1
}

// release keeps a thread that ran to its end cleanly for reuse. A thread
// that died of an error may hold frames and is left to the GC.
func (s *State) release(th *glua.LState) {
	if _, busy := th.GetStack(0); !th.Dead || busy || len(s.spare) >= maxSpareThreads {
		return
	}
	th.Dead = false
	// Its own context was cancelled when it finished; the state's is the
	// run's budget, the one every thread checks.
	th.SetContext(s.L.Context())
	s.spare = append(s.spare, th)
}

// SetMain tells the prelude which coroutine runs the script, so that
// coroutine.running() answers nil there as it would in the main chunk.
func (s *State) SetMain(th *glua.LState) {
	s.L.Push(s.setMain)
	s.L.Push(th)
	s.L.Call(1, 0)
}

// Go frames of gopher-lua that tell whether a yield can reach the resumer.
const (
	fnMainLoop    = "github.com/yuin/gopher-lua.mainLoop"
	fnMainLoopCtx = "github.com/yuin/gopher-lua.mainLoopWithContext"
	fnThreadRun   = "github.com/yuin/gopher-lua.threadRun"
)

type frameKind uint8

const (
	frameOther frameKind = iota
	frameMainLoop
	frameThreadRun
)

// frameKinds caches what each return address on the stack belongs to;
// the set of addresses is small and fixed by the binary.
var frameKinds sync.Map // uintptr -> frameKind

func kindOf(pc uintptr) frameKind {
	if k, ok := frameKinds.Load(pc); ok {
		return k.(frameKind)
	}
	k := frameOther
	if fn := runtime.FuncForPC(pc - 1); fn != nil {
		switch fn.Name() {
		case fnMainLoop, fnMainLoopCtx:
			k = frameMainLoop
		case fnThreadRun:
			k = frameThreadRun
		}
	}
	frameKinds.Store(pc, k)
	return k
}

// maxYieldFrames is a little more than the Go frames between a primitive
// and its thread's start when nothing is nested (six: the primitive, its
// guard, callGFunction, the opcode handler, the main loop, threadRun); a
// nested main loop adds more than that, so a deeper stack is never
// yieldable, and the walk, which costs per frame, stays short.
const maxYieldFrames = 8

// canYield reports whether a Go function called from Lua may yield now.
// gopher-lua implements a yield by unwinding to the thread's main loop; if
// another main loop is nested in between (Lua code called back from Go:
// a metamethod, a for iterator, a table.sort comparator, a gsub callback),
// the yield would unwind the wrong loop and corrupt the state. gopher-lua
// exposes no count of such frames, so read it off the Go stack: a yield is
// safe when exactly one main loop runs between here and the thread's
// start.
func canYield() bool {
	var pcs [maxYieldFrames]uintptr
	n := runtime.Callers(2, pcs[:])
	loops := 0
	for _, pc := range pcs[:n] {
		switch kindOf(pc) {
		case frameMainLoop:
			loops++
			if loops > 1 {
				return false
			}
		case frameThreadRun:
			return loops == 1
		}
	}
	return false
}
