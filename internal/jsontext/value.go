package jsontext

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// Value is a parsed JSON value that keeps object members in document order:
// a schema's property order is the author's and must survive into a
// signature, which encoding/json's maps would lose. Parsing by hand is also
// what keeps one wide schema well under the render budget.
type Value struct {
	// Kind is 'o' object, 'a' array, 's' string, 'n' number, 'b' bool or
	// 'z' null.
	Kind byte
	Bool bool
	// Str is a string's contents or a number's text.
	Str string
	// Members holds an object's members, or an array's elements with empty
	// keys: one slice for both keeps values small.
	Members []Member
}

// Member is one member of an object (or element of an array).
type Member struct {
	Key   string
	Value *Value
}

// Get returns the member named key (the last one, as encoding/json would),
// or nil when v is not an object or has no such member.
func (v *Value) Get(key string) *Value {
	if v == nil || v.Kind != 'o' {
		return nil
	}
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == key {
			return v.Members[i].Value
		}
	}
	return nil
}

// Entries returns an object's members or an array's elements; nil for
// anything else, nil included.
func (v *Value) Entries() []Member {
	if v == nil {
		return nil
	}
	return v.Members
}

// IsObject reports whether v is a JSON object.
func (v *Value) IsObject() bool { return v != nil && v.Kind == 'o' }

// IsArray reports whether v is a JSON array.
func (v *Value) IsArray() bool { return v != nil && v.Kind == 'a' }

// Text returns a string member's contents, or "" if it is missing or not a
// string.
func (v *Value) Text(key string) string {
	if m := v.Get(key); m != nil && m.Kind == 's' {
		return m.Str
	}
	return ""
}

// MaxNesting bounds parser recursion the way encoding/json does.
const MaxNesting = 10000

type parser struct {
	s     string
	pos   int
	depth int
	slab  []Value // values are carved from here: one allocation for many
	// Members and elements collect here and are copied out once, into
	// mslab, when their object or array ends.
	members []Member
	mslab   []Member
	buf     []byte // scratch for strings with escapes
}

func (p *parser) alloc(v Value) *Value {
	if len(p.slab) == cap(p.slab) {
		p.slab = make([]Value, 0, 64)
	}
	p.slab = append(p.slab, v)
	return &p.slab[len(p.slab)-1]
}

// finish copies the members collected since mark into the member slab and
// returns them, capacity capped so that no later append can reach a
// neighbour's.
func (p *parser) finish(mark int) []Member {
	n := len(p.members) - mark
	if n == 0 {
		return nil
	}
	if cap(p.mslab)-len(p.mslab) < n {
		p.mslab = make([]Member, 0, max(n, 64))
	}
	start := len(p.mslab)
	p.mslab = append(p.mslab, p.members[mark:]...)
	p.members = p.members[:mark]
	return p.mslab[start:len(p.mslab):len(p.mslab)]
}

// parsers keep their scratch (members, buf) from one Parse to the next: a
// tool's output is parsed on every nested call.
var parsers = sync.Pool{New: func() any { return new(parser) }}

// maxScratch is the most scratch a pooled parser keeps, in elements.
const maxScratch = 1 << 12

// release returns p to the pool, holding nothing of the tree it built.
func (p *parser) release() {
	clear(p.members[:cap(p.members)])
	p.members = p.members[:0]
	if cap(p.members) > maxScratch {
		p.members = nil
	}
	if cap(p.buf) > maxScratch {
		p.buf = nil
	}
	p.s, p.slab, p.mslab = "", nil, nil
	parsers.Put(p)
}

// Parse parses one JSON document.
func Parse(s string) (*Value, error) {
	// Every value but the first follows a ':' or a ',' (or opens an
	// array). Descriptions hold many of those characters too, so about
	// half the count is a fair first guess at how many values there are.
	n := (strings.Count(s, ":")+strings.Count(s, ",")+strings.Count(s, "["))/2 + 4
	n = min(n, 4096)
	p := parsers.Get().(*parser)
	defer p.release()
	*p = parser{s: s, slab: make([]Value, 0, n), mslab: make([]Member, 0, n), members: p.members, buf: p.buf}
	p.space()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos != len(p.s) {
		return nil, p.fail("unexpected data after the top-level value")
	}
	return v, nil
}

func (p *parser) fail(msg string) error {
	return &SyntaxError{Offset: p.pos, msg: msg}
}

// SyntaxError reports where a document stops being JSON.
type SyntaxError struct {
	Offset int
	msg    string
}

func (e *SyntaxError) Error() string {
	return "invalid JSON at offset " + strconv.Itoa(e.Offset) + ": " + e.msg
}

