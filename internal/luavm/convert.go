package luavm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/execlua/execlua/internal/jsontext"
	"github.com/execlua/execlua/render"
	glua "github.com/yuin/gopher-lua"
)

// ErrNotData is wrapped by every refusal to send a script value to a tool.
var ErrNotData = errors.New("only nil, booleans, numbers, strings and plain tables can be passed to a tool")

// ValueError says which part of a script value could not be converted, as
// a path in Lua syntax: args.items[3].cb.
type ValueError struct {
	Path   string
	Reason string
}

func (e *ValueError) Error() string { return e.Path + " " + e.Reason }
func (e *ValueError) Unwrap() error { return ErrNotData }

const (
	maxEncodeDepth = 100
	// maxSafeInteger is 2^53: integral numbers within it encode as JSON
	// integers, beyond it a float64 no longer holds every integer.
	maxSafeInteger = 1 << 53
)

// sink is where an encoder writes: it keeps the first keep characters
// and past them only counts, so a value of gigabytes as JSON is measured
// without being built.
type sink struct {
	buf   bytes.Buffer
	keep  int
	chars int
}

// WriteByte writes one byte; continuation bytes of UTF-8 are not counted.
func (s *sink) WriteByte(c byte) error {
	if c&0xc0 != 0x80 {
		s.chars++
	}
	if s.chars <= s.keep {
		s.buf.WriteByte(c)
	}
	return nil
}

func (s *sink) WriteString(str string) (int, error) {
	if s.chars >= s.keep {
		s.chars += utf8.RuneCountInString(str)
		return len(str), nil
	}
	if room := s.keep - s.chars; len(str) > room {
		kept := CutRunes(str, room)
		s.buf.WriteString(kept)
		s.chars += utf8.RuneCountInString(kept)
		str = str[len(kept):]
		s.chars += utf8.RuneCountInString(str)
		return len(kept) + len(str), nil
	}
	s.buf.WriteString(str)
	s.chars += utf8.RuneCountInString(str)
	return len(str), nil
}

// writeASCII writes text of one byte per character, such as a number.
func (s *sink) writeASCII(b []byte) {
	if room := s.keep - s.chars; room < len(b) {
		s.buf.Write(b[:max(room, 0)])
	} else {
		s.buf.Write(b)
	}
	s.chars += len(b)
}

// full reports whether nothing more is kept: the rest is only counted.
func (s *sink) full() bool { return s.chars >= s.keep }

// CutRunes returns the first n characters of s (all of s when it has no
// more).
func CutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// encoder writes a Lua value as JSON. Strict mode is for tool arguments:
// anything that is not plain data is refused with its path. Lenient mode
// is for print and return values: such parts are shown as placeholders,
// and past the characters kept the rest is only counted.
type encoder struct {
	L *glua.LState
	// s gives tools.null and the shapes of empty tables from JSON; nil
	// for a state this package did not make.
	s      *State
	buf    sink
	strict bool
	// path holds the tables being encoded, outermost first: a table met
	// again on it is a cycle (one met twice elsewhere is not). It is at
	// most maxEncodeDepth long, so a scan beats a map.
	path []*glua.LTable
	// keys holds the keys of the tables being encoded, outermost first
	// (classify), so that a walk reuses one slice.
	keys []glua.LValue
	// num is where a number is formatted; the arrays give the first
	// levels and keys of a walk room without allocating.
	num      [32]byte
	pathRoom [4]*glua.LTable
	keysRoom [8]glua.LValue
	atRoom   [4]pathStep
	// named is sortKeys' scratch: it sorts one table at a time.
	named []namedKey
	// root names the value and at is the way from it to where the walk
	// is, for a refusal to name (pathString).
	root     string
	at       []pathStep
	maxBytes int
	nodes    int
	looked   int // nodes at the last look at the stop
	// stopWhenFull ends the walk with errFull once the sink is full,
	// rather than counting the rest.
	stopWhenFull bool
	// leftOut counts the keys a lenient walk left out because another key
	// of their table has the same JSON name (unique).
	leftOut int
}

