package luavm

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	glua "github.com/yuin/gopher-lua"
)

// openString replaces the parts of gopher-lua's string library that could
// run unbounded or leak Go values, and gives strings a metatable of their
// own so the string table is not their metatable.
func (s *State) openString(str *glua.LTable) {
	s.register(str, []namedFunction{
		{"rep", s.strRep},
		{"format", s.strFormat},
		{"byte", s.strByte},
		{"char", strChar},
		{"find", func(L *glua.LState) int { return s.strFind(L, true) }},
		{"match", func(L *glua.LState) int { return s.strFind(L, false) }},
		{"gmatch", s.strGmatch},
		{"gsub", s.strGsub},
		// C Lua's case mapping and reversal are byte by byte (ASCII in the
		// C locale); gopher-lua's go through Unicode and would rewrite bytes
		// that are not UTF-8.
		{"upper", func(L *glua.LState) int { return mapBytes(L, asciiUpper) }},
		{"lower", func(L *glua.LState) int { return mapBytes(L, asciiLower) }},
		{"reverse", strReverse},
	})
	mt := s.L.CreateTable(0, 2)
	mt.RawSetString("__index", str)
	mt.RawSetString("__metatable", glua.LFalse)
	s.L.SetMetatable(glua.LString(""), mt)
}

// checkSize raises the error every size-capped builtin shares when n is
// over the limit.
func (s *State) checkSize(L *glua.LState, n int) {
	if n > s.opts.MaxStringBytes || n < 0 {
		L.RaiseError("resulting string too large (the limit is %d bytes)", s.opts.MaxStringBytes)
	}
}

// relPos turns a Lua string position (negative counts from the end) into a
// 1-based position, as C Lua's posrelat.
func relPos(pos, length int) int {
	if pos < 0 {
		pos += length + 1
	}
	if pos < 0 {
		return 0
	}
	return pos
}

// strRep is string.rep, with Lua 5.2's optional separator, which models
// trained on newer Lua write.
func (s *State) strRep(L *glua.LState) int {
	str := L.CheckString(1)
	n := L.CheckInt(2)
	sep := L.OptString(3, "")
	if n <= 0 || str == "" && sep == "" {
		L.Push(glua.LString(""))
		return 1
	}
	if unit := len(str) + len(sep); n > s.opts.MaxStringBytes/unit {
		s.checkSize(L, s.opts.MaxStringBytes+1)
	}
	if sep == "" {
		L.Push(glua.LString(strings.Repeat(str, n)))
		return 1
	}
	L.Push(glua.LString(strings.Repeat(str+sep, n-1) + str))
	return 1
}

// strChar is string.char; gopher-lua's wraps a code past 255 around where
// C Lua refuses it.
func strChar(L *glua.LState) int {
	n := L.GetTop()
	b := make([]byte, n)
	for i := 1; i <= n; i++ {
		c := L.CheckInt(i)
		if c < 0 || c > 255 {
			L.ArgError(i, "invalid value")
		}
		b[i-1] = byte(c)
	}
	L.Push(glua.LString(b))
	return 1
}

func (s *State) strByte(L *glua.LState) int {
	str := L.CheckString(1)
	i := relPos(L.OptInt(2, 1), len(str))
	j := relPos(L.OptInt(3, i), len(str))
	if i < 1 {
		i = 1
	}
	if j > len(str) {
		j = len(str)
	}
	if i > j {
		return 0
	}
	if j-i >= maxResults {
		L.RaiseError("string slice too long")
	}
	for k := i; k <= j; k++ {
		L.Push(glua.LNumber(str[k-1]))
	}
	return j - i + 1
}

func (s *State) newMatcher(L *glua.LState, src, pat string) *matcher {
	return &matcher{
		src: src, pat: pat,
		check: func() { checkStop(L) },
		raise: func(msg string) { L.RaiseError("%s", msg) },
	}
}

func pushCaptures(L *glua.LState, caps []captureValue) int {
	for _, c := range caps {
		if c.position {
			L.Push(glua.LNumber(c.pos))
		} else {
			L.Push(glua.LString(c.str))
		}
	}
	return len(caps)
}

// strFind implements string.find (find) and string.match (!find).
func (s *State) strFind(L *glua.LState, find bool) int {
	src := L.CheckString(1)
	pat := L.CheckString(2)
	init := relPos(L.OptInt(3, 1), len(src)) - 1
	if init < 0 {
		init = 0
	} else if init > len(src) {
		init = len(src)
	}
	if find && (glua.LVAsBool(L.Get(4)) || !strings.ContainsAny(pat, patternSpecials)) {
		if i := strings.Index(src[init:], pat); i >= 0 {
			L.Push(glua.LNumber(init + i + 1))
			L.Push(glua.LNumber(init + i + len(pat)))
			return 2
		}
		L.Push(glua.LNil)
		return 1
	}
	anchor := strings.HasPrefix(pat, "^")
	if anchor {
		pat = pat[1:]
	}
	m := s.newMatcher(L, src, pat)
	for start := init; ; start++ {
		m.reset()
		if e := m.match(start, 0); e != -1 {
			if find {
				L.Push(glua.LNumber(start + 1))
				L.Push(glua.LNumber(e))
				return 2 + pushCaptures(L, m.allCaptures(start, e, false))
			}
			return pushCaptures(L, m.allCaptures(start, e, true))
		}
		if start >= len(src) || anchor {
			break
		}
	}
	L.Push(glua.LNil)
	return 1
}

