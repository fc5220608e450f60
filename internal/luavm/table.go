package luavm

import (
	"maps"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	glua "github.com/yuin/gopher-lua"
)

// tableLayout locates the parts of gopher-lua's string-keyed tables that
// the converters fill. gopher-lua's RawSetString grows a table's key list
// and key index one key at a time and boxes each key twice; a table built
// from JSON or Go values knows its size, so the converters size both once
// and share one boxed key. The offsets are read once off gopher-lua's
// types, and a layout other than the expected one stops the program at
// the first conversion rather than corrupt a table. The array part's
// length and capacity are read too (arrayLen, arrayCap).
type tableLayout struct {
	strdict, keys, k2i, array uintptr
}

var tables = sync.OnceValue(func() tableLayout {
	typ := reflect.TypeFor[glua.LTable]()
	field := func(name string, want reflect.Type) uintptr {
		return fieldOffset(typ, name, want, func() {
			panic("lua: gopher-lua's tables are not as the converters expect: LTable." + name)
		})
	}
	return tableLayout{
		strdict: field("strdict", reflect.TypeFor[map[string]glua.LValue]()),
		keys:    field("keys", reflect.TypeFor[[]glua.LValue]()),
		k2i:     field("k2i", reflect.TypeFor[map[glua.LValue]int]()),
		array:   field("array", reflect.TypeFor[[]glua.LValue]()),
	}
})

// tableParts are the string part of a table: its values by key, its keys
// in order of insertion (what next walks) and their positions.
type tableParts struct {
	strdict *map[string]glua.LValue
	keys    *[]glua.LValue
	k2i     *map[glua.LValue]int
}

func partsOf(t *glua.LTable) tableParts {
	lay := tables()
	p := unsafe.Pointer(t)
	return tableParts{
		strdict: (*map[string]glua.LValue)(unsafe.Add(p, lay.strdict)),
		keys:    (*[]glua.LValue)(unsafe.Add(p, lay.keys)),
		k2i:     (*map[glua.LValue]int)(unsafe.Add(p, lay.k2i)),
	}
}

// An empty table decoded from JSON carries its kind, [] or {}, in its key
// list: a list of no keys and no room whose data is one of these marks.
// No script can make such a list, and adding a key to the table
// reallocates it, so the mark goes once the table has had a field. It
// costs nothing to set or read, where remembering tables in a weak map
// gave every empty table passed to a tool a weak handle (an empty call
// cost five times a call with arguments).
var emptyArrayMark, emptyObjectMark [1]glua.LValue

func markEmpty(t *glua.LTable, array bool) {
	mark := &emptyObjectMark
	if array {
		mark = &emptyArrayMark
	}
	parts := partsOf(t)
	// gopher-lua makes the key list and its index together, when the list
	// is nil: the index has to be there with the mark.
	*parts.keys, *parts.k2i = mark[:0:0], map[glua.LValue]int{}
}

// emptyKind is whether an empty table came from a JSON [] or {}, when it
// came from JSON and has had no field since.
func emptyKind(t *glua.LTable) (array, known bool) {
	keys := *partsOf(t).keys
	if cap(keys) != 0 {
		return false, false
	}
	switch unsafe.SliceData(keys) {
	case &emptyArrayMark[0]:
		return true, true
	case &emptyObjectMark[0]:
		return false, true
	}
	return false, false
}

// newObject makes a table for n string keys, its parts sized for them.
// A small table's key list is allocated with the table itself: most
// objects of tool output have a few keys.
func newObject(n int) *glua.LTable {
	var t *glua.LTable
	var keys []glua.LValue
	switch {
	case n == 0:
		return &glua.LTable{Metatable: glua.LNil}
	case n <= 2:
		o := &withKeys[[2]glua.LValue]{}
		t, keys = &o.t, o.keys[:0]
	case n <= 4:
		o := &withKeys[[4]glua.LValue]{}
		t, keys = &o.t, o.keys[:0]
	case n <= 8:
		o := &withKeys[[8]glua.LValue]{}
		t, keys = &o.t, o.keys[:0]
	default:
		t, keys = &glua.LTable{}, make([]glua.LValue, 0, n)
	}
	t.Metatable = glua.LNil
	parts := partsOf(t)
	*parts.strdict = make(map[string]glua.LValue, n)
	*parts.keys = keys
	*parts.k2i = make(map[glua.LValue]int, n)
	return t
}

