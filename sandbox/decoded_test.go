package sandbox

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// A tool output handed over already decoded reaches the script as the
// same value as its JSON text, pairs order included; one that JSON cannot
// hold fails the call with the tool's name.
func TestDecodedOutput(t *testing.T) {
	const text = `{"id":7,"tags":["a",null,"c"],"owner":{"name":"x","admin":false},"none":null}`
	var decoded any
	if err := json.Unmarshal([]byte(text), &decoded); err != nil {
		t.Fatal(err)
	}
	const script = `local r = tools.t{}
local keys = {}
for k in pairs(r) do keys[#keys + 1] = k end
return { keys = table.concat(keys, ","), second = r.tags[2] == nil, n = #r.tags, value = r }`
	run := func(out Output) Outcome {
		req := Request{Code: script, Tools: NewToolset([]Tool{{Name: "t"}}), Funnel: answer(out)}
		return Run(context.Background(), req, nil)
	}
	// Sorted keys, as encoding/json writes a map: the host's JSON of the
	// same value.
	sorted, err := json.Marshal(decoded)
	if err != nil {
		t.Fatal(err)
	}
	want := run(Output{Structured: sorted})
	got := run(Output{Decoded: decoded})
	if want.Err != nil || got.Err != nil {
		t.Fatal(want.Err, got.Err)
	}
	if got.Result != want.Result {
		t.Errorf("decoded: %s\nJSON:    %s", got.Result, want.Result)
	}
	bad := run(Output{Decoded: map[string]any{"ch": make(chan int)}})
	if bad.Err == nil || !strings.Contains(bad.Err.Error(), "t: tool output cannot be converted") {
		t.Errorf("got %v, want the call to fail naming the tool", bad.Err)
	}
}