// strGmatch returns an iterator that keeps its subject and pattern as
// upvalues, where Footprint sees them: captured by a Go closure, a
// thousand live iterators held a gigabyte that the memory guard missed.
func (s *State) strGmatch(L *glua.LState) int {
	L.CheckString(1)
	L.CheckString(2)
	next := 0
	L.Push(L.NewClosure(guard("gmatch iterator", func(L *glua.LState) int {
		src := string(L.Get(glua.UpvalueIndex(1)).(glua.LString))
		pat := string(L.Get(glua.UpvalueIndex(2)).(glua.LString))
		m := s.newMatcher(L, src, pat)
		for start := next; start <= len(src); start++ {
			m.reset()
			e := m.match(start, 0)
			if e == -1 {
				continue
			}
			next = e
			if e == start {
				next++ // an empty match: move on at least one position
			}
			return pushCaptures(L, m.allCaptures(start, e, true))
		}
		next = len(src) + 1
		return 0
	}), L.Get(1), L.Get(2)))
	return 1
}

func (s *State) strGsub(L *glua.LState) int {
	src := L.CheckString(1)
	pat := L.CheckString(2)
	repl := L.Get(3)
	switch repl.Type() {
	case glua.LTNumber, glua.LTString, glua.LTTable, glua.LTFunction:
	default:
		L.ArgError(3, "string/function/table expected")
	}
	maxN := L.OptInt(4, len(src)+1)
	anchor := strings.HasPrefix(pat, "^")
	if anchor {
		pat = pat[1:]
	}
	m := s.newMatcher(L, src, pat)
	var out strings.Builder
	pos, n := 0, 0
	for n < maxN {
		m.reset()
		e := m.match(pos, 0)
		if e != -1 {
			n++
			s.addReplacement(L, m, &out, pos, e, repl)
		}
		switch {
		case e != -1 && e > pos:
			pos = e
		case pos < len(src):
			out.WriteByte(src[pos])
			pos++
		default:
			goto done
		}
		s.checkSize(L, out.Len())
		if anchor {
			break
		}
	}
done:
	out.WriteString(src[pos:])
	s.checkSize(L, out.Len())
	L.Push(glua.LString(out.String()))
	L.Push(glua.LNumber(n))
	return 2
}

func (s *State) addReplacement(L *glua.LState, m *matcher, out *strings.Builder, start, end int, repl glua.LValue) {
	whole := m.src[start:end]
	var value glua.LValue
	switch r := repl.(type) {
	case glua.LString, glua.LNumber:
		news := asString(r)
		for i := 0; i < len(news); i++ {
			c := news[i]
			if c != '%' || i+1 == len(news) {
				out.WriteByte(c)
				continue
			}
			i++
			piece := string(news[i])
			switch d := news[i]; {
			case d == '0':
				piece = whole
			case d >= '1' && d <= '9':
				c := m.capture(int(d-'1'), start, end)
				piece = c.str
				if c.position {
					piece = strconv.Itoa(c.pos)
				}
			}
			// Checked before it is written: "%0%0%0..." repeats the
			// match as often as the replacement asks.
			s.checkSize(L, out.Len()+len(piece))
			out.WriteString(piece)
		}
		return
	case *glua.LTable:
		value = L.GetTable(r, captureLValue(m.capture(0, start, end)))
	case *glua.LFunction:
		caps := m.allCaptures(start, end, true)
		L.Push(r)
		n := pushCaptures(L, caps)
		L.Call(n, 1)
		value = L.Get(-1)
		L.Pop(1)
	}
	switch v := value.(type) {
	case *glua.LNilType:
		out.WriteString(whole)
	case glua.LBool:
		if v {
			L.RaiseError("invalid replacement value (a boolean)")
		}
		out.WriteString(whole)
	case glua.LString, glua.LNumber:
		out.WriteString(asString(v))
	default:
		L.RaiseError("invalid replacement value (a %s)", value.Type().String())
	}
}

func captureLValue(c captureValue) glua.LValue {
	if c.position {
		return glua.LNumber(c.pos)
	}
	return glua.LString(c.str)
}