// withKeys is a table and the room of its key list, in one allocation.
type withKeys[A any] struct {
	t    glua.LTable
	keys A
}

// setField is RawSetString on a table from newObject, with the key boxed
// once by the caller (boxed must hold key): a nil value removes the field,
// and a key set again keeps its place.
func setField(t *glua.LTable, key string, boxed, v glua.LValue) {
	parts := partsOf(t)
	if *parts.strdict == nil {
		t.RawSetString(key, v)
		return
	}
	if v == glua.LNil {
		delete(*parts.strdict, key)
		return
	}
	n := len(*parts.strdict)
	(*parts.strdict)[key] = v
	if len(*parts.strdict) == n {
		return // set again: it has its place
	}
	// The key list holds the keys set, including any removed since: when
	// it holds no more than the fields there were, this key is new to it
	// and the look-up in k2i is saved.
	if len(*parts.keys) > n {
		if _, ok := (*parts.k2i)[boxed]; ok {
			return
		}
	}
	(*parts.k2i)[boxed] = len(*parts.keys)
	*parts.keys = append(*parts.keys, boxed)
}

// keyBoxes hands out each object key of tool output boxed as a Lua value
// once per state: a result whose array holds many objects with the same
// keys, or a tool called again and again, boxes each key string once.
// It keeps at most maxKeyBoxes keys of at most maxBoxedKey bytes.
type keyBoxes map[string]glua.LValue

const (
	maxKeyBoxes = 4096
	maxBoxedKey = 64
	// maxBoxedValue bounds the string values boxed once too: short
	// values (states, flags, names) repeat most.
	maxBoxedValue = 16
)

// add boxes a key that is not boxed yet (see builder.box, which keeps
// to the bounds).
func (k keyBoxes) add(key string) glua.LValue {
	// A copy: the key may be a slice of a whole tool output.
	key = strings.Clone(key)
	v := glua.LValue(glua.LString(key))
	k[key] = v
	return v
}

// names holds the names a state's own tables are filled with (library
// members, globals, the prelude's primitives), each boxed as a Lua string
// once for all states: every run makes a state, and boxing the same
// hundred names again for each was a third of its allocations. It is read
// without a lock; a name met for the first time copies the map, which
// only the first states do.
var names struct {
	mu sync.Mutex
	m  atomic.Pointer[map[string]glua.LValue]
}

func boxedName(name string) glua.LValue {
	if m := names.m.Load(); m != nil {
		if v, ok := (*m)[name]; ok {
			return v
		}
	}
	names.mu.Lock()
	defer names.mu.Unlock()
	next := map[string]glua.LValue{}
	if m := names.m.Load(); m != nil {
		if v, ok := (*m)[name]; ok {
			return v
		}
		next = maps.Clone(*m)
	}
	v := glua.LValue(glua.LString(name))
	next[name] = v
	names.m.Store(&next)
	return v
}

// setName is RawSetString for a table a state is made with, which
// newObject or presize sized: the name is boxed once for all states.
func setName(t *glua.LTable, name string, v glua.LValue) {
	setField(t, name, boxedName(name), v)
}

// presize gives a table that has no string keys yet room for n of them,
// as newObject would have made it.
func presize(t *glua.LTable, n int) {
	parts := partsOf(t)
	if len(*parts.keys) > 0 {
		return
	}
	if *parts.strdict == nil {
		*parts.strdict = make(map[string]glua.LValue, n)
	}
	*parts.keys = make([]glua.LValue, 0, n)
	*parts.k2i = make(map[glua.LValue]int, n)
}
