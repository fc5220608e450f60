package luavm

import (
	"context"
	"errors"
	"fmt"
	gomath "math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"weak"

	glua "github.com/yuin/gopher-lua"
)

// Options bounds one script environment. The zero value gives the defaults.
type Options struct {
	// MaxStringBytes is the longest string a builtin or the `..` operator
	// may build (default 4 MiB).
	MaxStringBytes int
	// MaxCoroutines is how many coroutines a script may create in one run,
	// tools.parallel branches included (default 2,000). Each costs gopher-lua
	// a whole thread state (about 10 KB), so this bounds what a script can
	// hold on to.
	MaxCoroutines int
	// Print receives each line the script prints, cut at PrintRoom
	// characters, and the line's full length in characters. Nil discards
	// them.
	Print func(line string, chars int)
	// PrintRoom, when set, says how many more characters of printed text
	// are worth keeping: print builds no more of a line than that and only
	// counts the rest. Nil keeps MaxStringBytes characters of a line.
	PrintRoom func() int
	// OnCrash is called once when a Go function of the environment panics;
	// the sandbox uses it to stop the run and throw the state away.
	OnCrash func(err error)
}

const (
	// callStackSize bounds Lua calls nested in one thread.
	callStackSize         = 512
	defaultMaxStringBytes = 4 << 20
	defaultMaxCoroutines  = 2000
	// maxResults bounds how many values unpack and string.byte push, as
	// C Lua does, so that they cannot grow a thread's stack without end.
	maxResults = 8000
	// maxResumeDepth bounds coroutines resumed inside coroutines (pcall
	// included, since it runs its function as a coroutine): each level
	// nests a Go call, and the Go stack is not ours to exhaust.
	maxResumeDepth = 200
)

func (o *Options) withDefaults() Options {
	var out Options
	if o != nil {
		out = *o
	}
	if out.MaxStringBytes <= 0 {
		out.MaxStringBytes = defaultMaxStringBytes
	}
	if out.MaxCoroutines <= 0 {
		out.MaxCoroutines = defaultMaxCoroutines
	}
	return out
}

// State is one script environment: a fresh gopher-lua state holding only
// the allowlisted globals. It is used for one run and then closed; it may
// be prepared ahead of its run (Prepare), never reused.
type State struct {
	L    *glua.LState
	opts Options

	// ids numbers tables, functions and threads for tostring, in order of
	// first naming, so that no Go pointer ever reaches the script.
	ids    *weakMap[int]
	lastID int
	// null is tools.null, which a JSON null inside an array becomes.
	null *glua.LTable
	// args encodes tool arguments (ToJSON), one walk at a time.
	args encoder
	// decoder decodes tool output (FromJSON), one document at a time.
	decoder decoder
	// keys are the object keys of converted tool output, boxed once.
	keys       keyBoxes
	coroutines int
	// owners links the coroutine of a pcall, xpcall or parallel branch to
	// the coroutine it acts for (the prelude's adopt).
	owners map[*glua.LState]*glua.LState
	depth  int
	// active holds the coroutines inside a resume (running or normal),
	// waiting those suspended on a tool call until its result is
	// delivered (see resume).
	active, waiting map[*glua.LState]bool
	spare           []*glua.LState
	rng             *rand.Rand
	crashed         bool

	// mark is the first value of every yield that carries tool calls, so
	// the coroutine wrappers can tell them from the script's own yields.
	mark *glua.LTable
	// yieldErr is what the driver resumes a script's own top-level yield
	// with; the yield wrapper turns it into the error C Lua raises.
	yieldErr *glua.LTable
	// index and setMain are functions of the prelude the Go side calls;
	// tools is the tools table and callers the cache it reads through.
	index, setMain glua.LValue
	tools, callers *glua.LTable
	// host carries out the tool calls (InstallPrelude).
	host      Host
	answerBuf [2]glua.LValue
	// next is the base library's next, kept for pairs in case the script
	// replaces the global.
	next glua.LValue
	// ipairsNext is the iterator function ipairs hands out.
	ipairsNext glua.LValue
	// script is the script Load instantiated, which explains caught errors.
	script *Script
	// results are what the script returned, set when it finishes.
	results  []glua.LValue
	returned bool
}

