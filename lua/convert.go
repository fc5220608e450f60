package lua

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

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

// encoder writes a Lua value as JSON. Strict mode is for tool arguments:
// anything that is not plain data is refused with its path. Lenient mode
// is for print and return values: such parts are shown as placeholders.
type encoder struct {
	L      *glua.LState
	buf    bytes.Buffer
	strict bool
	// path holds the tables being encoded, outermost first: a table met
	// again on it is a cycle (one met twice elsewhere is not). It is at
	// most maxEncodeDepth long, so a scan beats a map.
	path     []*glua.LTable
	maxBytes int
	nodes    int
}

// ToJSON encodes v as a tool argument (strict), rooted at name (e.g.
// "args"). The schema, which may be nil, decides only whether an empty
// table is [] or {}. It never invokes a metamethod.
func ToJSON(L *glua.LState, v glua.LValue, schema *Schema, name string, maxBytes int) ([]byte, error) {
	e := &encoder{L: L, strict: true, maxBytes: maxBytes}
	var root *schemaNode
	if schema != nil {
		root = schema.root
	}
	if err := e.encode(v, schema, root, name, 0); err != nil {
		return nil, err
	}
	return e.buf.Bytes(), nil
}

// Render encodes v leniently as compact JSON (strings verbatim at top
// level are the caller's concern): functions, threads and cycles become
// placeholders, so printing or returning any value never fails.
func (s *State) Render(v glua.LValue) string {
	e := &encoder{L: s.L, maxBytes: s.opts.MaxStringBytes}
	if err := e.encode(v, nil, nil, "value", 0); err != nil {
		// Only the size cap stops a lenient encoding.
		return e.buf.String() + "…"
	}
	return e.buf.String()
}

func (e *encoder) fail(path, format string, args ...any) error {
	return &ValueError{Path: path, Reason: fmt.Sprintf(format, args...)}
}

func (e *encoder) placeholder(path, what string) error {
	if e.strict {
		return e.fail(path, "is a %s; %s", what, ErrNotData)
	}
	jsontext.WriteString(&e.buf, "<"+what+">")
	return nil
}

func (e *encoder) encode(v glua.LValue, schema *Schema, node *schemaNode, path string, depth int) error {
	e.nodes++
	if e.nodes%4096 == 0 {
		checkStop(e.L)
	}
	if e.buf.Len() > e.maxBytes {
		return e.fail(path, "makes the value larger than %d bytes", e.maxBytes)
	}
	switch v := v.(type) {
	case *glua.LNilType:
		e.buf.WriteString("null")
	case glua.LBool:
		e.buf.WriteString(strconv.FormatBool(bool(v)))
	case glua.LNumber:
		return e.number(float64(v), path)
	case glua.LString:
		jsontext.WriteString(&e.buf, string(v))
	case *glua.LTable:
		return e.table(v, schema, node, path, depth)
	case *glua.LFunction:
		return e.placeholder(path, "function")
	case *glua.LState:
		return e.placeholder(path, "coroutine")
	default:
		return e.placeholder(path, v.Type().String())
	}
	return nil
}

func (e *encoder) number(f float64, path string) error {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		if e.strict {
			return e.fail(path, "is %v; JSON has no NaN or infinity", f)
		}
		jsontext.WriteString(&e.buf, cFloatName(f, 'g'))
	case f == math.Trunc(f) && math.Abs(f) <= maxSafeInteger:
		e.buf.WriteString(strconv.FormatInt(int64(f), 10))
	case f == math.Trunc(f) && math.Abs(f) < 1e21:
		// Integral but past 2^53: the float's exact digits, as JavaScript
		// prints them, rather than an exponent.
		e.buf.WriteString(strconv.FormatFloat(f, 'f', -1, 64))
	default:
		e.buf.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
	}
	return nil
}

func (e *encoder) table(t *glua.LTable, schema *Schema, node *schemaNode, path string, depth int) error {
	if e.strict && t.Metatable != glua.LNil {
		return e.fail(path, "has a metatable; %s", ErrNotData)
	}
	if slices.Contains(e.path, t) {
		if e.strict {
			return e.fail(path, "refers back to itself (a cycle)")
		}
		jsontext.WriteString(&e.buf, "<cycle>")
		return nil
	}
	if depth >= maxEncodeDepth {
		return e.fail(path, "is nested more than %d levels deep", maxEncodeDepth)
	}
	e.path = append(e.path, t)
	defer func() { e.path = e.path[:len(e.path)-1] }()

	keys, isArray, err := e.classify(t, path)
	if err != nil {
		return err
	}
	if len(keys) == 0 {
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
			if err := e.encode(t.RawGetInt(i), schema, schema.item(node, i-1), fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
				return err
			}
		}
		e.buf.WriteByte(']')
		return nil
	}
	e.buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			e.buf.WriteByte(',')
		}
		name := asString(k)
		jsontext.WriteString(&e.buf, name)
		e.buf.WriteByte(':')
		if err := e.encode(t.RawGet(k), schema, schema.property(node, name), fieldPath(path, name), depth+1); err != nil {
			return err
		}
	}
	e.buf.WriteByte('}')
	return nil
}

// classify returns the table's keys (sorted for objects) and whether they
// are exactly 1..n. Strict mode refuses keys that are neither strings nor
// part of such a sequence.
func (e *encoder) classify(t *glua.LTable, path string) ([]glua.LValue, bool, error) {
	var keys []glua.LValue
	numeric, maxIndex := 0, 0
	var bad glua.LValue
	t.ForEach(func(k, _ glua.LValue) {
		keys = append(keys, k)
		switch k := k.(type) {
		case glua.LNumber:
			if f := float64(k); f == math.Trunc(f) && f >= 1 && f <= math.MaxInt32 {
				numeric++
				maxIndex = max(maxIndex, int(f))
				return
			}
			bad = k
		case glua.LString:
		default:
			bad = k
		}
	})
	if numeric == len(keys) && maxIndex == len(keys) {
		return keys, true, nil
	}
	if e.strict && (numeric > 0 || bad != nil) {
		k := bad
		if k == nil {
			k = firstNumber(keys)
		}
		return nil, false, e.fail(path, "mixes key %s with other keys; a table is either a sequence 1..n or has string keys only", keyText(k))
	}
	slices.SortFunc(keys, func(a, b glua.LValue) int { return strings.Compare(keyString(a), keyString(b)) })
	return keys, false, nil
}

func firstNumber(keys []glua.LValue) glua.LValue {
	for _, k := range keys {
		if _, ok := k.(glua.LNumber); ok {
			return k
		}
	}
	return keys[0]
}

func keyString(k glua.LValue) string {
	if k.Type() == glua.LTString || k.Type() == glua.LTNumber {
		return asString(k)
	}
	return k.Type().String()
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
