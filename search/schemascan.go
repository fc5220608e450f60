package search

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// schemaTexts returns the name and the description of each property of
// an input schema's top level, in the order of the names, valid until its
// next call. A schema that
// is not an object with properties has none, and neither has one that is
// not valid JSON or not of that shape (a property that is not an object, a
// description that is not a string).
//
// Reading the schemas was most of building an index of real tools, so a
// schema is scanned once, in place, and only the texts are copied; what
// the scan is not sure of (escapes in keys, repeated or differently cased
// keys, a null where an object was expected) is left to encoding/json,
// which defines the result. sc is scratch space, reused from schema to
// schema.
func (sc *scanner) schemaTexts(schema json.RawMessage) []property {
	if len(schema) == 0 {
		return nil
	}
	props, ok := sc.scan(schema)
	slices.SortFunc(props, func(a, b property) int { return bytes.Compare(a.name, b.name) })
	if !ok || repeatedName(props) {
		props = decodeProperties(schema)
	}
	return props
}

// repeatedName reports whether sorted props name one property twice: left
// to encoding/json, where the last one counts.
func repeatedName(props []property) bool {
	for i := 1; i < len(props); i++ {
		if bytes.Equal(props[i].name, props[i-1].name) {
			return true
		}
	}
	return false
}

// property is one property of a schema's top level: its texts are read
// in the schema itself, or for a description with escapes, where the
// scanner unquoted it (descAt in its texts, when unquoted).
type property struct {
	name, description []byte
	descAt            [2]int
	unquoted          bool
}

// decodeProperties reads a schema's properties with encoding/json.
func decodeProperties(schema json.RawMessage) []property {
	var s struct {
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	out := make([]property, 0, len(s.Properties))
	for name, p := range s.Properties {
		out = append(out, property{name: []byte(name), description: []byte(p.Description)})
	}
	slices.SortFunc(out, func(a, b property) int { return bytes.Compare(a.name, b.name) })
	return out
}

// scan reads schema s's properties as decodeProperties does, or reports
// that it cannot be sure of the answer. Every value it skips is checked to
// be valid JSON, so a schema it accepts is one encoding/json accepts. The
// properties are valid until the next scan.
func (sc *scanner) scan(s []byte) ([]property, bool) {
	sc.s, sc.i, sc.texts, sc.props = s, 0, sc.texts[:0], sc.props[:0]
	seen := false
	ok := sc.object(func(key []byte) bool {
		switch {
		case string(key) == "properties" && !seen:
			seen = true
			return sc.properties()
		case strings.EqualFold(string(key), "properties"):
			return false // a repeated or differently cased key: merged by encoding/json
		}
		return sc.value(0)
	})
	sc.space()
	if !ok || sc.i != len(s) {
		return nil, false
	}
	for i := range sc.props {
		if p := &sc.props[i]; p.unquoted {
			p.description = sc.texts[p.descAt[0]:p.descAt[1]]
		}
	}
	return sc.props, true
}

// scanner reads JSON text s from i on, unquoting to texts the texts it
// keeps that have escapes and noting the properties it read in props.
type scanner struct {
	s     []byte
	i     int
	texts []byte
	props []property
}

// maxScanDepth bounds the nesting the scanner follows; deeper schemas
// are left to encoding/json.
const maxScanDepth = 100

func (sc *scanner) space() {
	i := sc.i
	for i < len(sc.s) && jsonSpace[sc.s[i]] {
		i++
	}
	sc.i = i
}

// jsonSpace marks JSON's white space; strStop the bytes a string's scan
// stops at: its end, an escape, a control character (not allowed), and a
// byte past ASCII (which stringValue must check).
var jsonSpace, strStop = func() (space, stop [256]bool) {
	for _, c := range " \t\n\r" {
		space[c] = true
	}
	for c := range 256 {
		stop[c] = c == '"' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf
	}
	return space, stop
}()

// next skips white space and reports whether the next byte is c, taking
// it if so.
func (sc *scanner) next(c byte) bool {
	sc.space()
	if sc.i < len(sc.s) && sc.s[sc.i] == c {
		sc.i++
		return true
	}
	return false
}

// object reads an object, calling member with each key (as written, with
// no escapes and in ASCII) with the scanner at its value; member reads the
// value and reports whether it could.
func (sc *scanner) object(member func(key []byte) bool) bool {
	if !sc.next('{') {
		return false
	}
	if sc.next('}') {
		return true
	}
	for {
		key, ok := sc.plainString()
		if !ok || !sc.next(':') || !member(key) {
			return false
		}
		if sc.next('}') {
			return true
		}
		if !sc.next(',') {
			return false
		}
	}
}

// properties reads the properties object: each property an object whose
// description, if it has one, is a string.
func (sc *scanner) properties() bool {
	return sc.object(func(name []byte) bool {
		p := property{name: name}
		described := false
		ok := sc.object(func(key []byte) bool {
			switch {
			case string(key) == "description" && !described:
				described = true
				var ok bool
				p.description, p.descAt, p.unquoted, ok = sc.stringValue()
				return ok
			case strings.EqualFold(string(key), "description"):
				return false
			}
			return sc.value(2)
		})
		sc.props = append(sc.props, p)
		return ok
	})
}

// plainString reads a string with no escapes, of printable ASCII: a key
// encoding/json matches exactly as written.
func (sc *scanner) plainString() ([]byte, bool) {
	sc.space()
	if sc.i >= len(sc.s) || sc.s[sc.i] != '"' {
		return nil, false
	}
	for j := sc.i + 1; j < len(sc.s); j++ {
		switch c := sc.s[j]; {
		case c == '"':
			out := sc.s[sc.i+1 : j]
			sc.i = j + 1
			return out, true
		case c < 0x20 || c == '\\' || c >= utf8.RuneSelf:
			return nil, false
		}
	}
	return nil, false
}

// stringValue reads a string as encoding/json decodes it: its bytes in
// the schema, or where in texts it was unquoted to (unquoted).
func (sc *scanner) stringValue() (text []byte, at [2]int, unquoted, ok bool) {
	sc.space()
	start := sc.i
	plain, ok := sc.strPlain()
	if !ok {
		return nil, at, false, false
	}
	raw := sc.s[start+1 : sc.i-1]
	if plain || bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return raw, at, false, true
	}
	from := len(sc.texts)
	sc.texts = unquote(sc.texts, raw)
	return nil, [2]int{from, len(sc.texts)}, true, true
}

