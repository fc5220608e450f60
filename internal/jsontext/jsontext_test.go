package jsontext

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestWriteString(t *testing.T) {
	for in, want := range map[string]string{
		`plain <>&`:            `"plain <>&"`,
		"q\"b\\n\nr\rt\t":      `"q\"b\\n\nr\rt\t"`,
		"\x01\x1f\x7f":         `"\u0001\u001f\u007f"`,
		"é\u0085\u2028\u2029€": `"é\u0085\u2028\u2029€"`,
		"bad\xffbyte":          `"bad\ufffdbyte"`,
	} {
		var b strings.Builder
		WriteString(&b, in)
		if b.String() != want {
			t.Errorf("WriteString(%q) = %s, want %s", in, b.String(), want)
		}
		var back string
		if err := json.Unmarshal([]byte(b.String()), &back); err != nil {
			t.Errorf("%s is not valid JSON: %v", b.String(), err)
		}
	}
}