// New returns a fresh environment with the safe globals of the contract:
// the base functions of the allowlist, string (without dump), table, math
// and print. InstallPrelude adds the rest: pcall, xpcall, coroutine and
// tools, which all take part in carrying nested calls.
func New(opts *Options) *State {
	s := &State{
		opts:    opts.withDefaults(),
		ids:     newWeakMap[int](),
		owners:  map[*glua.LState]*glua.LState{},
		active:  map[*glua.LState]bool{},
		waiting: map[*glua.LState]bool{},
		rng:     rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())),
	}
	s.L = glua.NewState(glua.Options{
		SkipOpenLibs:        true,
		CallStackSize:       callStackSize,
		RegistrySize:        256,
		RegistryMaxSize:     1 << 18,
		RegistryGrowStep:    1024,
		MinimizeStackMemory: true,
	})
	s.mark = s.L.CreateTable(0, 0)
	s.yieldErr = s.L.CreateTable(0, 0)
	s.null = s.newNull()
	s.openLibs()
	states.Store(s.L.G, s)
	return s
}

// Prepare makes a state ahead of its run: New and InstallPrelude, with
// the options and the host left for Bind to give. A prepared state is
// still used for one run only.
func Prepare() *State {
	s := New(nil)
	s.InstallPrelude(Host{})
	return s
}

// Bind gives a prepared state its run's options and host, before the run
// starts.
func (s *State) Bind(opts *Options, host Host) {
	s.opts, s.host = opts.withDefaults(), host
}

// Close releases the state.
func (s *State) Close() {
	states.Delete(s.L.G)
	s.L.Close()
}

// states finds the State of a gopher-lua state, for the conversions, which
// take the gopher-lua state they build in.
var states sync.Map // *glua.Global -> *State

func stateOf(L *glua.LState) *State {
	s, _ := states.Load(L.G)
	st, _ := s.(*State)
	return st
}

// newNull builds tools.null: an empty table that cannot be changed, shown
// and encoded as null.
func (s *State) newNull() *glua.LTable {
	null := s.L.CreateTable(0, 0)
	mt := s.L.CreateTable(0, 3)
	mt.RawSetString("__metatable", glua.LString("null"))
	mt.RawSetString("__tostring", s.L.NewFunction(func(L *glua.LState) int {
		L.Push(glua.LString("null"))
		return 1
	}))
	mt.RawSetString("__newindex", s.L.NewFunction(func(L *glua.LState) int {
		L.RaiseError("tools.null cannot be changed")
		return 0
	}))
	null.Metatable = mt
	return null
}

// YieldError is the value to resume a top-level script yield with.
func (s *State) YieldError() *glua.LTable { return s.yieldErr }

// removedGlobals are the names C Lua has and the script must not, and
// utf8, the newer Lua library models write: each one reads as nil, and
// calling or indexing it fails with a plain-words error (see compile.go).
var removedGlobals = map[string]string{
	"utf8":           "scripts run Lua 5.1, which has no utf8 library; # and the string functions count bytes",
	"require":        "scripts have no modules, files or network",
	"module":         "scripts have no modules, files or network",
	"package":        "scripts have no modules, files or network",
	"dofile":         "scripts have no modules, files or network",
	"loadfile":       "scripts have no modules, files or network",
	"load":           "code cannot be compiled at run time",
	"loadstring":     "code cannot be compiled at run time",
	"io":             "scripts have no files; use the tools",
	"os":             "scripts have no access to the host; use the tools",
	"debug":          "scripts have no access to the VM internals",
	"getfenv":        "scripts have no access to environments",
	"setfenv":        "scripts have no access to environments",
	"newproxy":       "scripts have no userdata",
	"collectgarbage": "memory is managed by the host",
	"gcinfo":         "memory is managed by the host",
}