// strFormat is C Lua's string.format: flags, a width and a precision of at
// most two digits each, and the C conversions only, so Go's own verbs (%T,
// %p, %v) can never be reached.
func (s *State) strFormat(L *glua.LState) int {
	format := L.CheckString(1)
	arg := 1
	var out strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			out.WriteByte(c)
			continue
		}
		i++
		if i < len(format) && format[i] == '%' {
			out.WriteByte('%')
			continue
		}
		start := i
		for i < len(format) && strings.IndexByte("-+ #0", format[i]) >= 0 {
			i++
		}
		if i-start > 5 {
			L.RaiseError("invalid format (repeated flags)")
		}
		flags := format[start:i]
		width := digits(format, &i)
		precision, hasPrecision := "", false
		if i < len(format) && format[i] == '.' {
			i++
			hasPrecision = true
			precision = digits(format, &i)
		}
		if len(width) > 2 || len(precision) > 2 {
			L.RaiseError("invalid format (width or precision too long)")
		}
		if i >= len(format) {
			L.RaiseError("invalid option '%%' to 'format'")
		}
		arg++
		spec := "%" + flags + width
		if hasPrecision {
			spec += "." + precision
		}
		switch conv := format[i]; conv {
		case 'c':
			out.WriteByte(byte(L.CheckInt(arg)))
		case 'd', 'i':
			out.WriteString(fmt.Sprintf(spec+"d", int64(L.CheckNumber(arg))))
		case 'o', 'u', 'x', 'X':
			verb := map[byte]string{'o': "o", 'u': "d", 'x': "x", 'X': "X"}[conv]
			out.WriteString(fmt.Sprintf(spec+verb, uint64(int64(L.CheckNumber(arg)))))
		case 'e', 'E', 'f', 'g', 'G':
			f := float64(L.CheckNumber(arg))
			if math.IsInf(f, 0) || math.IsNaN(f) {
				out.WriteString(fmt.Sprintf("%"+flags+width+"s", cFloatName(f, conv)))
				break
			}
			if !hasPrecision {
				spec += ".6"
			}
			out.WriteString(fmt.Sprintf(spec+string(conv), f))
		case 'q':
			// A number is quoted as tostring writes it (inf, not +Inf).
			if n, ok := L.CheckAny(arg).(glua.LNumber); ok {
				writeQuoted(&out, s.tostringValue(L, n))
				break
			}
			writeQuoted(&out, L.CheckString(arg))
		case 's':
			str := s.tostringValue(L, L.CheckAny(arg))
			if hasPrecision {
				p, _ := strconv.Atoi(precision)
				str = str[:min(p, len(str))]
			}
			out.WriteString(fmt.Sprintf("%"+flags+width+"s", str))
		default:
			L.RaiseError("invalid option '%%%c' to 'format'", conv)
		}
		s.checkSize(L, out.Len())
	}
	L.Push(glua.LString(out.String()))
	return 1
}

func digits(s string, i *int) string {
	start := *i
	for *i < len(s) && s[*i] >= '0' && s[*i] <= '9' {
		*i++
	}
	return s[start:*i]
}

func cFloatName(f float64, conv byte) string {
	name := "nan"
	if math.IsInf(f, 1) {
		name = "inf"
	} else if math.IsInf(f, -1) {
		name = "-inf"
	}
	if conv >= 'A' && conv <= 'Z' {
		name = strings.ToUpper(name)
	}
	return name
}

func writeQuoted(out *strings.Builder, str string) {
	out.WriteByte('"')
	for i := 0; i < len(str); i++ {
		switch c := str[i]; c {
		case '"', '\\':
			out.WriteByte('\\')
			out.WriteByte(c)
		case '\n':
			out.WriteString("\\\n")
		case '\r':
			out.WriteString("\\r")
		case 0:
			out.WriteString("\\000")
		default:
			out.WriteByte(c)
		}
	}
	out.WriteByte('"')
}

func asciiUpper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

func asciiLower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

// stopEvery is how many bytes the byte-wise builtins process between two
// looks at the run's stop, so that a call on a string of megabytes does not
// run on long past the budget.
const stopEvery = 1 << 20

func mapBytes(L *glua.LState, f func(byte) byte) int {
	str := L.CheckString(1)
	out := make([]byte, len(str))
	for i := 0; i < len(str); i++ {
		if i%stopEvery == stopEvery-1 {
			checkStop(L)
		}
		out[i] = f(str[i])
	}
	L.Push(glua.LString(out))
	return 1
}

func strReverse(L *glua.LState) int {
	str := L.CheckString(1)
	out := make([]byte, len(str))
	for i := 0; i < len(str); i++ {
		if i%stopEvery == stopEvery-1 {
			checkStop(L)
		}
		out[len(str)-1-i] = str[i]
	}
	L.Push(glua.LString(out))
	return 1
}
