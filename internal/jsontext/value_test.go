package jsontext

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The hand-written parser must agree with encoding/json on what is JSON
// and on what a string decodes to.
func TestParseJSONAgreesWithEncodingJSON(t *testing.T) {
	inputs := []string{
		`"plain"`, `"esc \" \\ \/ \b \f \n \r \t"`, `"\u00e9\u4e2d"`, `"\ud83d\ude00"`,
		`"\ud83d"`, `"\ude00x"`, `"\ud83d\u0041"`, "\"bad utf8 \xff\"", "\"\xff\xfe run\"", "\"\\n\xff\xff\"",
		`-0`, `1.5e+10`, `1e`, `.5`, `-`, `01`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `[1 2]`,
		`tru`, `nul`, `{}`, `[]`, ` [ {} , [ ] ] `, `{"a":{"b":[null,true,false]}}`,
	}
	for _, in := range inputs {
		v, err := Parse(in)
		if valid := json.Valid([]byte(in)); valid != (err == nil) {
			t.Errorf("%q: json.Valid = %v, Parse err = %v", in, valid, err)
			continue
		}
		if err == nil && v.Kind == 's' {
			var want string
			if err := json.Unmarshal([]byte(in), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, v.Str); diff != "" {
				t.Errorf("%q (-encoding/json +Parse):\n%s", in, diff)
			}
		}
	}
}