// baseAllowlist is what the script keeps of gopher-lua's base library; the
// rest of it is replaced or dropped.
var baseAllowlist = []string{
	"assert", "next", "rawequal", "rawget", "select", "type",
}

// libraries are the gopher-lua libraries a script gets, read once from a
// template state: their Go functions and constants, by library and name.
// Every state then builds its own function values from them, which is much
// cheaper than opening the libraries and deleting what is not allowed, and
// nothing gopher-lua adds to a library can slip through unnoticed.
var libraries = sync.OnceValue(func() map[string]map[string]glua.LValue {
	L := glua.NewState()
	defer L.Close()
	allowed := map[string]bool{}
	for _, name := range baseAllowlist {
		allowed[name] = true
	}
	libs := map[string]map[string]glua.LValue{"_G": {}}
	L.G.Global.ForEach(func(k, v glua.LValue) {
		if allowed[k.String()] {
			libs["_G"][k.String()] = v
		}
	})
	for _, lib := range []string{"string", "table", "math", "coroutine"} {
		libs[lib] = map[string]glua.LValue{}
		L.GetGlobal(lib).(*glua.LTable).ForEach(func(k, v glua.LValue) {
			libs[lib][k.String()] = v
		})
	}
	// Guarded like ours, once for every state: a Go panic in gopher-lua's
	// own library is a crash, not an error a script could catch. The
	// coroutine library is the prelude's, which guards what it uses.
	for lib, fns := range libs {
		if lib == "coroutine" {
			continue
		}
		for name, v := range fns {
			if fn, ok := v.(*glua.LFunction); ok && fn.IsG {
				fns[name] = L.NewFunction(guard(name, fn.GFunction))
			}
		}
	}
	return libs
})

// dropped are library members the script must not have.
var dropped = map[string]bool{"dump": true, "gfind": true, "__index": true, "getn": true}

func (s *State) openLibs() {
	L := s.L
	globals := L.G.Global
	libs := libraries()
	// Our own functions go in first; the template fills in the rest. The
	// coroutine library is the prelude's to build (InstallPrelude).
	tables := map[string]*glua.LTable{"_G": globals}
	presize(globals, len(libs["_G"])+globalsAdded)
	for _, lib := range []string{"string", "table", "math"} {
		tables[lib] = newObject(len(libs[lib]) + libraryAdded)
		setName(globals, lib, tables[lib])
	}
	s.register(globals, []namedFunction{
		{"print", s.print},
		{"error", s.error},
		{"tostring", s.tostring},
		{"getmetatable", s.getmetatable},
		{"setmetatable", s.setmetatable},
		{"unpack", s.unpack},
		{"ipairs", s.ipairs},
		{"pairs", s.pairs},
		{"rawset", s.rawset},
		{"tonumber", tonumber},
	})
	s.openString(tables["string"])
	s.openTable(tables["table"])
	s.openMath(tables["math"])
	for lib, t := range tables {
		for name, v := range libs[lib] {
			if dropped[name] || t.RawGetString(name) != glua.LNil {
				continue
			}
			if fn, ok := v.(*glua.LFunction); ok {
				v = L.NewFunction(fn.GFunction)
			}
			setName(t, name, v)
		}
	}
	s.next = globals.RawGetString("next")
	s.ipairsNext = L.NewFunction(ipairsStep)
	setName(globals, "_G", globals)
	setName(globals, "_VERSION", glua.LString(glua.LuaVersion))
}

// Room for what a state adds to the template's members: its own
// functions in a library table, and in the globals its own functions,
// the libraries, _G, _VERSION and the prelude's (it adds six).
const (
	libraryAdded = 4
	globalsAdded = 24
)

// register sets Go functions on t, a table of the state's own (setName),
// each guarded against Go panics.
func (s *State) register(t *glua.LTable, fns []namedFunction) {
	for _, f := range fns {
		setName(t, f.name, s.L.NewFunction(guard(f.name, f.fn)))
	}
}

