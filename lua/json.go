package lua

import (
	"encoding/json"
	"fmt"
	"strconv"

	glua "github.com/yuin/gopher-lua"
)

// FromJSON builds a fresh Lua value from JSON: objects and arrays become
// new tables, null becomes nil in an object (the field is absent) and
// tools.null in an array (so # and ipairs see every element). An empty
// array or object is remembered as such, so that it is encoded back as it
// came whatever a schema says (the round trip). It
// decodes straight into Lua values, without the map[string]any that
// encoding/json would build first: a tool's output is decoded on every
// nested call. Nothing of Go reaches the script.
func FromJSON(L *glua.LState, raw []byte) (glua.LValue, error) {
	d := &jsonDecoder{L: L, data: raw, s: stateOf(L)}
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
	L    *glua.LState
	data []byte
	pos  int
	// s gives tools.null and remembers empty arrays; nil for a state this
	// package did not make (nulls are then holes).
	s *State
}

// shape remembers whether an empty table came from [] or {}.
func (d *jsonDecoder) shape(t *glua.LTable, array bool) {
	if d.s != nil {
		weakGet(d.s.empty, t, func() bool { return array })
	}
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
	t := d.L.CreateTable(0, 4)
	if !d.open('}') {
		d.shape(t, false)
		return t, nil
	}
	for more := true; more; {
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
		t.RawSetString(key, v)
		if more, err = d.next('}'); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (d *jsonDecoder) array(depth int) (glua.LValue, error) {
	t := d.L.CreateTable(4, 0)
	i := 0
	if !d.open(']') {
		d.shape(t, true)
		return t, nil
	}
	for more := true; more; {
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if v == glua.LNil && d.s != nil {
			v = d.s.null
		}
		i++
		t.RawSetInt(i, v)
		if more, err = d.next(']'); err != nil {
			return nil, err
		}
	}
	return t, nil
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
				return string(d.data[start+1 : d.pos-1]), nil
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
	text := d.data[start:d.pos]
	if !json.Valid(text) {
		d.pos = start
		return nil, d.fail("a number")
	}
	f, err := strconv.ParseFloat(string(text), 64)
	if err != nil {
		return nil, fmt.Errorf("number %s does not fit a float64", text)
	}
	return glua.LNumber(f), nil
}
