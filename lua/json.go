package lua

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	glua "github.com/yuin/gopher-lua"
)

// FromJSON builds a fresh Lua value from JSON: objects and arrays become
// new tables, null becomes nil (a null array element leaves a hole). It
// decodes straight into Lua values, without the map[string]any that
// encoding/json would build first: a tool's output is decoded on every
// nested call. The input is copied once, and every string without escapes
// is a slice of that copy. Nothing of Go reaches the script.
func FromJSON(L *glua.LState, raw []byte) (glua.LValue, error) {
	d := &jsonDecoder{L: L, data: raw, text: string(raw)}
	d.space()
	v, err := d.value(0)
	if err != nil {
		return glua.LNil, fmt.Errorf("tool output is not valid JSON: %w", err)
	}
	if d.space(); d.pos != len(d.data) {
		return glua.LNil, fmt.Errorf("tool output is not valid JSON: %w", d.fail("end of input"))
	}
	return v, nil
}

// maxDecodeDepth matches encoding/json's nesting limit.
const maxDecodeDepth = 10000

type jsonDecoder struct {
	L       *glua.LState
	data    []byte
	text    string // data, as a string to slice from
	pos     int
	members memberStack
}

// member is one member of an object (key) or array (no key) on its way
// into a table.
type member struct {
	key   string
	value glua.LValue
}

// memberStack collects the members of the objects and arrays being built,
// innermost last, so that each table is made at its final size.
type memberStack []member

// release drops the members of a finished table from mark on, clearing
// them so the stack holds on to no value.
func (m *memberStack) release(mark int) {
	clear((*m)[mark:])
	*m = (*m)[:mark]
}

// objectTable and arrayTable build the table of an object or an array
// from its members. FromJSON and FromGo both build through them, so both
// give a script the same values: a null member is left out (a repeated
// key's last value wins, as in encoding/json), a null element leaves a
// hole.
func objectTable(L *glua.LState, members []member) *glua.LTable {
	t := L.CreateTable(0, len(members))
	for _, m := range members {
		t.RawSetString(m.key, m.value)
	}
	return t
}

func arrayTable(L *glua.LState, members []member) *glua.LTable {
	t := L.CreateTable(len(members), 0)
	for i, m := range members {
		t.RawSetInt(i+1, m.value)
	}
	return t
}

func (d *jsonDecoder) fail(want string) error {
	if d.pos >= len(d.data) {
		return fmt.Errorf("unexpected end of input, want %s", want)
	}
	return fmt.Errorf("unexpected %q at offset %d, want %s", d.data[d.pos], d.pos, want)
}

func (d *jsonDecoder) space() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *jsonDecoder) literal(word string, v glua.LValue) (glua.LValue, error) {
	if len(d.data)-d.pos < len(word) || string(d.data[d.pos:d.pos+len(word)]) != word {
		return nil, d.fail(word)
	}
	d.pos += len(word)
	return v, nil
}

func (d *jsonDecoder) value(depth int) (glua.LValue, error) {
	if depth > maxDecodeDepth {
		return nil, fmt.Errorf("nested more than %d levels deep", maxDecodeDepth)
	}
	if d.pos >= len(d.data) {
		return nil, d.fail("a value")
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		s, err := d.str()
		return glua.LString(s), err
	case c == 't':
		return d.literal("true", glua.LTrue)
	case c == 'f':
		return d.literal("false", glua.LFalse)
	case c == 'n':
		return d.literal("null", glua.LNil)
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return nil, d.fail("a value")
}

func (d *jsonDecoder) object(depth int) (glua.LValue, error) {
	mark := len(d.members)
	defer d.members.release(mark)
	for more := d.open('}'); more; {
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, d.fail("a field name")
		}
		key, err := d.str()
		if err != nil {
			return nil, err
		}
		d.space()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, d.fail("':'")
		}
		d.pos++
		d.space()
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		d.members = append(d.members, member{key, v})
		if more, err = d.next('}'); err != nil {
			return nil, err
		}
	}
	return objectTable(d.L, d.members[mark:]), nil
}