// ToJSON encodes v as a tool argument (strict), rooted at name (e.g.
// "args"). The schema, which may be nil, decides only whether an empty
// table is [] or {}. It never invokes a metamethod.
func ToJSON(L *glua.LState, v glua.LValue, schema *Schema, name string, maxBytes int) ([]byte, error) {
	return stateOf(L).ToJSON(L, v, schema, name, maxBytes)
}

// ToJSON is the package's ToJSON for a value of this state's, run on its
// thread L, without looking the state up (a nested call encodes its
// arguments this way). s may be nil: a state this package did not make.
func (s *State) ToJSON(L *glua.LState, v glua.LValue, schema *Schema, name string, maxBytes int) ([]byte, error) {
	var e *encoder
	if s != nil {
		// One at a time per state: the walk calls no Lua.
		e = &s.args
		e.init(L, s, math.MaxInt)
	} else {
		e = newEncoder(L, nil, math.MaxInt)
	}
	e.strict, e.root, e.maxBytes = true, name, maxBytes
	var root *schemaNode
	if schema != nil {
		root = schema.root
	}
	if err := e.encode(v, schema, root, 0); err != nil {
		return nil, err
	}
	return e.buf.buf.Bytes(), nil
}

// Render encodes v leniently as compact JSON, for an error message: it
// stops at keep characters, marking the cut with "…", without walking the
// rest. err is the cause of a stop that landed while it ran.
func (s *State) Render(v glua.LValue, keep int) (string, error) {
	e := s.lenient(keep)
	e.stopWhenFull = true
	switch err := e.encode(v, nil, nil, 0); {
	case errors.Is(err, errFull):
		return e.buf.buf.String() + "…", nil
	case err != nil:
		return "", err
	}
	return e.buf.buf.String(), nil
}

// errFull ends a walk that only had to fill its sink.
var errFull = errors.New("rendering reached its cap")

// RenderCut encodes v leniently as compact JSON: functions, threads and
// cycles become placeholders, so printing or returning any value never
// fails. Only the first keep characters are built; the rest is walked and
// counted (tables unsorted, since order does not change a length), so
// chars is the full length while memory stays bounded by keep. The walk
// looks at the state's context as it goes: err is the cause of a stop
// that landed while it ran.
func (s *State) RenderCut(v glua.LValue, keep int) (text string, chars int, err error) {
	e := s.lenient(keep)
	if err := e.encode(v, nil, nil, 0); err != nil {
		return "", 0, err
	}
	return e.buf.buf.String(), e.buf.chars, nil
}

// Rendered is a value rendered for the model: the first characters kept,
// the full length, and how many keys were left out because another key of
// their table has the same JSON name (see unique).
type Rendered struct {
	Text    string
	Chars   int
	LeftOut int
}

// RenderResult renders what a script returned, as RenderCut does: one
// string verbatim, any other single value as JSON, several values as a
// JSON array.
func (s *State) RenderResult(values []glua.LValue, keep int) (Rendered, error) {
	if len(values) == 1 {
		if str, ok := values[0].(glua.LString); ok {
			return Rendered{Text: CutRunes(string(str), keep), Chars: utf8.RuneCountInString(string(str))}, nil
		}
	}
	e := s.lenient(keep)
	if len(values) > 1 {
		e.buf.WriteByte('[')
	}
	for i, v := range values {
		if i > 0 {
			e.buf.WriteByte(',')
		}
		if err := e.encode(v, nil, nil, 0); err != nil {
			return Rendered{}, err
		}
	}
	if len(values) > 1 {
		e.buf.WriteByte(']')
	}
	return Rendered{Text: e.buf.buf.String(), Chars: e.buf.chars, LeftOut: e.leftOut}, nil
}

func (s *State) lenient(keep int) *encoder {
	return newEncoder(s.L, s, max(keep, 0))
}

