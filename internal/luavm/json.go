package luavm

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/execlua/execlua/internal/jsontext"
	glua "github.com/yuin/gopher-lua"
)

// FromJSON builds a fresh Lua value from JSON: objects and arrays become
// new tables, null becomes nil in an object (the field is absent) and
// tools.null in an array (so # and ipairs see every element). An empty
// array or object is remembered as such, so that it is encoded back as it
// came whatever a schema says (the round trip). Reading the JSON is
// jsontext's, the project's one reader, and the tables are built as it
// reads, with no tree in between: a tool's output is decoded on every
// nested call. A container's members collect on a stack until it ends, so
// that each table is made once at its size. Nothing of Go reaches the
// script.
func FromJSON(L *glua.LState, raw []byte) (glua.LValue, error) {
	return stateOf(L).FromJSON(L, raw)
}

// FromJSON is the package's FromJSON building in this state's thread L,
// without looking the state up (a nested call's output is decoded this
// way). s may be nil: a state this package did not make.
func (s *State) FromJSON(L *glua.LState, raw []byte) (glua.LValue, error) {
	b := newBuilder(L, s)
	d := &decoder{}
	if b.s != nil {
		// One at a time per state: decoding calls no Lua.
		d = &b.s.decoder
	}
	defer d.release()
	// The reader reads raw in place: the strings the values keep are
	// copied out of it (retain), so that a call's output with none, the
	// common case, costs no copy of the document.
	d.doc = unsafe.String(unsafe.SliceData(raw), len(raw))
	b.doc = d
	d.r.Reset(d.doc)
	v, err := d.value(b)
	if err == nil {
		err = d.r.End()
	}
	if err == nil {
		// Only a document that is JSON throughout is refused for a number.
		err = d.numErr
	}
	if err != nil {
		return glua.LNil, fmt.Errorf("tool output is not valid JSON: %w", err)
	}
	return v, nil
}

// decoder is FromJSON's reader and its stack of the members read of the
// containers open, innermost last; a state keeps one from call to call.
type decoder struct {
	r       jsontext.Reader
	members []decoded
	// numErr is the first number too large for a float64.
	numErr error
	// doc is the document being read, in the caller's memory; owned is
	// its copy, made when a value first keeps a string of it.
	doc, owned string
}

// retain returns a string read off the document for a value to keep: a
// slice of the document's copy, since the document is the caller's to
// reuse. Strings with escapes were built apart and are kept as they are.
func (d *decoder) retain(str string) string {
	if len(str) == 0 {
		return ""
	}
	base := uintptr(unsafe.Pointer(unsafe.StringData(d.doc)))
	at := uintptr(unsafe.Pointer(unsafe.StringData(str)))
	if at < base || at >= base+uintptr(len(d.doc)) {
		return str
	}
	if len(d.doc) > sharedCopyMax {
		return strings.Clone(str)
	}
	if d.owned == "" {
		d.owned = strings.Clone(d.doc)
	}
	return d.owned[at-base : at-base+uintptr(len(str))]
}

// sharedCopyMax is the largest document whose kept strings share one copy
// of it: one allocation instead of one per string, for a call's usual
// output. Past it each string is copied alone, since a value that keeps
// any string would keep the whole copy alive with it (a 10 MB result
// would hold its text once more beside its tables).
const sharedCopyMax = 64 << 10

type decoded struct {
	key   string
	value glua.LValue
}

// release lets go of the values decoded, keeping modest scratch.
func (d *decoder) release() {
	d.members = jsontext.Recycle(d.members)
	d.r.Reset("")
	d.numErr = nil
	d.doc, d.owned = "", ""
}