func (d *jsonDecoder) array(depth int) (glua.LValue, error) {
	mark := len(d.members)
	defer d.members.release(mark)
	for more := d.open(']'); more; {
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		d.members = append(d.members, member{value: v})
		if more, err = d.next(']'); err != nil {
			return nil, err
		}
	}
	return arrayTable(d.L, d.members[mark:]), nil
}

// open steps past the opening bracket and reports whether members follow
// (false for an empty object or array, whose closing bracket it consumes).
func (d *jsonDecoder) open(closing byte) bool {
	d.pos++
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == closing {
		d.pos++
		return false
	}
	return true
}

// next reads what follows a member: ',' when more follow, or the closing
// bracket.
func (d *jsonDecoder) next(closing byte) (bool, error) {
	d.space()
	if d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.space()
			return true, nil
		case closing:
			d.pos++
			return false, nil
		}
	}
	return false, d.fail(fmt.Sprintf("',' or '%c'", closing))
}

// str reads a string; one without escapes is sliced as it is, one with
// escapes is handed to encoding/json, which knows surrogate pairs.
func (d *jsonDecoder) str() (string, error) {
	start := d.pos
	d.pos++
	escaped := false
	for d.pos < len(d.data) {
		switch c := d.data[d.pos]; {
		case c == '"':
			d.pos++
			if !escaped {
				return d.text[start+1 : d.pos-1], nil
			}
			var s string
			if err := json.Unmarshal(d.data[start:d.pos], &s); err != nil {
				return "", err
			}
			return s, nil
		case c == '\\':
			escaped = true
			d.pos += 2
		case c < 0x20:
			return "", d.fail("no control character in a string")
		default:
			d.pos++
		}
	}
	return "", d.fail("the end of the string")
}

func (d *jsonDecoder) number() (glua.LValue, error) {
	start := d.pos
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			d.pos++
			continue
		}
		break
	}
	text := d.text[start:d.pos]
	if f, ok := smallInteger(text); ok {
		return number(f), nil
	}
	if !json.Valid(d.data[start:d.pos]) {
		d.pos = start
		return nil, d.fail("a number")
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return nil, fmt.Errorf("number %s does not fit a float64", text)
	}
	return glua.LNumber(f), nil
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
// through its JSON encoding.
func FromGo(L *glua.LState, v any) (glua.LValue, error) {
	c := &goConverter{L: L}
	out, err := c.value(v, 0)
	if err != nil {
		return glua.LNil, fmt.Errorf("tool output cannot be converted: %w", err)
	}
	return out, nil
}

type goConverter struct {
	L       *glua.LState
	members memberStack
}

func (c *goConverter) value(v any, depth int) (glua.LValue, error) {
	if depth > maxDecodeDepth {
		return nil, fmt.Errorf("nested more than %d levels deep", maxDecodeDepth)
	}
	switch v := v.(type) {
	case nil:
		return glua.LNil, nil
	case bool:
		return glua.LBool(v), nil
	case string:
		return glua.LString(v), nil
	case float64:
		return goNumber(v)
	case map[string]any:
		mark := len(c.members)
		defer c.members.release(mark)
		for k, item := range v {
			lv, err := c.value(item, depth+1)
			if err != nil {
				return nil, err
			}
			c.members = append(c.members, member{k, lv})
		}
		own := c.members[mark:]
		slices.SortFunc(own, func(a, b member) int { return strings.Compare(a.key, b.key) })
		return objectTable(c.L, own), nil
	case []any:
		mark := len(c.members)
		defer c.members.release(mark)
		for _, item := range v {
			lv, err := c.value(item, depth+1)
			if err != nil {
				return nil, err
			}
			c.members = append(c.members, member{value: lv})
		}
		return arrayTable(c.L, c.members[mark:]), nil
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
	d := &jsonDecoder{L: c.L, data: raw, text: string(raw)}
	return d.value(depth)
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