// newEncoder is a lenient encoder keeping keep characters.
func newEncoder(L *glua.LState, s *State, keep int) *encoder {
	e := &encoder{}
	e.init(L, s, keep)
	return e
}

// init readies e for a walk as newEncoder makes it.
func (e *encoder) init(L *glua.LState, s *State, keep int) {
	*e = encoder{L: L, s: s, maxBytes: math.MaxInt, buf: sink{keep: keep}}
	e.path, e.keys, e.at = e.pathRoom[:0], e.keysRoom[:0], e.atRoom[:0]
}

// stopped is the cause of the run's stop, or nil while it may go on.
func stopped(L *glua.LState) error {
	if ctx := L.Context(); ctx != nil && ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return nil
}

func (e *encoder) fail(format string, args ...any) error {
	return &ValueError{Path: e.pathString(), Reason: fmt.Sprintf(format, args...)}
}

// pathStep is one step from the root to where a strict encoder is: a
// field or an element. The path is spelled out in Lua syntax
// (args.items[3].cb) only when a refusal names it.
type pathStep struct {
	name  string
	index int // an element's, when not a field
	field bool
}

// pathString is where the encoder is now.
func (e *encoder) pathString() string {
	path := e.root
	for _, st := range e.at {
		if st.field {
			path = fieldPath(path, st.name)
		} else {
			path = fmt.Sprintf("%s[%d]", path, st.index)
		}
	}
	return path
}

func (e *encoder) placeholder(what string) error {
	if e.strict {
		return e.fail("is a %s; %s", what, ErrNotData)
	}
	jsontext.WriteString(&e.buf, "<"+what+">")
	return nil
}

func (e *encoder) encode(v glua.LValue, schema *Schema, node *schemaNode, depth int) error {
	if err := e.tick(); err != nil {
		return err
	}
	if e.stopWhenFull && e.buf.chars > e.buf.keep {
		return errFull
	}
	if e.buf.buf.Len() > e.maxBytes {
		return e.fail("makes the value larger than %d bytes", e.maxBytes)
	}
	switch v := v.(type) {
	case *glua.LNilType:
		e.buf.WriteString("null")
	case glua.LBool:
		e.buf.WriteString(strconv.FormatBool(bool(v)))
	case glua.LNumber:
		return e.number(float64(v))
	case glua.LString:
		// A long string weighs on the next look at the stop as much as
		// one node per KiB: thousands of them are gigabytes to count.
		e.nodes += len(v) >> 10
		if e.buf.full() && plainASCII(string(v)) {
			e.buf.chars += len(v) + 2 // only counted, and nothing to escape
			break
		}
		jsontext.WriteString(&e.buf, string(v))
	case *glua.LTable:
		return e.table(v, schema, node, depth)
	case *glua.LFunction:
		return e.placeholder("function")
	case *glua.LState:
		return e.placeholder("coroutine")
	default:
		return e.placeholder(v.Type().String())
	}
	return nil
}

// emptyShape is whether an empty table came from a JSON [] or {}, when it
// came from JSON.
func (e *encoder) emptyShape(t *glua.LTable) (array, known bool) {
	if e.s == nil {
		return false, false
	}
	return emptyKind(t)
}

// plainASCII reports whether s is printable ASCII needing no JSON escape.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// tick counts one step of the walk and looks at the run's stop now and
// then.
func (e *encoder) tick() error {
	e.nodes++
	if e.nodes-e.looked >= 4096 {
		e.looked = e.nodes
		return stopped(e.L)
	}
	return nil
}