// namedFunction is a Go function of a library table, by name.
type namedFunction struct {
	name string
	fn   glua.LGFunction
}

// callStackOverflow is what gopher-lua panics with when a call from Go
// finds its call stack full.
const callStackOverflow = "lua callstack overflow"

// guard turns a Go panic in fn into a crash: the run is stopped (OnCrash)
// and the state is marked to be thrown away. Lua errors pass through.
func guard(name string, fn glua.LGFunction) glua.LGFunction {
	return func(L *glua.LState) (n int) {
		defer func() {
			r := recover()
			if r == nil {
				return
			}
			if _, ok := r.(*glua.ApiError); ok {
				panic(r)
			}
			if r == callStackOverflow {
				// gopher-lua's call stack is full: deep recursion through
				// Go frames, an ordinary Lua error, not a crash.
				L.RaiseError("stack overflow (calls nested more than %d deep)", callStackSize)
			}
			if s := stateOf(L); s != nil && !s.crashed {
				s.crashed = true
				if s.opts.OnCrash != nil {
					s.opts.OnCrash(fmt.Errorf("%s panicked: %v\n%s", name, r, debug.Stack()))
				}
			}
			L.RaiseError("internal error in %s", name)
		}()
		return fn(L)
	}
}

// checkStop raises the run's stop reason inside long-running builtins,
// which the VM's own per-instruction check does not reach.
func checkStop(L *glua.LState) {
	if ctx := L.Context(); ctx != nil && ctx.Err() != nil {
		L.RaiseError("%s", context.Cause(ctx).Error())
	}
}

// numberString is how Lua shows a number: C Lua's "%.14g" ("1e+15",
// "-0"), with C's names for the infinities and NaN.
func numberString(f float64) string {
	switch {
	case gomath.IsInf(f, 1):
		return "inf"
	case gomath.IsInf(f, -1):
		return "-inf"
	case gomath.IsNaN(f):
		return "nan"
	}
	return strconv.FormatFloat(f, 'g', 14, 64)
}

// asString is Lua's string coercion of a string or number.
func asString(v glua.LValue) string {
	if n, ok := v.(glua.LNumber); ok {
		return numberString(float64(n))
	}
	return glua.LVAsString(v)
}

// toStringMethod is t's __tostring metamethod, or nil.
func toStringMethod(t *glua.LTable) glua.LValue {
	if mt, ok := t.Metatable.(*glua.LTable); ok {
		return mt.RawGetString("__tostring")
	}
	return glua.LNil
}

// weakMap maps values to V without keeping them alive: it holds weak
// pointers, and an entry goes when its value is collected (a script may
// make millions of short-lived tables).
type weakMap[V any] struct {
	mu sync.Mutex // cleanups run on their own goroutine
	m  map[any]V
}

func newWeakMap[V any]() *weakMap[V] { return &weakMap[V]{m: map[any]V{}} }

// weakGet returns p's value; when p has none and set is not nil, it gives
// p the value set returns.
func weakGet[T, V any](w *weakMap[V], p *T, set func() V) (V, bool) {
	key := weak.Make(p)
	w.mu.Lock()
	defer w.mu.Unlock()
	if v, ok := w.m[key]; ok || set == nil {
		return v, ok
	}
	v := set()
	w.m[key] = v
	runtime.AddCleanup(p, func(key weak.Pointer[T]) {
		w.mu.Lock()
		defer w.mu.Unlock()
		delete(w.m, key)
	}, key)
	return v, true
}

func idOf[T any](s *State, p *T) int {
	n, _ := weakGet(s.ids, p, func() int {
		s.lastID++
		return s.lastID
	})
	return n
}

// id returns the per-state number standing in for v's address.
func (s *State) id(v glua.LValue) int {
	switch v := v.(type) {
	case *glua.LTable:
		return idOf(s, v)
	case *glua.LFunction:
		return idOf(s, v)
	case *glua.LState:
		return idOf(s, v)
	case *glua.LUserData:
		return idOf(s, v)
	}
	return 0
}

