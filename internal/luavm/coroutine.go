package luavm

import (
	_ "embed"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"unsafe"

	"github.com/execlua/execlua/internal/toolname"
	"github.com/execlua/execlua/render"
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
	return trimmed(fn.Proto)
})

// Host is what the prelude calls into for tool calls; the sandbox
// implements it.
type Host struct {
	// Known reports whether name is in this run's reachable set.
	Known func(name string) bool
	// Suggest returns the reachable names a script may have meant by a
	// name that is not one (nil: none), for the error of calling it.
	Suggest func(name string) []string
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
	s.host = host
	orig := func(name string) glua.LGFunction {
		return libraries()["coroutine"][name].(*glua.LFunction).GFunction
	}
	create, resume, yield := orig("create"), orig("resume"), orig("yield")
	prim := newObject(24)
	setName(prim, "search_name", glua.LString(toolname.ToolSearch))
	setName(prim, "parallel_name", glua.LString(toolname.Parallel))
	s.register(prim, []namedFunction{
		{"create", func(L *glua.LState) int {
			s.coroutines++
			if s.coroutines > s.opts.MaxCoroutines {
				L.RaiseError("too many coroutines (the limit is %d per run)", s.opts.MaxCoroutines)
			}
			n := create(L)
			if th, ok := L.Get(-1).(*glua.LState); ok {
				s.shareContext(th)
			}
			return n
		}},
		{"thread", s.thread},
		{"first", s.first},
		{"release", func(L *glua.LState) int {
			s.release(L.CheckThread(1))
			return 0
		}},
		{"resume", func(L *glua.LState) int { return s.resume(L, resume, false) }},
		{"deliver", func(L *glua.LState) int { return s.resume(L, resume, true) }},
		{"view", s.status},
		{"isgo", func(L *glua.LState) int {
			L.Push(glua.LBool(L.CheckFunction(1).IsG))
			return 1
		}},
		{"adopt", func(L *glua.LState) int {
			co := L.CheckThread(1)
			if parent, ok := L.Get(2).(*glua.LState); ok {
				s.owners[co] = parent
			} else {
				delete(s.owners, co)
			}
			return 0
		}},
		{"logical", func(L *glua.LState) int {
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
		}},
		{"status", orig("status")},
		{"running", orig("running")},
		{"yield", func(L *glua.LState) int {
			if !canYield(L) {
				L.RaiseError("attempt to yield across a C-call boundary (from inside a metamethod, iterator, table.sort or string.gsub callback)")
			}
			return yield(L)
		}},
		// await carries out the calls of a yield that a wrapper passes
		// on: outward as a yield when one can reach the driver, on the
		// spot otherwise. Its ids are positive whatever they were: the
		// wrapper answers its own coroutine's call (reply in the prelude).
		{"await", func(L *glua.LState) int {
			n := L.GetTop()
			ids := make([]int, n)
			for i := range ids {
				ids[i] = abs(L.CheckInt(i + 1))
			}
			if canYield(L) {
				values := make([]glua.LValue, n+1)
				values[0] = s.mark
				for i, id := range ids {
					values[i+1] = glua.LNumber(id)
				}
				return L.Yield(values...)
			}
			s.host.Perform(ids)
			return 0
		}},
		// call makes one tool call: it converts and records the call (or
		// refuses it), yields it to the driver as (MARK, -id), and the
		// driver resumes it with its output. Where no yield can reach the
		// driver, it performs the call on the spot.
		{"call", func(L *glua.LState) int {
			name, args := L.CheckString(1), L.Get(2)
			if args == s.tools {
				L.Push(glua.LFalse)
				L.Push(glua.LString("call tools." + name + "{...} with a dot, not a colon: tools:" + name + " passes the tools table as the arguments"))
				return 2
			}
			id, err := s.host.Submit(L, name, args)
			if err != nil {
				L.Push(glua.LFalse)
				L.Push(glua.LString(err.Error()))
				return 2
			}
			if canYield(L) {
				return L.Yield(s.mark, glua.LNumber(-id))
			}
			s.host.Perform([]int{id})
			ok, v := s.answer(id)
			L.Push(ok)
			L.Push(v)
			return 2
		}},
		{"collect", func(L *glua.LState) int {
			ok, v := s.answer(L.CheckInt(1))
			L.Push(ok)
			L.Push(v)
			return 2
		}},
		// reachable says whether tools[name] is a caller: a name of the
		// pool, or any name with the MCP prefix, which the host then
		// refuses in plain words (ORCH-4) rather than the script meeting
		// a nil. This is the one rule that knows the prefix.
		{"reachable", func(L *glua.LState) int {
			name, ok := L.Get(1).(glua.LString)
			L.Push(glua.LBool(ok && (s.host.Known(string(name)) || strings.HasPrefix(string(name), toolname.MCPPrefix))))
			return 1
		}},
	})
	setName(prim, "null", s.null)
	L.Push(L.NewFunctionFromProto(preludeProto()))
	L.Push(s.mark)
	L.Push(s.yieldErr)
	L.Push(prim)
	L.Push(L.G.Global)
	L.Call(4, 4)
	s.tools, s.callers = L.Get(-4).(*glua.LTable), L.Get(-3).(*glua.LTable)
	s.index, s.setMain = L.Get(-2), L.Get(-1)
	L.Pop(4)
}