func (d *decoder) value(b builder) (glua.LValue, error) {
	kind, err := d.r.Value()
	if err != nil {
		return glua.LNil, err
	}
	switch kind {
	case jsontext.Object, jsontext.Array:
		mark := len(d.members)
		for {
			more, err := d.r.Next()
			if err != nil {
				return glua.LNil, err
			}
			if !more {
				break
			}
			key := d.r.Key
			item, err := d.value(b)
			if err != nil {
				return glua.LNil, err
			}
			d.members = append(d.members, decoded{key, item})
		}
		members := d.members[mark:]
		var t *glua.LTable
		if kind == jsontext.Object {
			t = b.object(len(members))
			for _, m := range members {
				b.setMember(t, m.key, m.value)
			}
		} else {
			t = b.array(len(members))
			for i, m := range members {
				b.setElement(t, i, m.value)
			}
		}
		d.members = jsontext.Pop(d.members, mark)
		return t, nil
	case jsontext.String:
		return b.str(d.r.Str), nil
	case jsontext.Number:
		text := d.r.Str
		if f, ok := smallInteger(text); ok {
			return number(f), nil
		}
		f, err := strconv.ParseFloat(text, 64)
		if err != nil && d.numErr == nil {
			d.numErr = fmt.Errorf("number %s does not fit a float64", text)
		}
		return number(f), nil
	case jsontext.Bool:
		return glua.LBool(d.r.Bool), nil
	}
	return glua.LNil, nil
}

// builder makes the tables of a value converted from JSON or from Go
// values. FromJSON and FromGo both build through it, so a script gets the
// same value either way: a null member is left out (a repeated key's last
// value wins, as in encoding/json), a null element is tools.null, and an
// empty object or array is remembered as such (weakly), to go back out
// as it came.
type builder struct {
	L *glua.LState
	// s gives tools.null and remembers empty tables' shapes; nil for a
	// state this package did not make (nulls are then holes).
	s *State
	// keys boxes object keys once (the state's, or the conversion's own).
	keys keyBoxes
	// doc, when set, is the decoder whose document the strings built
	// are read off, to be retained; nil when they are the caller's to
	// give (FromGo).
	doc *decoder
}

func newBuilder(L *glua.LState, s *State) builder {
	b := builder{L: L, s: s}
	if b.s == nil {
		b.keys = keyBoxes{}
	} else {
		if b.s.keys == nil {
			b.s.keys = keyBoxes{}
		}
		b.keys = b.s.keys
	}
	return b
}

// object and array make the table for n members or elements.
func (b builder) object(n int) *glua.LTable { return b.table(n, false) }

func (b builder) array(n int) *glua.LTable { return b.table(n, true) }

func (b builder) table(n int, array bool) *glua.LTable {
	var t *glua.LTable
	if array {
		t = b.L.CreateTable(n, 0)
	} else {
		t = newObject(n)
	}
	if n == 0 && b.s != nil {
		markEmpty(t, array)
	}
	return t
}

func (b builder) setMember(t *glua.LTable, key string, v glua.LValue) {
	if v == glua.LNil {
		setField(t, key, nil, v)
		return
	}
	boxed := b.box(key)
	setField(t, string(boxed.(glua.LString)), boxed, v)
}

// str is a string value, boxed once per state when it is short.
func (b builder) str(v string) glua.LValue {
	if len(v) <= maxBoxedValue {
		return b.box(v)
	}
	return glua.LString(b.own(v))
}

// box is key as a Lua value, boxed once (keyBoxes) when it may be.
func (b builder) box(key string) glua.LValue {
	if v, ok := b.keys[key]; ok {
		return v
	}
	if len(key) > maxBoxedKey || len(b.keys) >= maxKeyBoxes {
		return glua.LString(b.own(key))
	}
	return b.keys.add(key)
}

// own is a string built into a value: retained off the document when
// there is one.
func (b builder) own(str string) string {
	if b.doc == nil {
		return str
	}
	return b.doc.retain(str)
}

func (b builder) setElement(t *glua.LTable, i int, v glua.LValue) {
	if v == glua.LNil && b.s != nil {
		v = b.s.null
	}
	t.RawSetInt(i+1, v)
}