func (s *State) tostringValue(L *glua.LState, v glua.LValue) string {
	switch v := v.(type) {
	case glua.LString:
		return string(v)
	case glua.LNumber:
		return numberString(float64(v))
	case glua.LBool, *glua.LNilType:
		return v.String()
	case *glua.LTable:
		if fn := toStringMethod(v); fn != glua.LNil {
			switch res := callToString(L, fn, v).(type) {
			case glua.LString:
				return string(res)
			case glua.LNumber:
				return numberString(float64(res))
			}
			L.RaiseError("'__tostring' must return a string")
		}
	}
	return fmt.Sprintf("%s: 0x%08x", v.Type().String(), s.id(v))
}

// ErrorText is what an uncaught error object reads as: a table's
// __tostring text when it has one and it gives a string, as the Lua
// interpreter shows it.
func (s *State) ErrorText(v glua.LValue) (string, bool) {
	t, ok := v.(*glua.LTable)
	if !ok {
		return "", false
	}
	fn := toStringMethod(t)
	if fn == glua.LNil {
		return "", false
	}
	if err := s.L.CallByParam(glua.P{Fn: fn, NRet: 1, Protect: true}, t); err != nil {
		return "", false
	}
	res := s.L.Get(-1)
	s.L.Pop(1)
	str, ok := res.(glua.LString)
	return string(str), ok
}

// tostring is Lua 5.1's: a table's __tostring result is returned as it
// is, whatever its type (print and string.format need a string of it).
func (s *State) tostring(L *glua.LState) int {
	v := L.CheckAny(1)
	if t, ok := v.(*glua.LTable); ok {
		if fn := toStringMethod(t); fn != glua.LNil {
			L.Push(callToString(L, fn, t))
			return 1
		}
	}
	L.Push(glua.LString(s.tostringValue(L, v)))
	return 1
}

func callToString(L *glua.LState, fn, v glua.LValue) glua.LValue {
	L.Push(fn)
	L.Push(v)
	L.Call(1, 1)
	res := L.Get(-1)
	L.Pop(1)
	return res
}

// error is C Lua's: level 1 is the function that called error, level 2
// its caller, and a level that names no Lua function adds no position.
// (gopher-lua counts one level short above 1 and leaves a stray space when
// it finds no position.)
func (s *State) error(L *glua.LState) int {
	obj := L.Get(1) // error() raises nil, as in C Lua
	if str, ok := obj.(glua.LString); ok {
		if pos := where(L, L.OptInt(2, 1)); pos != "" {
			obj = glua.LString(pos + " " + string(str))
		}
	}
	L.Error(obj, 0)
	return 0
}

// where is C Lua's luaL_where: "source:line:" of the function level calls
// up from the running Go function, or "" when that is not Lua code.
func where(L *glua.LState, level int) string {
	if level <= 0 {
		return ""
	}
	dbg, ok := L.GetStack(level)
	if !ok {
		return ""
	}
	if _, err := L.GetInfo("Sl", dbg, glua.LNil); err != nil || dbg.CurrentLine <= 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d:", dbg.Source, dbg.CurrentLine)
}

// print writes one line: its arguments as tostring shows them, joined by
// tabs, except that tables are shown as compact JSON (the contract's
// rendering, which invokes no metamethod) rather than as "table: 0x...".
// Only what fits the log's room is built; the rest is counted.
func (s *State) print(L *glua.LState) int {
	keep := s.opts.MaxStringBytes
	if s.opts.PrintRoom != nil {
		keep = s.opts.PrintRoom()
	}
	e := s.lenient(keep)
	for i := 1; i <= L.GetTop(); i++ {
		if i > 1 {
			e.buf.WriteByte('\t')
		}
		v := L.Get(i)
		if _, ok := v.(*glua.LTable); ok {
			if err := e.encode(v, nil, nil, 0); err != nil {
				L.RaiseError("%s", err.Error())
			}
			continue
		}
		// Counting what the log does not keep is work too: thousands of
		// strings of megabytes take seconds.
		checkStop(L)
		e.buf.WriteString(s.tostringValue(L, v))
	}
	if s.opts.Print != nil {
		s.opts.Print(e.buf.buf.String(), e.buf.chars)
	}
	return 0
}

