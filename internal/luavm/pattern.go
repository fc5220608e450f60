package luavm

// Lua 5.1 pattern matching, written for the sandbox: the same semantics as
// the reference string library, but every step is counted so that a
// catastrophic pattern (".-.-.-.-.-b" over a long subject) stops when the
// run's budget is spent instead of running for hours, and recursion is
// capped so that a long pattern cannot exhaust the Go stack.

const (
	maxCaptures     = 32
	capUnfinished   = -1
	capPosition     = -2
	maxMatchDepth   = 200
	stepsPerCheck   = 1 << 12
	patternSpecials = "^$*+?.([%-"
)

type capture struct {
	init, len int
}

// matcher holds the state of one match attempt over src with pattern pat.
// Errors are reported by panicking through raise, which the caller turns
// into a Lua error.
type matcher struct {
	src, pat string
	level    int
	captures [maxCaptures]capture
	depth    int
	steps    int
	// check is called every stepsPerCheck steps; it raises when the run
	// must stop.
	check func()
	raise func(msg string)
}

func (m *matcher) reset() {
	m.level = 0
	m.depth = 0
}

func (m *matcher) step() {
	m.steps++
	if m.steps%stepsPerCheck == 0 {
		m.check()
	}
}

func (m *matcher) classEnd(p int) int {
	pat := m.pat
	c := pat[p]
	p++
	switch c {
	case '%':
		if p >= len(pat) {
			m.raise("malformed pattern (ends with '%')")
		}
		return p + 1
	case '[':
		if p < len(pat) && pat[p] == '^' {
			p++
		}
		for {
			// The first character after '[' (or '[^') is taken literally,
			// so "[]]" is a class holding ']'.
			if p >= len(pat) {
				m.raise("malformed pattern (missing ']')")
			}
			c := pat[p]
			p++
			if c == '%' && p < len(pat) {
				p++
			}
			if p >= len(pat) {
				m.raise("malformed pattern (missing ']')")
			}
			if pat[p] == ']' {
				return p + 1
			}
		}
	}
	return p
}

