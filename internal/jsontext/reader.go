package jsontext

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind is what a value read by a Reader is.
type Kind byte

// The kinds of value, as Value.Kind spells them.
const (
	Object Kind = 'o'
	Array  Kind = 'a'
	String Kind = 's'
	Number Kind = 'n'
	Bool   Kind = 'b'
	Null   Kind = 'z'
)

// Reader reads one JSON document a value at a time, for a caller that
// builds its own values as it reads: Parse builds a tree of Values with
// it, and a tool's output becomes Lua tables with no tree in between.
// Value reads the next value (a container only up to its opening bracket),
// Next steps through the open container's members and End checks that
// nothing follows the document. It holds scratch that a Reset keeps.
type Reader struct {
	s   string
	pos int
	// closers holds the closing bracket of each container open, innermost
	// last; first says the innermost has had no member yet.
	closers []byte
	first   bool
	buf     []byte // scratch for strings with escapes

	// Str is the last string's contents or number's text read by Value;
	// Bool the last boolean's value.
	Str  string
	Bool bool
	// Key is the key of the object member Next has just reached.
	Key string
}

// Reset readies r to read the document s.
func (r *Reader) Reset(s string) {
	*r = Reader{s: s, closers: r.closers[:0], buf: r.buf}
	if cap(r.buf) > maxScratch {
		r.buf = nil
	}
	r.space()
}

// Offset is how far into the document r has read.
func (r *Reader) Offset() int { return r.pos }

func (r *Reader) fail(msg string) error {
	return &SyntaxError{Offset: r.pos, msg: msg}
}

// SyntaxError reports where a document stops being JSON.
type SyntaxError struct {
	Offset int
	msg    string
}

func (e *SyntaxError) Error() string {
	return "invalid JSON at offset " + strconv.Itoa(e.Offset) + ": " + e.msg
}