// getmetatable returns a table's metatable (or its __metatable field);
// every other type has none as far as the script can see, so the string
// library can never be reached or replaced through it.
func (s *State) getmetatable(L *glua.LState) int {
	t, ok := L.CheckAny(1).(*glua.LTable)
	if !ok {
		L.Push(glua.LNil)
		return 1
	}
	mt, ok := t.Metatable.(*glua.LTable)
	if !ok {
		L.Push(glua.LNil)
		return 1
	}
	if protected := mt.RawGetString("__metatable"); protected != glua.LNil {
		L.Push(protected)
		return 1
	}
	L.Push(mt)
	return 1
}

// setmetatable accepts tables only (gopher-lua also takes strings, numbers
// and functions, which would change the metatable of every such value).
func (s *State) setmetatable(L *glua.LState) int {
	t := L.CheckTable(1)
	mt := L.Get(2)
	if mt != glua.LNil {
		if _, ok := mt.(*glua.LTable); !ok {
			L.ArgError(2, "nil or table expected")
		}
	}
	if old, ok := t.Metatable.(*glua.LTable); ok && old.RawGetString("__metatable") != glua.LNil {
		L.RaiseError("cannot change a protected metatable")
	}
	t.Metatable = mt
	L.SetTop(1)
	return 1
}

func (s *State) unpack(L *glua.LState) int {
	t := L.CheckTable(1)
	i := intArg(L, 2, 1)
	j := intArg(L, 3, float64(t.Len()))
	if i > j {
		return 0
	}
	// In floats, so that ranges such as -2^62..2^62 cannot overflow.
	if j-i >= maxResults {
		L.RaiseError("too many results to unpack")
	}
	for k := int(i); k <= int(j); k++ {
		L.Push(t.RawGetInt(k))
	}
	return int(j-i) + 1
}

// intArg is optional integer argument n, truncated as C Lua does, as a
// float64 so that arithmetic on it cannot overflow; NaN is refused (Go's
// int conversion of NaN is the most negative int).
func intArg(L *glua.LState, n int, def float64) float64 {
	f := float64(L.OptNumber(n, glua.LNumber(def)))
	if gomath.IsNaN(f) {
		L.ArgError(n, "number has no integer representation")
	}
	return gomath.Trunc(f)
}

// tonumber is C Lua's: in base 10 any numeral Lua reads ("1e5", "0x1F",
// " 2.5 "), in another base an integer in that base.
func tonumber(L *glua.LState) int {
	v := L.CheckAny(1)
	base := L.OptInt(2, 10)
	if base < 2 || base > 36 {
		L.ArgError(2, "base out of range")
	}
	str, ok := v.(glua.LString)
	if !ok {
		if n, isNum := v.(glua.LNumber); isNum && base == 10 {
			L.Push(n)
		} else {
			L.Push(glua.LNil)
		}
		return 1
	}
	text := strings.TrimSpace(string(str))
	if base == 10 {
		if f, ok := parseNumeral(text); ok {
			L.Push(glua.LNumber(f))
			return 1
		}
	} else if n, err := strconv.ParseInt(text, base, 64); err == nil && !strings.Contains(text, "_") {
		L.Push(glua.LNumber(n))
		return 1
	}
	L.Push(glua.LNil)
	return 1
}

