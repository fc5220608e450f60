package luavm

import (
	"reflect"
	"sync"
	"unsafe"

	glua "github.com/yuin/gopher-lua"
)

// Rough sizes of gopher-lua's values, in bytes, for Footprint.
const (
	sizeString = 16
	sizeTable  = 160
	sizeSlot   = 16  // one array slot
	sizeEntry  = 112 // one hash entry, with its share of the key list and index
	sizeFunc   = 80
	// sizeUpvalue is one upvalue of a closure: its cell and the pointer
	// to it (a loop's closures each get a fresh one).
	sizeUpvalue = 56
	// sizeNumber is a number held in a table or an upvalue: gopher-lua
	// boxes each one on the heap.
	sizeNumber = 16
	sizeThread = 10 << 10
	// sizeFrame is one call frame of a thread's call stack.
	sizeFrame = 128
	// maxFrameSlots bounds the registers read per call frame: gopher-lua
	// shows a frame every register up to its thread's top.
	maxFrameSlots = 300
)

// Footprint estimates the bytes of what the script can still reach from
// the state: the globals, the registry and the call frames of every
// thread it reaches, starting from main (the thread running the script).
// Each table, function, thread and string is counted once. The walk stops
// as soon as the estimate passes limit (over is then true), so its cost
// is bounded by the limit. It must run on the VM's goroutine, between two
// instructions, since it reads the VM's state without locking.
func (s *State) Footprint(main *glua.LState, limit int) (bytes int, over bool) {
	w := &footprint{seen: map[any]bool{}, limit: limit}
	w.todo = append(w.todo, s.L.G.Global, s.L.G.Registry)
	if main != nil { // nil while the prelude is installed
		w.todo = append(w.todo, main)
	}
	w.todo = append(w.todo, s.results...)
	for _, th := range s.spare {
		w.todo = append(w.todo, th)
	}
	// A worklist rather than recursion: a script may nest tables a
	// million deep.
	for len(w.todo) > 0 && w.bytes <= limit {
		v := w.todo[len(w.todo)-1]
		w.todo = w.todo[:len(w.todo)-1]
		w.value(v)
	}
	return w.bytes, w.bytes > limit
}

type footprint struct {
	seen  map[any]bool
	todo  []glua.LValue
	bytes int
	limit int
}

func (w *footprint) first(key any) bool {
	if w.seen[key] {
		return false
	}
	w.seen[key] = true
	return true
}

// value counts v and queues what it refers to.
func (w *footprint) value(v glua.LValue) {
	switch v := v.(type) {
	case glua.LString:
		if len(v) > 0 && w.first(unsafe.StringData(string(v))) {
			w.bytes += sizeString + len(v)
		}
	case *glua.LTable:
		if !w.first(v) {
			return
		}
		// The array part holds its whole capacity, holes included: a
		// sparse fill of far keys is mostly holes.
		n := arrayLen(v)
		w.bytes += sizeTable + arrayCap(v)*sizeSlot
		w.queue(v.Metatable)
		v.ForEach(func(k, val glua.LValue) {
			if i, ok := k.(glua.LNumber); !ok || i < 1 || i > glua.LNumber(n) || i != glua.LNumber(int(i)) {
				w.bytes += sizeEntry
			}
			if _, number := k.(glua.LNumber); !number {
				w.queue(k)
			}
			w.queue(val)
		})
	case *glua.LFunction:
		if !w.first(v) {
			return
		}
		w.bytes += sizeFunc + len(v.Upvalues)*sizeUpvalue
		if v.Env != nil {
			w.queue(v.Env)
		}
		for _, up := range v.Upvalues {
			if up != nil {
				w.queue(up.Value())
			}
		}
	case *glua.LState:
		if !w.first(v) {
			return
		}
		w.bytes += sizeThread + registryCap(v)*sizeSlot
		w.frames(v)
	}
}

// queue adds v to the walk; strings, which refer to nothing, are counted
// at once.
func (w *footprint) queue(v glua.LValue) {
	switch v.(type) {
	case glua.LNumber:
		// A table's array keys are not stored, but its values and a
		// closure's upvalues are, boxed.
		w.bytes += sizeNumber
	case glua.LString:
		w.value(v)
	case *glua.LTable, *glua.LFunction, *glua.LState:
		w.todo = append(w.todo, v)
	}
}

// frames reads the registers of every call frame of th.
func (w *footprint) frames(th *glua.LState) {
	for level := 0; ; level++ {
		dbg, ok := th.GetStack(level)
		if !ok {
			return
		}
		w.bytes += sizeFrame
		for i := 1; i <= maxFrameSlots; i++ {
			name, v := th.GetLocal(dbg, i)
			if name == "" {
				break
			}
			w.queue(v)
		}
	}
}

// registryCap is the capacity of th's register stack, which grows with
// the deepest call it made (up to 4 MiB) and keeps that size: a suspended
// coroutine that once recursed deep holds all of it.
func registryCap(th *glua.LState) int {
	lay := registryLayout()
	reg := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(th), lay.reg))
	if reg == nil {
		return 0
	}
	return cap(*(*[]glua.LValue)(unsafe.Add(reg, lay.array)))
}

// registryLayout locates a thread's register stack (LState.reg.array),
// which gopher-lua does not export; a layout other than the expected one
// stops the program at the first walk rather than misread memory.
var registryLayout = sync.OnceValue(func() struct{ reg, array uintptr } {
	bad := func(what string) {
		panic("lua: gopher-lua's threads are not as Footprint expects: " + what)
	}
	reg, ok := reflect.TypeFor[glua.LState]().FieldByName("reg")
	if !ok || reg.Type.Kind() != reflect.Pointer || reg.Type.Elem().Kind() != reflect.Struct {
		bad("LState.reg")
	}
	array := fieldOffset(reg.Type.Elem(), "array", reflect.TypeFor[[]glua.LValue](), func() { bad("registry.array") })
	return struct{ reg, array uintptr }{reg.Offset, array}
})
