package jsontext

import (
	"io"
	"unicode/utf8"
)

// Writer is what both strings.Builder and bytes.Buffer are.
type Writer interface {
	io.ByteWriter
	io.StringWriter
}

const hex = "0123456789abcdef"

// WriteString writes s to w as a JSON string literal.
func WriteString(w Writer, s string) {
	w.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				w.WriteByte('\\')
				w.WriteByte(c)
			case c == '\n':
				w.WriteString(`\n`)
			case c == '\r':
				w.WriteString(`\r`)
			case c == '\t':
				w.WriteString(`\t`)
			case c < 0x20 || c == 0x7f:
				writeEscape(w, rune(c))
			default:
				w.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			w.WriteString(`\ufffd`)
		case r <= 0x9f || r == '\u2028' || r == '\u2029':
			writeEscape(w, r)
		default:
			w.WriteString(s[i : i+size])
		}
		i += size
	}
	w.WriteByte('"')
}

func writeEscape(w Writer, r rune) {
	w.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		w.WriteByte(hex[r>>shift&0xf])
	}
}