// smallInteger reads a JSON integer of at most 15 digits (which a float64
// holds exactly), the common case, without the general number path.
func smallInteger(text string) (float64, bool) {
	digits := strings.TrimPrefix(text, "-")
	if len(digits) == 0 || len(digits) > 15 || len(digits) > 1 && digits[0] == '0' {
		return 0, false
	}
	n := int64(0)
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if len(digits) < len(text) {
		if n == 0 {
			return 0, false // -0
		}
		n = -n
	}
	return float64(n), true
}

// FromGo builds a fresh Lua value from a tool's output already decoded
// into Go values, as encoding/json decodes into an any (map[string]any,
// []any, float64, string, bool, nil), without encoding it again. It gives
// the values FromJSON gives for the same JSON: objects' keys are taken in
// sorted order, as encoding/json writes a map. json.Number and Go's
// integer and float types are numbers; any other value is converted
// through its JSON encoding; the error of one that has none (a func, a
// channel) is for the caller to say whose value it was.
func FromGo(L *glua.LState, v any) (glua.LValue, error) {
	c := &goConverter{builder: newBuilder(L, stateOf(L))}
	out, err := c.value(v, 0)
	if err != nil {
		return glua.LNil, err
	}
	return out, nil
}

type goConverter struct {
	builder
	keys []string // of the maps being converted, innermost last
}

func (c *goConverter) value(v any, depth int) (glua.LValue, error) {
	if depth > jsontext.MaxNesting {
		return nil, fmt.Errorf("nested more than %d levels deep", jsontext.MaxNesting)
	}
	switch v := v.(type) {
	case nil:
		return glua.LNil, nil
	case bool:
		return glua.LBool(v), nil
	case string:
		return c.str(v), nil
	case float64:
		return goNumber(v)
	case map[string]any:
		// In sorted order, as encoding/json writes a map, so that pairs
		// walks the keys as it would the host's JSON of the same value.
		mark := len(c.keys)
		defer func() { c.keys = c.keys[:mark] }()
		for k := range v {
			c.keys = append(c.keys, k)
		}
		keys := c.keys[mark:]
		slices.Sort(keys)
		t := c.object(len(keys))
		for _, k := range keys {
			lv, err := c.value(v[k], depth+1)
			if err != nil {
				return nil, err
			}
			c.setMember(t, k, lv)
		}
		return t, nil
	case []any:
		t := c.array(len(v))
		for i, item := range v {
			lv, err := c.value(item, depth+1)
			if err != nil {
				return nil, err
			}
			c.setElement(t, i, lv)
		}
		return t, nil
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil || !json.Valid([]byte(v)) {
			return nil, fmt.Errorf("%q is not a JSON number", string(v))
		}
		return number(f), nil
	case int:
		return number(float64(v)), nil
	case int64:
		return number(float64(v)), nil
	case int32:
		return number(float64(v)), nil
	case uint64:
		return number(float64(v)), nil
	case uint32:
		return number(float64(v)), nil
	case uint:
		return number(float64(v)), nil
	case float32:
		return goNumber(float64(v))
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return FromJSON(c.L, raw)
}

// goNumber refuses what JSON cannot hold, as encoding/json would.
func goNumber(f float64) (glua.LValue, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("%v is not a JSON number", f)
	}
	return number(f), nil
}

// boxedIntegers are the small integers as Lua values, boxed once: a
// number in a table is an interface, which costs an allocation, and most
// numbers in tool output are small counts, indexes and flags.
var boxedIntegers = func() (b [1024]glua.LValue) {
	for i := range b {
		b[i] = glua.LNumber(i)
	}
	return b
}()

// number is f as a Lua value, boxed once when it is a small integer.
func number(f float64) glua.LValue {
	if f >= 0 && f < float64(len(boxedIntegers)) && f == math.Trunc(f) && !math.Signbit(f) {
		return boxedIntegers[int(f)]
	}
	return glua.LNumber(f)
}