func (p *parser) space() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value() (*Value, error) {
	if p.pos >= len(p.s) {
		return nil, p.fail("unexpected end of input")
	}
	switch c := p.s[p.pos]; {
	case c == '{':
		return p.container('o', '}')
	case c == '[':
		return p.container('a', ']')
	case c == '"':
		s, err := p.string()
		if err != nil {
			return nil, err
		}
		return p.alloc(Value{Kind: 's', Str: s}), nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case strings.HasPrefix(p.s[p.pos:], "true"):
		p.pos += 4
		return p.alloc(Value{Kind: 'b', Bool: true}), nil
	case strings.HasPrefix(p.s[p.pos:], "false"):
		p.pos += 5
		return p.alloc(Value{Kind: 'b'}), nil
	case strings.HasPrefix(p.s[p.pos:], "null"):
		p.pos += 4
		return p.alloc(Value{Kind: 'z'}), nil
	default:
		return nil, p.fail("unexpected character " + strconv.QuoteRune(rune(c)))
	}
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > MaxNesting {
		return p.fail("nesting too deep")
	}
	return nil
}

// container parses an object ('{', kind 'o') or an array ('[', kind 'a')
// from its opening bracket; array elements get empty keys.
func (p *parser) container(kind, closer byte) (*Value, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	what := "an array"
	if kind == 'o' {
		what = "an object"
	}
	p.pos++
	v := p.alloc(Value{Kind: kind})
	mark := len(p.members)
	p.space()
	if p.pos < len(p.s) && p.s[p.pos] == closer {
		p.pos++
		p.depth--
		return v, nil
	}
	for {
		p.space()
		var k string
		if kind == 'o' {
			if p.pos >= len(p.s) || p.s[p.pos] != '"' {
				return nil, p.fail("expected a string key")
			}
			var err error
			if k, err = p.string(); err != nil {
				return nil, err
			}
			p.space()
			if p.pos >= len(p.s) || p.s[p.pos] != ':' {
				return nil, p.fail("expected ':' after an object key")
			}
			p.pos++
			p.space()
		}
		m, err := p.value()
		if err != nil {
			return nil, err
		}
		p.members = append(p.members, Member{k, m})
		p.space()
		if p.pos >= len(p.s) {
			return nil, p.fail("unexpected end of input in " + what)
		}
		switch p.s[p.pos] {
		case ',':
			p.pos++
		case closer:
			p.pos++
			p.depth--
			v.Members = p.finish(mark)
			return v, nil
		default:
			return nil, p.fail("expected ',' or '" + string(closer) + "' in " + what)
		}
	}
}

func (p *parser) number() (*Value, error) {
	start := p.pos
	if p.s[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(p.s) && p.s[p.pos] == '0':
		p.pos++
	case p.digits() == 0:
		return nil, p.fail("invalid number")
	}
	if p.pos < len(p.s) && p.s[p.pos] == '.' {
		p.pos++
		if p.digits() == 0 {
			return nil, p.fail("invalid number")
		}
	}
	if p.pos < len(p.s) && (p.s[p.pos] == 'e' || p.s[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.s) && (p.s[p.pos] == '+' || p.s[p.pos] == '-') {
			p.pos++
		}
		if p.digits() == 0 {
			return nil, p.fail("invalid number")
		}
	}
	return p.alloc(Value{Kind: 'n', Str: p.s[start:p.pos]}), nil
}

func (p *parser) digits() int {
	n := 0
	for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
		n++
	}
	return n
}

// string parses a JSON string starting at the opening quote. Each byte
// that is not UTF-8 becomes U+FFFD, as with encoding/json.
func (p *parser) string() (string, error) {
	p.pos++ // '"'
	start := p.pos
	// Fast path: no escapes, no control characters, valid UTF-8.
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if c == '"' {
			s := p.s[start:p.pos]
			p.pos++
			return validUTF8(s), nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		p.pos++
	}
	b := append(p.buf[:0], p.s[start:p.pos]...)
	defer func() { p.buf = b }()
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c == '"':
			p.pos++
			return validUTF8(string(b)), nil
		case c < 0x20:
			return "", p.fail("control character in a string")
		case c != '\\':
			b = append(b, c)
			p.pos++
			continue
		}
		p.pos++
		if p.pos >= len(p.s) {
			break
		}
		e := p.s[p.pos]
		p.pos++
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
			r, ok := p.hex4()
			if !ok {
				return "", p.fail("invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if strings.HasPrefix(p.s[p.pos:], `\u`) {
					save := p.pos
					p.pos += 2
					if r2, ok = p.hex4(); !ok {
						return "", p.fail("invalid \\u escape")
					}
					if utf16.DecodeRune(r, r2) == utf8.RuneError {
						p.pos = save
						r2 = -1
					}
				}
				r = utf16.DecodeRune(r, r2)
			}
			b = utf8.AppendRune(b, r)
		default:
			p.pos--
			return "", p.fail("invalid escape character")
		}
	}
	return "", p.fail("unterminated string")
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

func (p *parser) hex4() (rune, bool) {
	if p.pos+4 > len(p.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(p.s[p.pos:p.pos+4], 16, 32)
	if err != nil {
		return 0, false
	}
	p.pos += 4
	return rune(n), true
}