func matchClass(c byte, class byte) bool {
	var res bool
	switch class | 0x20 {
	case 'a':
		res = isAlpha(c)
	case 'c':
		res = c < 32 || c == 127
	case 'd':
		res = c >= '0' && c <= '9'
	case 'l':
		res = c >= 'a' && c <= 'z'
	case 'p':
		res = isPunct(c)
	case 's':
		res = c == ' ' || (c >= '\t' && c <= '\r')
	case 'u':
		res = c >= 'A' && c <= 'Z'
	case 'w':
		res = isAlpha(c) || (c >= '0' && c <= '9')
	case 'x':
		res = (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'f')
	case 'z':
		res = c == 0
	default:
		return class == c
	}
	if class >= 'A' && class <= 'Z' {
		return !res
	}
	return res
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isPunct(c byte) bool {
	return c > 32 && c < 127 && !isAlpha(c) && !(c >= '0' && c <= '9')
}

// matchBracketClass reports whether c is in the class pat[p:ec+1], where
// pat[p] is '[' and pat[ec] is the closing ']'.
func (m *matcher) matchBracketClass(c byte, p, ec int) bool {
	pat := m.pat
	sig := true
	if pat[p+1] == '^' {
		sig = false
		p++
	}
	for p++; p < ec; p++ {
		switch {
		case pat[p] == '%':
			p++
			if matchClass(c, pat[p]) {
				return sig
			}
		case pat[p+1] == '-' && p+2 < ec:
			p += 2
			if pat[p-2] <= c && c <= pat[p] {
				return sig
			}
		case pat[p] == c:
			return sig
		}
	}
	return !sig
}

func (m *matcher) singleMatch(s, p, ep int) bool {
	if s >= len(m.src) {
		return false
	}
	c := m.src[s]
	switch m.pat[p] {
	case '.':
		return true
	case '%':
		return matchClass(c, m.pat[p+1])
	case '[':
		return m.matchBracketClass(c, p, ep-1)
	default:
		return m.pat[p] == c
	}
}

// match returns the end of the match of pat[p:] at src[s:], or -1.
func (m *matcher) match(s, p int) int {
	m.depth++
	if m.depth > maxMatchDepth {
		m.raise("pattern too complex")
	}
	defer func() { m.depth-- }()
	src, pat := m.src, m.pat
	for {
		m.step()
		if p >= len(pat) {
			return s
		}
		switch pat[p] {
		case '(':
			if p+1 < len(pat) && pat[p+1] == ')' {
				return m.startCapture(s, p+2, capPosition)
			}
			return m.startCapture(s, p+1, capUnfinished)
		case ')':
			return m.endCapture(s, p+1)
		case '$':
			if p+1 == len(pat) {
				if s == len(src) {
					return s
				}
				return -1
			}
		case '%':
			if p+1 < len(pat) {
				switch next := pat[p+1]; {
				case next == 'b':
					s = m.matchBalance(s, p+2)
					if s == -1 {
						return -1
					}
					p += 4
					continue
				case next == 'f':
					p += 2
					if p >= len(pat) || pat[p] != '[' {
						m.raise("missing '[' after '%f' in pattern")
					}
					ep := m.classEnd(p)
					var prev, cur byte
					if s > 0 {
						prev = src[s-1]
					}
					if s < len(src) {
						cur = src[s]
					}
					if m.matchBracketClass(prev, p, ep-1) || !m.matchBracketClass(cur, p, ep-1) {
						return -1
					}
					p = ep
					continue
				case next >= '0' && next <= '9':
					s = m.matchCapture(s, next)
					if s == -1 {
						return -1
					}
					p += 2
					continue
				}
			}
		}
		ep := m.classEnd(p)
		matched := m.singleMatch(s, p, ep)
		if ep < len(pat) {
			switch pat[ep] {
			case '?':
				if matched {
					if res := m.match(s+1, ep+1); res != -1 {
						return res
					}
				}
				p = ep + 1
				continue
			case '*':
				return m.maxExpand(s, p, ep)
			case '+':
				if !matched {
					return -1
				}
				return m.maxExpand(s+1, p, ep)
			case '-':
				return m.minExpand(s, p, ep)
			}
		}
		if !matched {
			return -1
		}
		s++
		p = ep
	}
}

func (m *matcher) maxExpand(s, p, ep int) int {
	i := 0
	for m.singleMatch(s+i, p, ep) {
		m.step()
		i++
	}
	for ; i >= 0; i-- {
		if res := m.match(s+i, ep+1); res != -1 {
			return res
		}
	}
	return -1
}

func (m *matcher) minExpand(s, p, ep int) int {
	for {
		if res := m.match(s, ep+1); res != -1 {
			return res
		}
		if !m.singleMatch(s, p, ep) {
			return -1
		}
		s++
	}
}

func (m *matcher) startCapture(s, p, what int) int {
	if m.level >= maxCaptures {
		m.raise("too many captures")
	}
	m.captures[m.level] = capture{init: s, len: what}
	m.level++
	res := m.match(s, p)
	if res == -1 {
		m.level--
	}
	return res
}

func (m *matcher) endCapture(s, p int) int {
	l := -1
	for i := m.level - 1; i >= 0; i-- {
		if m.captures[i].len == capUnfinished {
			l = i
			break
		}
	}
	if l < 0 {
		m.raise("invalid pattern capture")
	}
	m.captures[l].len = s - m.captures[l].init
	res := m.match(s, p)
	if res == -1 {
		m.captures[l].len = capUnfinished
	}
	return res
}

func (m *matcher) matchBalance(s, p int) int {
	if p+1 >= len(m.pat) {
		m.raise("unbalanced pattern")
	}
	src := m.src
	if s >= len(src) || src[s] != m.pat[p] {
		return -1
	}
	open, close := m.pat[p], m.pat[p+1]
	depth := 1
	for s++; s < len(src); s++ {
		m.step()
		switch src[s] {
		case close:
			depth--
			if depth == 0 {
				return s + 1
			}
		case open:
			depth++
		}
	}
	return -1
}

func (m *matcher) matchCapture(s int, digit byte) int {
	l := int(digit - '1')
	if l < 0 || l >= m.level || m.captures[l].len == capUnfinished {
		m.raise("invalid capture index")
	}
	c := m.captures[l]
	if len(m.src)-s >= c.len && m.src[c.init:c.init+c.len] == m.src[s:s+c.len] {
		return s + c.len
	}
	return -1
}

// captureValue is one capture of a successful match: a substring, or a
// position (1-based) for "()".
type captureValue struct {
	str      string
	pos      int
	position bool
}

// capture returns capture i of the match src[s:e]; with no explicit
// captures, capture 0 is the whole match.
func (m *matcher) capture(i, s, e int) captureValue {
	if i >= m.level {
		if i != 0 {
			m.raise("invalid capture index")
		}
		return captureValue{str: m.src[s:e]}
	}
	c := m.captures[i]
	switch c.len {
	case capUnfinished:
		m.raise("unfinished capture")
	case capPosition:
		return captureValue{pos: c.init + 1, position: true}
	}
	return captureValue{str: m.src[c.init : c.init+c.len]}
}

// allCaptures returns the captures of the match src[s:e]; wholeIfNone
// gives the whole match when the pattern has no captures.
func (m *matcher) allCaptures(s, e int, wholeIfNone bool) []captureValue {
	n := m.level
	if n == 0 && wholeIfNone {
		n = 1
	}
	out := make([]captureValue, n)
	for i := range out {
		out[i] = m.capture(i, s, e)
	}
	return out
}