func (e *encoder) number(f float64) error {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		if e.strict {
			return e.fail("is %v; JSON has no NaN or infinity", f)
		}
		jsontext.WriteString(&e.buf, cFloatName(f, 'g'))
	case f == math.Trunc(f) && math.Abs(f) <= maxSafeInteger:
		e.buf.writeASCII(strconv.AppendInt(e.num[:0], int64(f), 10))
	case f == math.Trunc(f) && math.Abs(f) < 1e21:
		// Integral but past 2^53: the float's exact digits, as JavaScript
		// prints them, rather than an exponent.
		e.buf.writeASCII(strconv.AppendFloat(e.num[:0], f, 'f', -1, 64))
	default:
		e.buf.writeASCII(strconv.AppendFloat(e.num[:0], f, 'g', -1, 64))
	}
	return nil
}

func (e *encoder) table(t *glua.LTable, schema *Schema, node *schemaNode, depth int) error {
	if e.s != nil && t == e.s.null {
		e.buf.WriteString("null")
		return nil
	}
	if e.strict && t.Metatable != glua.LNil {
		return e.fail("has a metatable; %s", ErrNotData)
	}
	if slices.Contains(e.path, t) {
		if e.strict {
			return e.fail("refers back to itself (a cycle)")
		}
		jsontext.WriteString(&e.buf, "<cycle>")
		return nil
	}
	if depth >= maxEncodeDepth {
		if e.strict {
			return e.fail("is nested more than %d levels deep", maxEncodeDepth)
		}
		jsontext.WriteString(&e.buf, "<too deep>")
		return nil
	}
	e.path = append(e.path, t)
	mark := len(e.keys)
	defer func() {
		e.path = e.path[:len(e.path)-1]
		e.keys = e.keys[:mark]
	}()

	keys, isArray, err := e.classify(t)
	if err != nil {
		return err
	}
	if len(keys) == 0 {
		if array, known := e.emptyShape(t); known {
			e.buf.WriteString(map[bool]string{true: "[]", false: "{}"}[array])
			return nil
		}
		if schema.wantsArray(node) {
			e.buf.WriteString("[]")
		} else {
			e.buf.WriteString("{}")
		}
		return nil
	}
	if isArray {
		e.buf.WriteByte('[')
		for i := 1; i <= len(keys); i++ {
			if i > 1 {
				e.buf.WriteByte(',')
			}
			e.at = append(e.at, pathStep{index: i})
			if err := e.encode(t.RawGetInt(i), schema, schema.item(node, i-1), depth+1); err != nil {
				return err
			}
			e.at = e.at[:len(e.at)-1]
		}
		e.buf.WriteByte(']')
		return nil
	}
	e.buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			e.buf.WriteByte(',')
		}
		name := keyString(k)
		jsontext.WriteString(&e.buf, name)
		e.buf.WriteByte(':')
		e.at = append(e.at, pathStep{name: name, field: true})
		if err := e.encode(t.RawGet(k), schema, schema.property(node, name), depth+1); err != nil {
			return err
		}
		e.at = e.at[:len(e.at)-1]
	}
	e.buf.WriteByte('}')
	return nil
}

// classify returns the table's keys (sorted for objects, unless the rest
// is only counted) and whether they are exactly 1..n. Strict mode refuses
// keys that are neither strings nor part of such a sequence. It looks at
// the run's stop as it goes: a table may hold millions of keys.
func (e *encoder) classify(t *glua.LTable) ([]glua.LValue, bool, error) {
	mark := len(e.keys)
	numeric, maxIndex, strs := 0, 0, 0
	var bad glua.LValue
	for k, _ := t.Next(glua.LNil); k != glua.LNil; k, _ = t.Next(k) {
		if err := e.tick(); err != nil {
			return nil, false, err
		}
		e.keys = append(e.keys, k)
		switch k := k.(type) {
		case glua.LNumber:
			if f := float64(k); f == math.Trunc(f) && f >= 1 && f <= math.MaxInt32 {
				numeric++
				maxIndex = max(maxIndex, int(f))
				continue
			}
			bad = k
		case glua.LString:
			strs++
		default:
			bad = k
		}
	}
	keys := e.keys[mark:]
	if numeric == len(keys) && maxIndex == len(keys) {
		return keys, true, nil
	}
	if !e.strict && strs < len(keys) {
		keys = e.unique(t, keys)
	}
	if e.strict && (numeric > 0 || bad != nil) {
		switch k := bad; {
		case k == nil && numeric == len(keys):
			// A Lua list with a nil in it: { 1, nil, 3 }.
			return nil, false, e.fail("is a list with holes (%d of the indexes 1..%d set); a list needs every index from 1: write tools.null for a missing element", numeric, maxIndex)
		case len(keys) == 1:
			return nil, false, e.fail("has a key %s; a table is either a sequence 1..n or has string keys only", keyText(k))
		case k == nil:
			k = firstNumber(keys)
			fallthrough
		default:
			return nil, false, e.fail("mixes key %s with other keys; a table is either a sequence 1..n or has string keys only", keyText(k))
		}
	}
	if e.buf.full() || len(keys) < 2 {
		return keys, false, nil
	}
	return keys, false, e.sortKeys(keys)
}