func (r *Reader) space() {
	for r.pos < len(r.s) {
		switch r.s[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// Value reads the next value: a string, number or boolean whole (into
// Str or Bool), a null, or the opening bracket of an object or array,
// whose members Next then steps through.
func (r *Reader) Value() (Kind, error) {
	if r.pos >= len(r.s) {
		return 0, r.fail("unexpected end of input")
	}
	switch c := r.s[r.pos]; {
	case c == '{':
		return Object, r.open('}')
	case c == '[':
		return Array, r.open(']')
	case c == '"':
		s, err := r.string()
		r.Str = s
		return String, err
	case c == '-' || (c >= '0' && c <= '9'):
		return Number, r.number()
	case strings.HasPrefix(r.s[r.pos:], "true"):
		r.pos += 4
		r.Bool = true
		return Bool, nil
	case strings.HasPrefix(r.s[r.pos:], "false"):
		r.pos += 5
		r.Bool = false
		return Bool, nil
	case strings.HasPrefix(r.s[r.pos:], "null"):
		r.pos += 4
		return Null, nil
	default:
		return 0, r.fail("unexpected character " + strconv.QuoteRune(rune(c)))
	}
}

// open enters a container at its opening bracket.
func (r *Reader) open(closer byte) error {
	if len(r.closers) >= MaxNesting {
		return r.fail("nesting too deep")
	}
	r.closers = append(r.closers, closer)
	r.first = true
	r.pos++
	return nil
}

// Next moves to the next member of the innermost open container and
// reports true, with an object member's key in Key and its value next
// for Value; or, at the container's end, closes it and reports false.
func (r *Reader) Next() (bool, error) {
	closer := r.closers[len(r.closers)-1]
	r.space()
	if r.first {
		r.first = false
		if r.pos < len(r.s) && r.s[r.pos] == closer {
			return false, r.close()
		}
	} else {
		if r.pos >= len(r.s) {
			return false, r.fail("unexpected end of input in " + what(closer))
		}
		switch r.s[r.pos] {
		case ',':
			r.pos++
			r.space()
		case closer:
			return false, r.close()
		default:
			return false, r.fail("expected ',' or '" + string(closer) + "' in " + what(closer))
		}
	}
	if closer == '}' {
		if r.pos >= len(r.s) || r.s[r.pos] != '"' {
			return false, r.fail("expected a string key")
		}
		var err error
		if r.Key, err = r.string(); err != nil {
			return false, err
		}
		r.space()
		if r.pos >= len(r.s) || r.s[r.pos] != ':' {
			return false, r.fail("expected ':' after an object key")
		}
		r.pos++
		r.space()
	}
	return true, nil
}

func (r *Reader) close() error {
	r.pos++
	r.closers = r.closers[:len(r.closers)-1]
	return nil
}

func what(closer byte) string {
	if closer == '}' {
		return "an object"
	}
	return "an array"
}

// End checks that only white space follows the document's value.
func (r *Reader) End() error {
	r.space()
	if r.pos != len(r.s) {
		return r.fail("unexpected data after the top-level value")
	}
	return nil
}

func (r *Reader) number() error {
	start := r.pos
	if r.s[r.pos] == '-' {
		r.pos++
	}
	switch {
	case r.pos < len(r.s) && r.s[r.pos] == '0':
		r.pos++
	case r.digits() == 0:
		return r.fail("invalid number")
	}
	if r.pos < len(r.s) && r.s[r.pos] == '.' {
		r.pos++
		if r.digits() == 0 {
			return r.fail("invalid number")
		}
	}
	if r.pos < len(r.s) && (r.s[r.pos] == 'e' || r.s[r.pos] == 'E') {
		r.pos++
		if r.pos < len(r.s) && (r.s[r.pos] == '+' || r.s[r.pos] == '-') {
			r.pos++
		}
		if r.digits() == 0 {
			return r.fail("invalid number")
		}
	}
	r.Str = r.s[start:r.pos]
	return nil
}

func (r *Reader) digits() int {
	n := 0
	for r.pos < len(r.s) && r.s[r.pos] >= '0' && r.s[r.pos] <= '9' {
		r.pos++
		n++
	}
	return n
}

// string reads a JSON string starting at the opening quote. Each byte
// that is not UTF-8 becomes U+FFFD, as with encoding/json.
func (r *Reader) string() (string, error) {
	r.pos++ // '"'
	start := r.pos
	// Fast path: no escapes, no control characters, valid UTF-8 (which
	// ASCII is, without a second look).
	ascii := true
	for r.pos < len(r.s) {
		c := r.s[r.pos]
		if c == '"' {
			s := r.s[start:r.pos]
			r.pos++
			if ascii {
				return s, nil
			}
			return validUTF8(s), nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		ascii = ascii && c < utf8.RuneSelf
		r.pos++
	}
	b := append(r.buf[:0], r.s[start:r.pos]...)
	defer func() { r.buf = b }()
	for r.pos < len(r.s) {
		c := r.s[r.pos]
		switch {
		case c == '"':
			r.pos++
			return validUTF8(string(b)), nil
		case c < 0x20:
			return "", r.fail("control character in a string")
		case c != '\\':
			b = append(b, c)
			r.pos++
			continue
		}
		r.pos++
		if r.pos >= len(r.s) {
			break
		}
		e := r.s[r.pos]
		r.pos++
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			c, ok := r.hex4()
			if !ok {
				return "", r.fail("invalid \\u escape")
			}
			if utf16.IsSurrogate(c) {
				c2 := rune(-1)
				if strings.HasPrefix(r.s[r.pos:], `\u`) {
					save := r.pos
					r.pos += 2
					if c2, ok = r.hex4(); !ok {
						return "", r.fail("invalid \\u escape")
					}
					if utf16.DecodeRune(c, c2) == utf8.RuneError {
						r.pos = save
						c2 = -1
					}
				}
				c = utf16.DecodeRune(c, c2)
			}
			b = utf8.AppendRune(b, c)
		default:
			r.pos--
			return "", r.fail("invalid escape character")
		}
	}
	return "", r.fail("unterminated string")
}

// validUTF8 replaces each byte of s that is not UTF-8 with U+FFFD (one per
// byte, where strings.ToValidUTF8 would fold a run into one).
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func (r *Reader) hex4() (rune, bool) {
	if r.pos+4 > len(r.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(r.s[r.pos:r.pos+4], 16, 32)
	if err != nil {
		return 0, false
	}
	r.pos += 4
	return rune(n), true
}
