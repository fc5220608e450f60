package execlua

import (
	"encoding/json"
	"testing"
	"time"
)

// ORCH-7: a returned table whose keys write the same JSON name is valid
// JSON in both modes: a string key keeps its name ({[1] = "int", ["1"] = "str"}
// is {"1":"str"}), and the text says how many keys were left out.
func TestResultKeysAreUnique(t *testing.T) {
	const oneLeft = "\n[1 key was left out of the return value: its table has another key of the same name in JSON (a string key keeps its name: {[1] = 1, [\"1\"] = 2} is {\"1\":2}).]"
	for _, tc := range []struct{ code, value, text string }{
		{`return {[1] = "int", ["1"] = "str"}`, `{"1":"str"}`, `{"1":"str"}` + oneLeft},
		{`return {[true] = 1, ["true"] = 2}, {[print] = 1, [type] = 2}`, `[{"true":2},{"<function>":1}]`,
			`[{"true":2},{"<function>":1}]` + "\n[2 keys were left out of the return value: their tables have other keys of the same names in JSON (a string key keeps its name: {[1] = 1, [\"1\"] = 2} is {\"1\":2}).]"},
		{`return {[1] = "a", [2] = "b", ["1"] = "c"}`, `{"1":"c","2":"b"}`, `{"1":"c","2":"b"}` + oneLeft},
		{`return {[1] = "a", ["x"] = "b"}`, `{"1":"a","x":"b"}`, `{"1":"a","x":"b"}`},
	} {
		t.Run(tc.code, func(t *testing.T) {
			bothModes(t, &fakeFunnel{}, builtins(), Limits{Budget: time.Minute}, func(t *testing.T, s *Session) {
				res := run(s, tc.code)
				if res.IsError || string(res.Value) != tc.value || res.Text != tc.text {
					t.Errorf("value %s, text %q (%v); want %s, %q", res.Value, res.Text, res.Err, tc.value, tc.text)
				}
				var decoded any
				if err := json.Unmarshal(res.Value, &decoded); err != nil {
					t.Errorf("value %s is not JSON: %v", res.Value, err)
				}
			})
		})
	}
}
