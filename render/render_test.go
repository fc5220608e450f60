package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/execlua/execlua/internal/golden"
	"github.com/google/go-cmp/cmp"
	"github.com/yuin/gopher-lua/parse"

	"github.com/execlua/execlua/internal/jsontext"
)

// fixture is a tools/list result, the shape MCP servers publish.
type fixture struct {
	Tools []struct {
		Name         string          `json:"name"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
	} `json:"tools"`
}

func readFixture(t testing.TB, path string) fixture {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f fixture
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f
}

// TestGolden renders every tool of every fixture in testdata/schemas and
// compares with the .golden.lua file next to it (go test -update rewrites
// them). Each signature must be Lua that gopher-lua parses, with every line
// but the definition a comment.
func TestGolden(t *testing.T) {
	paths, err := filepath.Glob("../testdata/schemas/*.json")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			var b strings.Builder
			for i, tool := range readFixture(t, path).Tools {
				sig, err := Signature(tool.Name, tool.InputSchema, tool.OutputSchema)
				if err != nil {
					t.Fatalf("%s: %v", tool.Name, err)
				}
				checkLua(t, tool.Name, sig)
				if i > 0 {
					b.WriteString("\n")
				}
				b.WriteString(sig)
			}
			goldenPath := strings.TrimSuffix(path, ".json") + ".golden.lua"
			golden.Check(t, goldenPath, b.String())
			want, err := os.ReadFile(goldenPath)
			if err != nil {
				t.Fatal(err)
			}
			checkLua(t, goldenPath, string(want))
		})
	}
}

// checkLua fails unless sig parses as Lua, and is comments and blank lines
// followed by function definitions only: nothing in a description or a name
// may escape into code.
func checkLua(t *testing.T, name, sig string) {
	t.Helper()
	chunk, err := parse.Parse(strings.NewReader(sig), name)
	if err != nil {
		t.Errorf("%s: not valid Lua: %v\n%s", name, err, sig)
		return
	}
	defs := 0
	for _, line := range strings.Split(strings.TrimSuffix(sig, "\n"), "\n") {
		switch {
		case line == "" || strings.HasPrefix(line, "---"):
		case strings.HasPrefix(line, "function tools.") || strings.HasPrefix(line, "tools["):
			defs++
		default:
			t.Errorf("%s: line is neither a comment nor a definition: %q", name, line)
		}
	}
	if len(chunk) != defs {
		t.Errorf("%s: %d statements for %d definitions", name, len(chunk), defs)
	}
}

func TestSignature(t *testing.T) {
	tests := []struct {
		name, tool, in, out string
		want                []string // lines the signature must contain
	}{
		{
			name: "missing outputSchema is any",
			tool: "t", in: `{"type":"object","properties":{"a":{"type":"string"}}}`,
			want: []string{"---@return any"},
		},
		{
			name: "outputSchema type object is an empty table, nothing invented",
			tool: "t", in: `{}`, out: `{"type":"object"}`,
			want: []string{"---@param args? {}", "---@return {}"},
		},
		{
			name: "empty inputSchema is an optional empty table",
			tool: "t",
			want: []string{"---@param args? {}"},
		},
		{
			name: "required members make args required",
			tool: "t", in: `{"properties":{"a":{"type":"string","description":"A."}},"required":["a"]}`,
			want: []string{"---@field a string A.", "---@param args t.Args"},
		},
		{
			name: "an object with nothing to document is an inline table",
			tool: "mcp__srv__fetch",
			in:   `{"type":"object","properties":{"id":{"type":"integer"},"mode":{"enum":["fast","slow"]}},"required":["id"]}`,
			out:  `{"type":"object","properties":{"value":{"type":"string"}},"required":["value"]}`,
			want: []string{
				`---@param args { id: integer, mode?: "fast"|"slow" }`,
				`---@return { value: string }`,
				`function tools.mcp__srv__fetch(args) end`,
			},
		},
		{
			name: "a long inline table becomes a class",
			tool: "t", in: `{"properties":{"first_name":{"type":"string"},"last_name":{"type":"string"},"street_address":{"type":"string"},"postal_code":{"type":"string"}}}`,
			want: []string{"---@class t.Args", "---@field postal_code? string", "---@param args? t.Args"},
		},
		{
			name: "recursive $ref is a named class",
			tool: "t", in: `{"properties":{"n":{"$ref":"#/$defs/N"}},"$defs":{"N":{"type":"object","properties":{"next":{"$ref":"#/$defs/N"}}}}}`,
			want: []string{"---@field n? t.N", "---@class t.N", "---@field next? t.N"},
		},
		{
			name: "recursive non-object $ref is any",
			tool: "t", in: `{"properties":{"v":{"$ref":"#/$defs/V"}},"$defs":{"V":{"anyOf":[{"type":"string"},{"type":"array","items":{"$ref":"#/$defs/V"}}]}}}`,
			want: []string{"---@field v? string|any[]"},
		},
		{
			name: "nesting deeper than MaxDepth is any",
			tool: "t", in: nested(MaxDepth+2, `,"description":"d"`),
			want: []string{"---@field l8? t.Args.l1.l2.l3.l4.l5.l6.l7.l8 d", "---@field l9? any d"},
		},
		{
			name: "nesting deeper than MaxDepth is any, inline",
			tool: "t", in: nested(MaxDepth+2, ""),
			want: []string{"---@field l1? { l2?: { l3?: { l4?: { l5?: { l6?: { l7?: { l8?: { l9?: any } } } } } } } }"},
		},
		{
			name: "non-identifier tool and field names",
			tool: "mcp__srv__get-item", in: `{"properties":{"field-name":{"type":"string","description":"d"},"end":{"type":"string"}},"required":["end"]}`,
			want: []string{`---@field ["field-name"]? string d`, `---@field ["end"] string`, `tools["mcp__srv__get-item"] = function(args) end`},
		},
		{
			name: "non-identifier field names, inline",
			tool: "t", in: `{"properties":{"field-name":{"type":"string"},"end":{"type":"string"}},"required":["end"]}`,
			want: []string{`---@param args { ["field-name"]?: string, ["end"]: string }`},
		},
		{
			name: "facets stay visible",
			tool: "t", in: `{"properties":{"n":{"type":"integer","description":"Count","default":5,"minimum":1,"maximum":50,"deprecated":true},"s":{"type":"string","format":"uri","minLength":1,"maxLength":9,"pattern":"^h"}}}`,
			want: []string{
				"---@field n? integer Count (deprecated, default: 5, minimum: 1, maximum: 50)",
				"---@field s? string (format: uri, minLength: 1, maxLength: 9, pattern: ^h)",
			},
		},
		{
			name: "multi-line description in full above the field",
			tool: "t", in: `{"properties":{"a":{"type":"string","description":"one\ntwo ]] --[[\n\nfour"}}}`,
			want: []string{"---one\n---two ]] --[[\n---\n---four\n---@field a? string"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sig, err := Signature(tt.tool, json.RawMessage(tt.in), json.RawMessage(tt.out))
			if err != nil {
				t.Fatal(err)
			}
			checkLua(t, tt.tool, sig)
			for _, w := range tt.want {
				if !strings.Contains(sig, w+"\n") {
					t.Errorf("signature lacks %q:\n%s", w, sig)
				}
			}
		})
	}
}

// A chain of definitions each using the next twice must not expand
// exponentially.
func TestRefFanOut(t *testing.T) {
	var defs []string
	for i := range 60 {
		next := `{"$ref":"#/$defs/d` + strconv.Itoa(i+1) + `"}`
		defs = append(defs, `"d`+strconv.Itoa(i)+`":{"anyOf":[`+next+`,`+next+`,{"type":"string","description":"level `+strconv.Itoa(i)+`"}]}`)
	}
	defs = append(defs, `"d60":{"type":"integer"}`)
	in := `{"properties":{"v":{"$ref":"#/$defs/d0"}},"$defs":{` + strings.Join(defs, ",") + `}}`
	sig, err := Signature("t", json.RawMessage(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	checkLua(t, "fan-out", sig)
	if _, err := Type(json.RawMessage(in)); err != nil {
		t.Fatal(err)
	}
}

// nested returns objects nested levels deep, each member with extra
// keywords (e.g. a description).
func nested(levels int, extra string) string {
	s := `{"type":"string"` + extra + `}`
	for i := levels; i >= 1; i-- {
		s = `{"type":"object"` + extra + `,"properties":{"l` + string(rune('0'+i%10)) + `":` + s + `}}`
	}
	return s
}

// SRCH-14: builtins and MCP tools render the same way; only the name, and
// whether it needs brackets, differ.
func TestSignatureIgnoresKind(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"url":{"type":"string","description":"Where"}},"required":["url"]}`)
	builtin, err := Signature("WebFetch", schema, nil)
	if err != nil {
		t.Fatal(err)
	}
	mcp, err := Signature("mcp__web__WebFetch", schema, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(builtin, strings.ReplaceAll(mcp, "mcp__web__WebFetch", "WebFetch")); diff != "" {
		t.Errorf("(-builtin +mcp):\n%s", diff)
	}
}

// SRCH-14: identifiers use tools.name, everything else tools["name"].
func TestCallForm(t *testing.T) {
	tests := map[string]string{
		"Read":                   `tools.Read`,
		"mcp__srv__fetch":        `tools.mcp__srv__fetch`,
		"_x9":                    `tools._x9`,
		"mcp__srv__get-item":     `tools["mcp__srv__get-item"]`,
		"mcp__a__b.c":            `tools["mcp__a__b.c"]`,
		"end":                    `tools["end"]`,
		"goto":                   `tools["goto"]`,
		"9lives":                 `tools["9lives"]`,
		"café":                   `tools["café"]`,
		"say \"hi\"\\\n\x00\x7f": `tools["say \"hi\"\\\n\000\127"]`,
		"":                       `tools[""]`,
	}
	for name, want := range tests {
		if got := CallForm(name); got != want {
			t.Errorf("CallForm(%q) = %s, want %s", name, got, want)
		}
		// The call form must be an expression Lua accepts.
		if _, err := parse.Parse(strings.NewReader("local f = "+CallForm(name)), name); err != nil {
			t.Errorf("CallForm(%q) does not parse: %v", name, err)
		}
	}
}

func TestType(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"type":"object","properties":{"query":{"type":"string"},"max_results":{"type":"number"}},"required":["query"]}`, `{ query: string, max_results?: number }`},
		{`{"type":"object","properties":{"id":{"type":"integer"},"mode":{"enum":["fast","slow"]}},"required":["id"]}`, `{ id: integer, mode?: "fast"|"slow" }`},
		{`{"type":"array","items":{"type":["string","null"]}}`, `(string|nil)[]`},
		{`{"type":"object"}`, `{}`},
		{`{"additionalProperties":{"type":"integer"}}`, `table<string, integer>`},
		{`{"properties":{"n":{"$ref":"#"}}}`, `{ n?: any }`},
		{`true`, `any`},
		{``, `any`},
	}
	for _, tt := range tests {
		got, err := Type(json.RawMessage(tt.in))
		if err != nil {
			t.Errorf("Type(%s): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Type(%s) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestInvalidSchema(t *testing.T) {
	tests := []struct {
		name, in, out, which string
	}{
		{"truncated", `{"type":"object"`, ``, "input"},
		{"trailing data", `{} x`, ``, "input"},
		{"not a schema", `[]`, ``, "input"},
		{"string", `"object"`, ``, "input"},
		{"null", `null`, ``, "input"},
		{"bad escape", `{"description":"\q"}`, ``, "input"},
		{"control character", "{\"description\":\"a\x01\"}", ``, "input"},
		{"bad number", `{"minimum":01}`, ``, "input"},
		{"too deep", strings.Repeat("[", jsontext.MaxNesting+1), ``, "input"},
		{"bad output", `{}`, `{"type":`, "output"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Signature("t", json.RawMessage(tt.in), json.RawMessage(tt.out))
			if !errors.Is(err, ErrInvalidSchema) {
				t.Fatalf("err = %v, want ErrInvalidSchema", err)
			}
			var se *SchemaError
			if !errors.As(err, &se) || se.Schema != tt.which {
				t.Fatalf("err = %#v, want a SchemaError for the %s schema", err, tt.which)
			}
		})
	}
}

func FuzzSignature(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"type":"string","description":"x\ny"}}}`, `{"type":"object"}`, "mcp__s__t")
	f.Add(`{"properties":{"n":{"$ref":"#"}},"allOf":[{"$ref":"#"}]}`, ``, "a-b")
	f.Add(`{"anyOf":[{"enum":["\n","]]"]},{"const":null}]}`, `true`, "end")
	f.Fuzz(func(t *testing.T, in, out, name string) {
		sig, err := Signature(name, json.RawMessage(in), json.RawMessage(out))
		if err != nil {
			if !errors.Is(err, ErrInvalidSchema) {
				t.Fatalf("error not ErrInvalidSchema: %v", err)
			}
			return
		}
		checkLua(t, "fuzz", sig)
	})
}

// Rendering one wide schema: GitHub's repository settings, 31 fields,
// about 6.5 kB.
func BenchmarkSignatureWide(b *testing.B) {
	for _, tool := range readFixture(b, "../testdata/schemas/github.json").Tools {
		if tool.Name != "mcp__github__update_repository" {
			continue
		}
		// Schemas arrive compact over JSON-RPC, not indented as in the file.
		var in bytes.Buffer
		if err := json.Compact(&in, tool.InputSchema); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(in.Len()))
		for b.Loop() {
			if _, err := Signature(tool.Name, in.Bytes(), nil); err != nil {
				b.Fatal(err)
			}
		}
		return
	}
	b.Fatal("wide fixture not found")
}
