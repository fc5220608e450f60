package luavm

import (
	"unsafe"

	glua "github.com/yuin/gopher-lua"
)

// Rough sizes of gopher-lua's values, in bytes, for Footprint.
const (
	sizeString = 16
	sizeTable  = 160
	sizeSlot   = 16 // one array slot
	sizeEntry  = 64 // one hash entry, with its share of the key list
	sizeFunc   = 80
	sizeThread = 10 << 10
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
		w.bytes += sizeTable
		w.queue(v.Metatable)
		v.ForEach(func(k, val glua.LValue) {
			if _, ok := k.(glua.LNumber); ok {
				w.bytes += sizeSlot
			} else {
				w.bytes += sizeEntry
			}
			w.queue(k)
			w.queue(val)
		})
	case *glua.LFunction:
		if !w.first(v) {
			return
		}
		w.bytes += sizeFunc
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
		w.bytes += sizeThread
		w.frames(v)
	}
}

// queue adds v to the walk; strings, which refer to nothing, are counted
// at once.
func (w *footprint) queue(v glua.LValue) {
	switch v.(type) {
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
		for i := 1; i <= maxFrameSlots; i++ {
			name, v := th.GetLocal(dbg, i)
			if name == "" {
				break
			}
			w.queue(v)
		}
	}
}
