package render

import (
	"strconv"
	"strings"

	"github.com/execlua/execlua/internal/jsontext"
)

// facetKeys are the constraints shown next to a description, in this order.
var facetKeys = [...]string{
	"default", "format", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum",
	"minLength", "maxLength", "pattern", "minItems", "maxItems",
}

// facets renders s's deprecation and constraints, e.g.
// (deprecated, default: 5, minimum: 1), or "" when it has none.
func facets(s *value) string {
	var b strings.Builder
	writeFacets(&b, s, "")
	return b.String()
}

// writeFacets writes prefix and s's facets, or nothing if it has none.
func writeFacets(b *strings.Builder, s *value, prefix string) {
	n := 0
	next := func(name string) {
		if n == 0 {
			b.WriteString(prefix)
			b.WriteByte('(')
		} else {
			b.WriteString(", ")
		}
		n++
		b.WriteString(name)
	}
	if d := s.Get("deprecated"); d != nil && d.Kind == 'b' && d.Bool {
		next("deprecated")
	}
	for _, k := range facetKeys {
		v := s.Get(k)
		if v == nil {
			continue
		}
		next(k)
		b.WriteString(": ")
		if v.Kind == 's' && k != "default" && escapeControls(v.Str) == v.Str {
			b.WriteString(v.Str) // format and pattern read better unquoted
		} else {
			writeJSON(b, v)
		}
	}
	if n > 0 {
		b.WriteByte(')')
	}
}

// docLines returns s's description as comment-safe lines with its facets
// appended to the last one, followed by extra lines.
func docLines(s *value, extra []string) []string {
	lines := splitLines(s.Text("description"))
	if f := facets(s); f != "" {
		if len(lines) == 0 {
			lines = []string{f}
		} else {
			lines[len(lines)-1] += " " + f
		}
	}
	return append(lines, extra...)
}

// addNote records the description of a type that has no class and no field
// of its own (an array's items, a union member, an inlined $ref), labelled
// with the type.
func addNote(notes *[]string, label string, s *value) {
	lines := docLines(s, nil)
	if len(lines) == 0 {
		return
	}
	lines[0] = label + ": " + lines[0]
	*notes = append(*notes, lines...)
}

// unlabel drops the label of notes about t itself: a field's type needs no
// naming in the field's own doc.
func unlabel(notes []string, t string) []string {
	for i, n := range notes {
		notes[i] = strings.TrimPrefix(n, t+": ")
	}
	return notes
}

// writeDoc writes lines as --- comments.
func writeDoc(b *strings.Builder, lines []string) {
	for _, l := range lines {
		b.WriteString("---")
		if strings.HasPrefix(l, "@") {
			b.WriteByte('\\') // not an annotation tag
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
}

// writeField writes ---@field key type, with a one-line doc after it and a
// longer one on the lines above it (where LuaCATS reads a field's doc).
func writeField(b *strings.Builder, key string, optional bool, t string, lines []string) {
	writeFieldHead(b, key, optional, t, lines)
	b.WriteByte('\n')
}

// writeSchemaField writes the field for schema s: in one go when its doc
// is one line, the common case, else through docLines.
func writeSchemaField(b *strings.Builder, key string, optional bool, t string, s *value, notes []string) {
	desc, ok := oneLine(s.Text("description"))
	if !ok || len(notes) > 0 {
		writeField(b, key, optional, t, docLines(s, notes))
		return
	}
	writeFieldHead(b, key, optional, t, nil)
	if desc != "" {
		b.WriteByte(' ')
		b.WriteString(desc)
	}
	writeFacets(b, s, " ")
	b.WriteByte('\n')
}

// writeFieldHead writes a field up to the end of its line, without the
// line break.
func writeFieldHead(b *strings.Builder, key string, optional bool, t string, lines []string) {
	if len(lines) > 1 {
		writeDoc(b, lines)
	}
	b.WriteString("---@field ")
	b.WriteString(key)
	if optional {
		b.WriteByte('?')
	}
	b.WriteByte(' ')
	b.WriteString(t)
	if len(lines) == 1 {
		b.WriteByte(' ')
		b.WriteString(strings.TrimLeft(lines[0], " \t"))
	}
}

// lineBreaks turns every other line break into \n. A Replacer is safe for
// concurrent use and is never changed.
var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u2028", "\n", "\u2029", "\n", "\u0085", "\n")

// oneLine returns text made comment-safe if it is a single line.
func oneLine(text string) (string, bool) {
	if strings.IndexByte(text, '\n') >= 0 || hasOtherBreaks(text) {
		return "", false
	}
	return strings.Trim(escapeControls(text), " \t"), true
}

func hasOtherBreaks(text string) bool {
	return strings.IndexByte(text, '\r') >= 0 || strings.Contains(text, "\u2028") || strings.Contains(text, "\u2029") || strings.Contains(text, "\u0085")
}

// splitLines splits text at every line break a reader or Lua might see and
// makes each line safe inside a -- comment: only a line break can end one,
// so other control characters are escaped (\x1B) and trailing blanks
// dropped. Blank lines inside the text are kept, at its ends dropped.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	if hasOtherBreaks(text) {
		text = lineBreaks.Replace(text)
	}
	if l, ok := oneLine(text); ok {
		if l != "" {
			return []string{l}
		}
		return nil
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(escapeControls(l), " \t")
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func escapeControls(s string) string {
	clean := true
	for _, r := range s {
		if isControl(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			h := strings.ToUpper(strconv.FormatInt(int64(r), 16))
			if len(h) < 2 {
				h = "0" + h
			}
			b.WriteString(`\x` + h)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool {
	return r < 0x20 && r != '\t' || r >= 0x7f && r <= 0x9f || r == '\u2028' || r == '\u2029'
}

// writeJSON writes v back as compact JSON, for facet values.
func writeJSON(b *strings.Builder, v *value) {
	switch v.Kind {
	case 'o', 'a':
		open, closer := byte('{'), byte('}')
		if v.Kind == 'a' {
			open, closer = '[', ']'
		}
		b.WriteByte(open)
		for i, m := range v.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			if v.Kind == 'o' {
				jsontext.WriteString(b, m.Key)
				b.WriteByte(':')
			}
			writeJSON(b, m.Value)
		}
		b.WriteByte(closer)
	case 's':
		jsontext.WriteString(b, v.Str)
	case 'n':
		b.WriteString(v.Str)
	case 'b':
		b.WriteString(strconv.FormatBool(v.Bool))
	default:
		b.WriteString("null")
	}
}
