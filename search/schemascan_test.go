package search

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/execlua/execlua/internal/realpool"
)

// texts is what schemaTexts returns, name and description by property.
func texts(schema string) []string {
	var out []string
	var sc scanner
	for _, p := range sc.schemaTexts(json.RawMessage(schema)) {
		out = append(out, string(p.name), string(p.description))
	}
	return out
}

// decodedTexts is the same read by encoding/json alone.
func decodedTexts(schema string) []string {
	var out []string
	for _, p := range decodeProperties(json.RawMessage(schema)) {
		out = append(out, string(p.name), string(p.description))
	}
	return out
}

// scanSeeds are schemas the scanner reads itself and schemas it must
// leave to encoding/json (escapes, repeated or recased keys, nulls, bad
// JSON), each answered as encoding/json answers it.
var scanSeeds = []string{
	`{"type":"object","properties":{"b":{"type":"string","description":"The B."},"a":{"description":"The A.","enum":[1,-2.5e+3,true,null,{"x":[]}]}}}`,
	`{"properties":{"path":{"description":"A \"quoted\" path\nwith \u00e9"}}}`,
	`{"properties":{"x":{"description":"pairs \ud83d\ude80, lone \ud83d x \udc00, \ud83d\u0041, \\ \/ \b\f\r\t"}}}`,
	`{"properties":{"x":{"description":"one"},"x":{"description":"two"}}}`,
	`{"properties":{"x":{"description":"one","description":"two"}}}`,
	`{"properties":{"x":{"Description":"cased"}}}`,
	`{"Properties":{"x":{"description":"cased"}}}`,
	`{"properties":{"a":{}},"properties":{"b":{}}}`,
	`{"properties":{"x":null}}`, `{"properties":null}`, `{"properties":{"x":{"description":null}}}`,
	`{"properties":{"x":true}}`, `{"properties":{"x":{"description":7}}}`, `{"properties":[]}`,
	`{"properties":{"x":{"description":"bad utf-8 ` + "\xff" + `"}}}`,
	`{"properties":{"\u0078":{"description":"escaped name"}}}`, `{"properties":{"é":{}}}`,
	`{"properties":{"x":{}}} x`, `{"properties":{"x":{}},}`, `{"properties":{"x":{"d":01}}}`,
	`{"properties":{"x":{"d":1.}}}`, `{"properties":{"x":{"d":"a` + "\t" + `b"}}}`, `{"properties":{"x":{"d":"\q"}}}`,
	`{"properties":{"x":{"d":[1,]}}}`, `{"properties":{"x":{"d":tru}}}`, `[]`, `null`, `"s"`, ``, ` `, `{`,
	`{"properties":{"x":{"d":` + deep(150) + `}}}`,
}

func deep(n int) string {
	open, shut := make([]byte, n), make([]byte, n)
	for i := range n {
		open[i], shut[i] = '[', ']'
	}
	return string(open) + string(shut)
}

// The scanner reads every schema as encoding/json does: the seeds above
// and every schema of the real pool.
func TestSchemaTextsMatchDecoding(t *testing.T) {
	seeds := slices.Clone(scanSeeds)
	for _, tool := range realTools(t, realpool.Pool(realpool.Tools)) {
		seeds = append(seeds, string(tool.InputSchema))
	}
	scanned := 0
	for _, s := range seeds {
		if diff := cmp.Diff(decodedTexts(s), texts(s)); diff != "" {
			t.Errorf("schema %.120q (-encoding/json +schemaTexts):\n%s", s, diff)
		}
		if _, ok := (&scanner{}).scan([]byte(s)); ok {
			scanned++
		}
	}
	// The real schemas take the fast path.
	if scanned < realpool.Tools {
		t.Errorf("%d schemas scanned without encoding/json, want at least %d", scanned, realpool.Tools)
	}
}

// FuzzSchemaTexts: whatever the bytes, schemaTexts reads what
// encoding/json reads.
func FuzzSchemaTexts(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if diff := cmp.Diff(decodedTexts(s), texts(s)); diff != "" {
			t.Errorf("schema %q (-encoding/json +schemaTexts):\n%s", s, diff)
		}
	})
}
