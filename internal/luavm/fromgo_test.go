package luavm

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	glua "github.com/yuin/gopher-lua"
)

// fromGo is FromJSON's reference in FuzzFromJSON: encoding/json's own
// decoding, converted by FromGo, must give the same value (an error shows
// as a string, which differs from it).
func fromGo(L *glua.LState, v any) glua.LValue {
	lv, err := FromGo(L, v)
	if err != nil {
		return glua.LString(err.Error())
	}
	return lv
}

// pairsOrder lists a table's keys as pairs walks them, nested tables
// included, so that iteration order is compared too.
func pairsOrder(v glua.LValue) string {
	t, ok := v.(*glua.LTable)
	if !ok {
		return ""
	}
	var b strings.Builder
	for k, v := t.Next(glua.LNil); k != glua.LNil; k, v = t.Next(k) {
		b.WriteString(k.String() + "(" + pairsOrder(v) + ")")
	}
	return b.String()
}

// A tool output already decoded into Go values becomes the same Lua value
// as its JSON text, iteration order included; Go's other number types are
// numbers, other values go through their JSON encoding.
func TestFromGo(t *testing.T) {
	s := New(nil)
	defer s.Close()
	for _, tc := range []struct {
		name string
		in   any
		json string
	}{
		{"decoded", map[string]any{"b": []any{1.5, nil, "x", true}, "a": map[string]any{"z": nil, "y": false}, "c": nil},
			`{"a":{"y":false,"z":null},"b":[1.5,null,"x",true],"c":null}`},
		{"numbers", []any{json.Number("12"), json.Number("-0.5e3"), 3, int64(1) << 53, int32(-7), uint(8), uint64(9), uint32(10), float32(0.25)},
			`[12,-0.5e3,3,9007199254740992,-7,8,9,10,0.25]`},
		{"scalars", "text", `"text"`},
		{"null", nil, `null`},
		{"typed", struct {
			A []string          `json:"a"`
			B map[string]int    `json:"b"`
			C *struct{ D bool } `json:"c"`
		}{A: []string{"p", "q"}, B: map[string]int{"k": 1}},
			`{"a":["p","q"],"b":{"k":1},"c":null}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := FromJSON(s.L, []byte(tc.json))
			if err != nil {
				t.Fatal(err)
			}
			got, err := FromGo(s.L, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := renderJSON(s, got), renderJSON(s, want); g != w {
				t.Errorf("got %s, want %s", g, w)
			}
			if g, w := pairsOrder(got), pairsOrder(want); g != w {
				t.Errorf("pairs order %s, want %s", g, w)
			}
		})
	}
}

// Decoded values follow FromJSON's faithful rules (class 8): a nil element
// keeps its place as tools.null, and empty arrays and objects go back out
// as they came.
func TestFromGoFaithful(t *testing.T) {
	s := New(nil)
	defer s.Close()
	got, err := FromGo(s.L, []any{nil, []any{}, map[string]any{}, "x"})
	if err != nil {
		t.Fatal(err)
	}
	if g, w := renderJSON(s, got), `[null,[],{},"x"]`; g != w {
		t.Errorf("rendered %s, want %s", g, w)
	}
	if n := got.(*glua.LTable).Len(); n != 4 {
		t.Errorf("# is %d, want 4", n)
	}
}

// What JSON cannot hold is refused, as encoding/json refuses it.
func TestFromGoRefuses(t *testing.T) {
	s := New(nil)
	defer s.Close()
	loop := map[string]any{}
	loop["self"] = loop
	for name, in := range map[string]any{
		"NaN":           math.NaN(),
		"infinity":      []any{float32(math.Inf(1))},
		"bad number":    json.Number("1x"),
		"channel":       map[string]any{"c": make(chan int)},
		"a cycle":       loop,
		"function":      func() {},
		"non-JSON num":  json.Number("0x10"),
		"in a sequence": []any{map[string]any{"f": func() {}}},
	} {
		if v, err := FromGo(s.L, in); err == nil {
			t.Errorf("%s: converted to %s, want an error", name, renderJSON(s, v))
		}
	}
}

// A repeated key's last value wins and keeps the key's first place, also
// when a null took the field out in between; pairs sees each field once.
func TestFromJSONRepeatedKeys(t *testing.T) {
	s := New(nil)
	defer s.Close()
	for in, want := range map[string]string{
		`{"a":1,"b":2,"a":3}`:                   "a()b()",
		`{"a":1,"b":2,"a":null,"c":4,"a":5}`:    "a()b()c()",
		`{"a":null,"b":{"x":1,"x":null},"c":1}`: "b()c()",
		`{"a":1,"a":null}`:                      "",
	} {
		v, err := FromJSON(s.L, []byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if got := pairsOrder(v); got != want {
			t.Errorf("%s: pairs walks %s, want %s", in, got, want)
		}
		var ref any
		if err := json.Unmarshal([]byte(in), &ref); err != nil {
			t.Fatal(err)
		}
		if got, want := renderJSON(s, v), renderJSON(s, fromGo(s.L, ref)); got != want {
			t.Errorf("%s: FromJSON gives %s, FromGo %s", in, got, want)
		}
	}
}

// FromJSON reads the output in place: what the values keep of it (long
// strings, long keys, a string with escapes next to them) is copied, so
// that the host may reuse its buffer once the call is collected.
func TestFromJSONKeepsNothingOfTheBuffer(t *testing.T) {
	s := New(nil)
	defer s.Close()
	long := strings.Repeat("k", maxBoxedKey+1)
	in := `{"short":"a string longer than sixteen bytes","` + long + `":"v","esc":"a\"b","n":12}`
	raw := []byte(in)
	v, err := FromJSON(s.L, raw)
	if err != nil {
		t.Fatal(err)
	}
	want := renderJSON(s, v)
	for i := range raw {
		raw[i] = 'X'
	}
	// Field by field first: keys changed under a table's maps would
	// make walking it loop.
	tbl := v.(*glua.LTable)
	for key, value := range map[string]string{"short": "a string longer than sixteen bytes", long: "v", "esc": `a"b`} {
		if got := tbl.RawGetString(key); got != glua.LString(value) {
			t.Fatalf("after the buffer changed, field %.8s... reads %v", key, got)
		}
	}
	if got := renderJSON(s, v); got != want {
		t.Errorf("after the buffer changed the value reads %s, want %s", got, want)
	}
}

// A state's decoder keeps its scratch from one output to the next but none
// of the values: after a large document, every slot it grew to is empty
// again (so the values can be collected), and cleared as it was popped,
// so that the next small output does not pay for clearing it.
func TestDecoderScratchHoldsNothing(t *testing.T) {
	s := New(nil)
	defer s.Close()
	big := "[" + strings.Repeat(`{"a":"x","b":[1,2]},`, 1000) + `{"a":"x"}]`
	if _, err := s.FromJSON(s.L, []byte(big)); err != nil {
		t.Fatal(err)
	}
	members := s.decoder.members
	if cap(members) < 1000 {
		t.Fatalf("the scratch was not kept: capacity %d", cap(members))
	}
	if len(members) != 0 {
		t.Errorf("the scratch holds %d members after the document", len(members))
	}
	for i, m := range members[:cap(members)] {
		if m != (decoded{}) {
			t.Fatalf("slot %d of the scratch still holds %q = %v", i, m.key, m.value)
		}
	}
	// A document that fails half way leaves its stack cleared too.
	if _, err := s.FromJSON(s.L, []byte(`[{"a":1},{"b":2},`)); err == nil {
		t.Fatal("a truncated document was read")
	}
	for i, m := range s.decoder.members[:cap(s.decoder.members)] {
		if m != (decoded{}) {
			t.Fatalf("after a refusal, slot %d still holds %q = %v", i, m.key, m.value)
		}
	}
}