// toolField is (tool) in compile.go: tools.name(...) reads name off t and
// fails in plain words when it is nil. A name the script reached before,
// on the tools table it was given, is one look-up here; anything else
// is read through the prelude's index, as t[name] would.
func (s *State) toolField(L *glua.LState) int {
	f, msg := s.lookupTool(L, L.Get(1), L.CheckString(2))
	if msg != "" {
		L.RaiseError("%s", msg)
	}
	L.Push(f)
	return 1
}

// toolArg is (toolarg) in compile.go: tools.name handed to pcall or
// xpcall is the tool's caller, or a function that fails as calling the
// name would, so that the caught error says which name was wrong.
func (s *State) toolArg(L *glua.LState) int {
	f, msg := s.lookupTool(L, L.Get(1), L.CheckString(2))
	if msg != "" {
		f = L.NewFunction(func(L *glua.LState) int {
			L.RaiseError("%s", msg)
			return 0
		})
	}
	L.Push(f)
	return 1
}

// lookupTool reads name off t as toolField does: the caller, or the
// message of calling a nil there.
func (s *State) lookupTool(L *glua.LState, t glua.LValue, name string) (glua.LValue, string) {
	var f glua.LValue = glua.LNil
	if t == s.tools && s.tools.RawGetString(name) == glua.LNil {
		f = s.callers.RawGetString(name)
	}
	if f == glua.LNil {
		L.Push(s.index)
		L.Push(t)
		L.Push(glua.LString(name))
		L.Call(2, 1)
		f = L.Get(-1)
		L.Pop(1)
	}
	if f == glua.LNil {
		var meant []string
		if s.host.Suggest != nil {
			meant = s.host.Suggest(name)
		}
		if len(meant) > 0 {
			for i, m := range meant {
				meant[i] = render.CallForm(m)
			}
			return nil, fmt.Sprintf("attempt to call a nil value (field '%s'): no tool of that name in this session; did you mean %s?", name, strings.Join(meant, " or "))
		}
		return nil, fmt.Sprintf("attempt to call a nil value (field '%s'): no tool of that name in this session; find tools with tools.ToolSearch{ query = \"...\" }", name)
	}
	return f, ""
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

// caught is an error message as pcall or coroutine.resume hands it to the
// script: without prelude positions, and naming what the line called or
// indexed (Script.Explain), as the uncaught error would.
func (s *State) caught(v glua.LValue) glua.LValue {
	v = StripPrelude(v)
	if msg, ok := v.(glua.LString); ok && s.script != nil {
		return glua.LString(s.script.Explain(string(msg)))
	}
	return v
}

// answer is a performed call's output as its caller receives it: true and
// the value, or false and the error's message.
func (s *State) answer(id int) (ok, value glua.LValue) {
	v, err := s.host.Collect(s.L, id)
	if err != nil {
		return glua.LFalse, glua.LString(err.Error())
	}
	return glua.LTrue, v
}

// Answer is what to resume a script with after a direct call (see
// ToolYield) has been performed: its output, or its error. The slice is
// reused by the next Answer; Resume copies it.
func (s *State) Answer(id int) []glua.LValue {
	s.answerBuf[0], s.answerBuf[1] = s.answer(id)
	return s.answerBuf[:]
}

// ToolYield reads what the script yielded. ok says it carries tool calls,
// to be performed; their ids are appended to ids. direct says the yield is
// a single call waiting for its own output: resume the script with
// Answer(id). Otherwise resume it with nothing.
func (s *State) ToolYield(values []glua.LValue, ids []int) (out []int, direct, ok bool) {
	if len(values) == 0 || values[0] != s.mark {
		return ids, false, false
	}
	for _, v := range values[1:] {
		ids = append(ids, abs(int(glua.LVAsNumber(v))))
	}
	direct = len(values) == 2 && glua.LVAsNumber(values[1]) < 0
	return ids, direct, true
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// resume is coroutine.resume with Lua 5.1's states: a coroutine that is
// running, or that resumed the one running (normal), cannot be resumed,
// nor can one waiting for a tool call's result, which belongs to the
// driver until the wrapper that carries the call delivers it (deliver
// true). gopher-lua would resume such a thread anyway and corrupt the VM.
func (s *State) resume(L *glua.LState, resume glua.LGFunction, deliver bool) int {
	th := L.CheckThread(1)
	if msg := s.unresumable(L, th, deliver); msg != "" {
		L.Push(glua.LFalse)
		L.Push(glua.LString(msg))
		return 2
	}
	delete(s.waiting, th)
	s.enter(L)
	s.active[th] = true
	defer func() {
		delete(s.active, th)
		s.leave()
	}()
	n := resume(L)
	switch {
	case n >= 2 && L.Get(-n) == glua.LFalse:
		L.Replace(-n+1, s.caught(L.Get(-n+1)))
	case n >= 2 && L.Get(-n+1) == s.mark && !th.Dead:
		s.waiting[th] = true
	}
	return n
}

// unresumable is why th cannot be resumed from L, or "" when it can.
func (s *State) unresumable(L, th *glua.LState, deliver bool) string {
	switch {
	case th.Dead:
		return "cannot resume dead coroutine"
	case th == L || s.active[th]:
		return "cannot resume non-suspended coroutine"
	case s.waiting[th] && !deliver:
		return "cannot resume non-suspended coroutine: it is waiting for the result of a tool call, which it gets when the call is done"
	}
	return ""
}

// status is coroutine.status as the script sees it, for a coroutine other
// than the running one (the prelude answers that): one that resumed
// another, or that waits for a tool call's result, is "normal", active but
// not running, as Lua 5.1 says of a coroutine in the middle of a call.
func (s *State) status(L *glua.LState) int {
	th := L.CheckThread(1)
	switch {
	case th.Dead:
		L.Push(glua.LString("dead"))
	case th == L:
		L.Push(glua.LString("running"))
	case s.active[th] || s.waiting[th]:
		L.Push(glua.LString("normal"))
	default:
		L.Push(glua.LString("suspended"))
	}
	return 1
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
			L.Push(s.caught(NameOverflow(th, apiErr.Object)))
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

// frameLayout locates the parts of gopher-lua's call frames that canYield
// reads; gopher-lua does not export them, so their offsets are read once
// off its types, and a layout other than the expected one stops the
// program at the first state built rather than misjudging a yield.
type frameLayout struct {
	current        uintptr // LState.currentFrame
	fn, parent, pc uintptr // callFrame.Fn, .Parent, .Pc
}

// fieldOffset is the offset of typ's field name, which must be of type
// want; otherwise it calls bad, which does not return. gopher-lua keeps the
// parts read this way unexported, so their layout is checked once, when
// first needed.
func fieldOffset(typ reflect.Type, name string, want reflect.Type, bad func()) uintptr {
	f, ok := typ.FieldByName(name)
	if !ok || f.Type != want {
		bad()
	}
	return f.Offset
}

var frames = sync.OnceValue(func() frameLayout {
	bad := func(what string) {
		panic("lua: gopher-lua's call frames are not as canYield expects: " + what)
	}
	cur, ok := reflect.TypeFor[glua.LState]().FieldByName("currentFrame")
	if !ok || cur.Type.Kind() != reflect.Pointer || cur.Type.Elem().Kind() != reflect.Struct {
		bad("LState.currentFrame")
	}
	frame := cur.Type.Elem()
	field := func(name string, want reflect.Type) uintptr {
		return fieldOffset(frame, name, want, func() { bad("callFrame." + name) })
	}
	return frameLayout{
		current: cur.Offset,
		fn:      field("Fn", reflect.TypeFor[*glua.LFunction]()),
		parent:  field("Parent", cur.Type),
		pc:      field("Pc", reflect.TypeFor[int]()),
	}
})

// canYield reports whether the Go function running on L may yield now.
// gopher-lua implements a yield by unwinding to the thread's main loop; if
// Lua code was called back from Go in between (a metamethod, a for
// iterator, a table.sort comparator, a gsub callback), the yield would
// unwind the wrong loop and corrupt the state. gopher-lua keeps no count
// of such callbacks, but its call frames tell them apart: a function the
// thread's own loop called has a caller whose current instruction is a
// call; one called back from Go has a Go function as its caller, and a
// metamethod or iterator has a caller stopped on some other instruction
// (an index, an arithmetic, a comparison, a for loop). So the yield is
// safe when every frame up to the thread's first was entered by a call
// instruction. The main thread never yields: the script runs in a
// coroutine.
func canYield(L *glua.LState) bool {
	if L.Parent == nil {
		return false
	}
	lay := frames()
	at := func(p unsafe.Pointer, off uintptr) unsafe.Pointer { return unsafe.Add(p, off) }
	frame := *(*unsafe.Pointer)(at(unsafe.Pointer(L), lay.current))
	for frame != nil {
		parent := *(*unsafe.Pointer)(at(frame, lay.parent))
		if parent == nil {
			return true
		}
		fn := *(**glua.LFunction)(at(parent, lay.fn))
		pc := *(*int)(at(parent, lay.pc))
		if fn.IsG || pc < 1 || pc > len(fn.Proto.Code) {
			return false
		}
		if op := int(fn.Proto.Code[pc-1] >> 26); op != glua.OP_CALL && op != glua.OP_TAILCALL {
			return false
		}
		frame = parent
	}
	return false
}

// ErrorMessage is the text of the error a script ended with on its main
// thread th: a string without prelude positions, the __tostring of a table
// that has one, or the value rendered in at most keep characters (which
// fails only when the run is stopped meanwhile).
func (s *State) ErrorMessage(th *glua.LState, err error, keep int) (string, error) {
	var apiErr *glua.ApiError
	if !errors.As(err, &apiErr) {
		return err.Error(), nil
	}
	if str, ok := StripPrelude(NameOverflow(th, apiErr.Object)).(glua.LString); ok {
		return string(str), nil
	}
	if apiErr.Object == glua.LNil {
		return "nil", nil
	}
	if text, ok := s.ErrorText(apiErr.Object); ok {
		return text, nil
	}
	return s.Render(apiErr.Object, keep)
}

// MaxStringBytes is the longest string this state's builtins may build.
func (s *State) MaxStringBytes() int { return s.opts.MaxStringBytes }