// unique keeps one key of each JSON name, so that an object is always
// valid JSON: a string key keeps its name ({[1] = "int", ["1"] = "str"}
// is {"1":"str"}), and of other keys of one name (two functions, 1e15 and
// 1e15 + 1) the first in the table's order. Those left out are counted in
// leftOut. Only non-string keys are looked up, each once, so the cost is
// linear in the table.
func (e *encoder) unique(t *glua.LTable, keys []glua.LValue) []glua.LValue {
	var named map[string]bool // the names of the non-string keys kept
	kept := keys[:0]
	for _, k := range keys {
		if _, str := k.(glua.LString); !str {
			name := keyString(k)
			if t.RawGetString(name) != glua.LNil || named[name] {
				e.leftOut++
				continue
			}
			if named == nil {
				named = map[string]bool{}
			}
			named[name] = true
		}
		kept = append(kept, k)
	}
	return kept
}

// stopSort carries a stop out of a sort's comparison.
type stopSort struct{ err error }

// sortKeys sorts an object's keys by their string form, looking at the
// run's stop between comparisons.
func (e *encoder) sortKeys(keys []glua.LValue) (err error) {
	byName := e.named[:0]
	for _, k := range keys {
		byName = append(byName, namedKey{k, keyString(k)})
	}
	e.named = byName
	defer func() {
		if r := recover(); r != nil {
			stop, ok := r.(stopSort)
			if !ok {
				panic(r)
			}
			err = stop.err
		}
	}()
	slices.SortFunc(byName, func(a, b namedKey) int {
		if err := e.tick(); err != nil {
			panic(stopSort{err})
		}
		return strings.Compare(a.name, b.name)
	})
	for i, n := range byName {
		keys[i] = n.key
	}
	return nil
}

// namedKey is a key with its string form, for sorting.
type namedKey struct {
	key  glua.LValue
	name string
}

func firstNumber(keys []glua.LValue) glua.LValue {
	for _, k := range keys {
		if _, ok := k.(glua.LNumber); ok {
			return k
		}
	}
	return keys[0]
}

// keyString names an object key in JSON: a string as it is, a number as
// Lua prints it, a boolean as true or false, and any other value as its
// type in brackets, as such values are written.
func keyString(k glua.LValue) string {
	switch k.Type() {
	case glua.LTString, glua.LTNumber:
		return asString(k)
	case glua.LTBool:
		return k.String()
	case glua.LTThread:
		return "<coroutine>"
	}
	return "<" + k.Type().String() + ">"
}

func keyText(k glua.LValue) string {
	if s, ok := k.(glua.LString); ok {
		return strconv.Quote(string(s))
	}
	if k.Type() == glua.LTNumber {
		return asString(k)
	}
	return "of type " + k.Type().String()
}

// fieldPath appends a field to a Lua path: .name for identifiers,
// ["na-me"] otherwise.
func fieldPath(path, name string) string {
	if render.IsIdentifier(name) {
		return path + "." + name
	}
	return path + "[" + strconv.Quote(name) + "]"
}