// value skips one valid value at nesting depth.
func (sc *scanner) value(depth int) bool {
	sc.space()
	if sc.i >= len(sc.s) || depth > maxScanDepth {
		return false
	}
	switch c := sc.s[sc.i]; c {
	case '"':
		return sc.str()
	case '{':
		return sc.object(func([]byte) bool { return sc.value(depth + 1) })
	case '[':
		sc.i++
		if sc.next(']') {
			return true
		}
		for sc.value(depth + 1) {
			if sc.next(']') {
				return true
			}
			if !sc.next(',') {
				return false
			}
		}
		return false
	case 't':
		return sc.literal("true")
	case 'f':
		return sc.literal("false")
	case 'n':
		return sc.literal("null")
	}
	return sc.number()
}

func (sc *scanner) literal(word string) bool {
	if bytes.HasPrefix(sc.s[sc.i:], []byte(word)) {
		sc.i += len(word)
		return true
	}
	return false
}

// str skips a valid string: no control characters, only JSON's escapes.
func (sc *scanner) str() bool {
	_, ok := sc.strPlain()
	return ok
}

// strPlain is str, also reporting whether the string is plain: in ASCII
// with no escapes, its bytes its text.
func (sc *scanner) strPlain() (plain, ok bool) {
	if sc.i >= len(sc.s) || sc.s[sc.i] != '"' {
		return false, false
	}
	plain = true
	for j := sc.i + 1; j < len(sc.s); j++ {
		c := sc.s[j]
		if !strStop[c] {
			continue
		}
		switch {
		case c == '"':
			sc.i = j + 1
			return plain, true
		case c < 0x20:
			return false, false
		case c >= utf8.RuneSelf:
			plain = false
		default: // a backslash
			plain = false
			j++
			if j >= len(sc.s) {
				return false, false
			}
			switch sc.s[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(sc.s) || !isHex4(sc.s[j+1:j+5]) {
					return false, false
				}
				j += 4
			default:
				return false, false
			}
		}
	}
	return false, false
}

func isHex4(s []byte) bool {
	for i := range 4 {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// number skips a number as JSON writes it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (sc *scanner) number() bool {
	s, i := sc.s, sc.i
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		i = digits(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		if i = digits(s, i+1); i < 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i = digits(s, i); i < 0 {
			return false
		}
	}
	sc.i = i
	return true
}

// digits returns the end of the run of digits at i, or -1 if there is none.
func digits(s []byte, i int) int {
	j := i
	for j < len(s) && '0' <= s[j] && s[j] <= '9' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// unquote appends the text of a valid JSON string's contents raw (between
// its quotes) to out, as encoding/json decodes it: escapes replaced, a
// lone surrogate and invalid UTF-8 by U+FFFD.
func unquote(out, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\' && raw[i+1] == 'u':
			r := hex4(raw[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) {
				var r2 rune = -1
				if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					r2 = hex4(raw[i+2 : i+6])
				}
				if pair := utf16.DecodeRune(r, r2); pair != unicode.ReplacementChar {
					r = pair
					i += 6
				} else {
					r = unicode.ReplacementChar
				}
			}
			out = utf8.AppendRune(out, r)
		case c == '\\':
			out = append(out, unescaped[raw[i+1]])
			i += 2
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			out = utf8.AppendRune(out, r)
			i += size
		}
	}
	return out
}

// unescaped is the character each one-letter escape stands for.
var unescaped = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// hex4 reads four hex digits (checked by str).
func hex4(s []byte) rune {
	var r rune
	for _, c := range s[:4] {
		switch {
		case c <= '9':
			c -= '0'
		case c <= 'F':
			c -= 'A' - 10
		default:
			c -= 'a' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
