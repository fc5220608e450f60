package render

import (
	"strconv"
	"strings"
)

// keywords are the reserved words of Lua 5.1 plus goto (reserved from 5.2 on,
// and by lua-language-server): a name that is one of them cannot follow a dot.
var keywords = map[string]bool{
	"and": true, "break": true, "do": true, "else": true, "elseif": true,
	"end": true, "false": true, "for": true, "function": true, "goto": true,
	"if": true, "in": true, "local": true, "nil": true, "not": true,
	"or": true, "repeat": true, "return": true, "then": true, "true": true,
	"until": true, "while": true,
}

// IsIdentifier reports whether name can be written after a dot in Lua:
// ASCII letters, digits and underscores, not starting with a digit, and not
// a keyword.
func IsIdentifier(name string) bool {
	if name == "" || keywords[name] {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// CallForm returns the expression a script uses to reach a tool:
// tools.name for identifiers, tools["name"] otherwise (tools.get-item would
// parse as a subtraction). Builtins and MCP tools are treated alike.
func CallForm(name string) string {
	if IsIdentifier(name) {
		return "tools." + name
	}
	return "tools[" + Quote(name) + "]"
}

// definition is the Lua statement that carries a signature's annotations. A
// function statement only accepts dotted names, so a non-identifier tool is
// written as an assignment.
func definition(name string) string {
	if IsIdentifier(name) {
		return "function tools." + name + "(args) end"
	}
	return "tools[" + Quote(name) + "] = function(args) end"
}

// Quote returns s as a double-quoted Lua 5.1 string literal on one line:
// quotes, backslashes and control characters are escaped (Lua 5.1 has no
// \x or \u, so bytes use decimal \ddd), UTF-8 text is kept as is.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			b.WriteByte('\\')
			// Three digits, so a following digit is not read as part of it.
			d := strconv.Itoa(int(c))
			b.WriteString(strings.Repeat("0", 3-len(d)))
			b.WriteString(d)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// fieldKey renders a table key for an annotation: name or ["name"].
func fieldKey(name string) string {
	if IsIdentifier(name) {
		return name
	}
	return "[" + Quote(name) + "]"
}

// className turns any text into a LuaCATS-safe name segment.
func className(s string) string {
	if s == "" {
		return "_"
	}
	b := []byte(s)
	for i, c := range b {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	return string(b)
}