// parseNumeral reads a decimal or hexadecimal numeral as strtod does,
// refusing what Go's parser takes and Lua's does not (underscores, "inf").
func parseNumeral(text string) (float64, bool) {
	if text == "" || strings.ContainsAny(text, "_iInN") && !isHex(text) {
		return 0, false
	}
	if isHex(text) {
		neg := strings.HasPrefix(text, "-")
		digits := strings.TrimLeft(text, "+-")[2:]
		n, err := strconv.ParseUint(digits, 16, 64)
		if err != nil || strings.Contains(digits, "_") {
			return 0, false
		}
		if neg {
			return -float64(n), true
		}
		return float64(n), true
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return f, true
}

func isHex(text string) bool {
	t := strings.ToLower(strings.TrimLeft(text, "+-"))
	return strings.HasPrefix(t, "0x") && len(text)-len(strings.TrimLeft(text, "+-")) <= 1
}

// rawset refuses what would make gopher-lua fill a huge array part, or
// store a NaN or nil key (see checkKey).
func (s *State) rawset(L *glua.LState) int {
	t := L.CheckTable(1)
	k, v := L.CheckAny(2), L.CheckAny(3)
	switch k := k.(type) {
	case *glua.LNilType:
		L.RaiseError("table index is nil")
	case glua.LNumber:
		checkIntegerKey(L, t, float64(k), "table index")
	}
	t.RawSet(k, v)
	L.SetTop(1)
	return 1
}

// ipairs and pairs are the plain 5.1 iterators; they are redefined only so
// that every function the script can reach is built here.
func (s *State) ipairs(L *glua.LState) int {
	t := L.CheckTable(1)
	L.Push(s.ipairsNext)
	L.Push(t)
	L.Push(glua.LNumber(0))
	return 3
}

// ipairsStep is the iterator ipairs returns, one per state.
func ipairsStep(L *glua.LState) int {
	t := L.CheckTable(1)
	i := L.CheckInt(2) + 1
	v := t.RawGetInt(i)
	if v == glua.LNil {
		return 0
	}
	L.Push(glua.LNumber(i))
	L.Push(v)
	return 2
}

func (s *State) pairs(L *glua.LState) int {
	t := L.CheckTable(1)
	L.Push(s.next)
	L.Push(t)
	L.Push(glua.LNil)
	return 3
}

func (s *State) openMath(math *glua.LTable) {
	// gopher-lua's math.huge is the largest float; Lua's is infinity.
	setName(math, "huge", glua.LNumber(gomath.Inf(1)))
	// The per-state generator keeps math.randomseed from reseeding the
	// host's global one.
	s.register(math, []namedFunction{
		// C Lua's arithmetic in floats: an interval such as -2^62..2^62
		// would overflow an int.
		{"random", func(L *glua.LState) int {
			r := s.rng.Float64()
			var lo, hi float64
			switch L.GetTop() {
			case 0:
				L.Push(glua.LNumber(r))
				return 1
			case 1:
				lo, hi = 1, intArg(L, 1, 0)
			default:
				lo, hi = intArg(L, 1, 0), intArg(L, 2, 0)
			}
			if lo > hi {
				L.ArgError(L.GetTop(), "interval is empty")
			}
			if gomath.IsInf(hi-lo, 0) {
				L.ArgError(L.GetTop(), "interval is too large")
			}
			L.Push(glua.LNumber(gomath.Floor(r*(hi-lo+1)) + lo))
			return 1
		}},
		// Lua 5.2's optional base, which models write: 5.1 ignores it
		// and math.log(100, 10) would silently be the natural logarithm.
		{"log", func(L *glua.LState) int {
			x := float64(L.CheckNumber(1))
			if L.Get(2) == glua.LNil {
				L.Push(glua.LNumber(gomath.Log(x)))
				return 1
			}
			switch base := float64(L.CheckNumber(2)); base {
			case 2:
				L.Push(glua.LNumber(gomath.Log2(x)))
			case 10:
				L.Push(glua.LNumber(gomath.Log10(x)))
			default:
				L.Push(glua.LNumber(gomath.Log(x) / gomath.Log(base)))
			}
			return 1
		}},
		{"randomseed", func(L *glua.LState) int {
			seed := uint64(L.CheckInt64(1))
			s.rng = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
			return 0
		}},
	})
}
