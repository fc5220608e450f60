package execlua

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/execlua/execlua/host/preset"
	"github.com/execlua/execlua/pool"
	"github.com/execlua/execlua/sandbox"
	"github.com/execlua/execlua/search"
	"github.com/google/go-cmp/cmp"
)

// BC-1, SRCH-15: the description is pinned byte for byte.
func TestDescriptionGolden(t *testing.T) {
	golden(t, "exec_description.txt", Description())
}

// SRCH-12, SRCH-15, ANN-8: ToolSearch's own signature, rendered from the
// schema the sandbox validates against, is in the description once, and
// the description says the announced list holds names only and that
// parameters come from ToolSearch.
func TestDescriptionTeachesToolSearch(t *testing.T) {
	d := Description()
	if n := strings.Count(d, search.Signature()); n != 1 {
		t.Errorf("search.Signature() appears %d times in the description, want 1", n)
	}
	for _, want := range []string{
		"names only",
		"tools.ToolSearch",
		`"select:<name>,<name>"`,
		"tools.<name>{",
		`tools["<name>"]{`,
		"tools.parallel(f1, f2, ...)",
		"pcall",
		"print(",
		"return",
		"structured output as a Lua table",
		"else its text",
		"else nil",
		"same permission checks and hooks",
		"no files, no network, no modules",
		"no load or loadstring",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("the description does not contain %q", want)
		}
	}
}

// BC-1, ANN-5: outside ToolSearch's signature (whose default and maximum
// are the model's own knob) the description carries no figure at all, so
// no budget or limit; and none of the sandbox's defaults appears anywhere.
func TestDescriptionHasNoBudgets(t *testing.T) {
	d := Description()
	rest := strings.ReplaceAll(strings.Replace(d, search.Signature(), "", 1), "Lua 5.1", "Lua")
	for _, known := range []string{"(f1, f2, ...)", "matches[1]"} {
		rest = strings.ReplaceAll(rest, known, "")
	}
	if i := strings.IndexFunc(rest, unicode.IsDigit); i >= 0 {
		t.Errorf("a figure in the description: %q", rest[max(0, i-40):min(len(rest), i+40)])
	}
	for _, figure := range []string{
		sandbox.DefaultBudget.String(), "60 s", "60s", "8000", "8,000", "100000", "100,000",
		"budget", "timeout", "Budget",
	} {
		if strings.Contains(d, figure) {
			t.Errorf("the description mentions %q", figure)
		}
	}
}

// BC-1, ANN-6, POOL-8: Exec's declaration in tools[] is the same bytes for
// every pool, every set of limits and every setting that keeps it
// declared, and names no pool tool.
func TestDescriptionIndependentOfPool(t *testing.T) {
	want, err := json.Marshal(Declaration())
	if err != nil {
		t.Fatal(err)
	}
	sessions := []struct {
		name string
		opts Options
	}{
		{"builtins only", Options{Tools: builtins()}},
		{"github connected", Options{Tools: with(builtins(), githubTools())}},
		{"only mcp", Options{Tools: githubTools()}},
		{"preset builtins", Options{Tools: preset.Builtins(), Exempt: preset.Exempt()}},
		{"odd names", Options{Tools: []pool.Tool{mcpTool("a__b", "c.d-e"), mcpTool("srv", "get-item"), mcpTool("srv", "fetch")}}},
		{"other limits", Options{Tools: builtins(), Limits: sandbox.Options{Budget: 1, MaxCalls: 3, MaxLogChars: 10}}},
		{"non-deferred list", Options{Tools: builtins(), Settings: Settings{Local: Layer{NonDeferred: []string{"TaskCreate"}}}}},
	}
	for _, sc := range sessions {
		s := newSession(t, &fakeFunnel{}, &sc.opts)
		r := s.Request(nil)
		if len(r.Tools) == 0 || r.Tools[0].Name != Name {
			t.Fatalf("%s: Exec is not declared first: %v", sc.name, declNames(r.Tools))
		}
		got, err := json.Marshal(r.Tools[0])
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s: Exec's declaration (-want +got):\n%s", sc.name, diff)
		}
		for _, name := range r.Assembly.PoolNames() {
			if strings.Contains(r.Tools[0].Description, name) {
				t.Errorf("%s: the description names pool tool %s", sc.name, name)
			}
		}
	}
}

func TestInputSchema(t *testing.T) {
	var schema struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal([]byte(InputSchema), &schema); err != nil {
		t.Fatal(err)
	}
	var props []string
	for p := range schema.Properties {
		props = append(props, p)
	}
	got := fmt.Sprint(schema.Type, " ", len(props), " ", schema.Required, " ", schema.Properties["code"] != nil, " ", schema.Properties["description"] != nil)
	if diff := cmp.Diff("object 2 [code] true true", got); diff != "" {
		t.Errorf("input schema (-want +got):\n%s", diff)
	}
}

// Non-functional: Exec is not marked concurrency-safe.
func TestNotConcurrencySafe(t *testing.T) {
	if ConcurrencySafe {
		t.Error("Exec must not be marked concurrency-safe")
	}
}

// Edge case "missing or blank code": a parameter error, and no sandbox
// starts (a started sandbox would have answered a blank script with the
// no-output sentence, and a script would have reached the funnel).
func TestInvalidInput(t *testing.T) {
	f := &fakeFunnel{}
	s := newSession(t, f, &Options{Tools: builtins()})
	for _, tc := range []struct{ input, want string }{
		{`{}`, "Invalid Exec input: code is missing; pass the Lua script to run as code."},
		{`{"description":"x"}`, "Invalid Exec input: code is missing; pass the Lua script to run as code."},
		{`{"code":null}`, "Invalid Exec input: code is missing; pass the Lua script to run as code."},
		{`null`, "Invalid Exec input: code is missing; pass the Lua script to run as code."},
		{`{"code":""}`, "Invalid Exec input: code is blank; pass the Lua script to run as code."},
		{`{"code":" \n\t "}`, "Invalid Exec input: code is blank; pass the Lua script to run as code."},
		{`{"code":42}`, "Invalid Exec input: code must be a string."},
		{`{"code":"return 1","description":["x"]}`, "Invalid Exec input: description must be a string."},
		{`{"code":`, `Invalid Exec input: the input must be a JSON object like {"code": "return 1"}.`},
		{`["return 1"]`, `Invalid Exec input: the input must be a JSON object like {"code": "return 1"}.`},
		{``, `Invalid Exec input: the input must be a JSON object like {"code": "return 1"}.`},
	} {
		_, perr := ParseInput(json.RawMessage(tc.input))
		if !errors.Is(perr, ErrInvalidInput) {
			t.Errorf("ParseInput(%s) = %v, want ErrInvalidInput", tc.input, perr)
		}
		res := s.Run(t.Context(), json.RawMessage(tc.input), nil)
		got := Result{Text: res.Text, IsError: res.IsError, Summary: res.Summary}
		want := Result{Text: tc.want, IsError: true, Summary: "failed"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Run(%s) (-want +got):\n%s", tc.input, diff)
		}
		if !errors.Is(res.Err, ErrInvalidInput) {
			t.Errorf("Run(%s).Err = %v, want ErrInvalidInput", tc.input, res.Err)
		}
	}
	if got := f.reached(); len(got) != 0 {
		t.Errorf("calls reached the funnel: %v", got)
	}
}

func TestParseInput(t *testing.T) {
	got, err := ParseInput(json.RawMessage(`{"code":"return 1","description":"add things","extra":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Input{Code: "return 1", Description: "add things"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// SUM-8: the collapsed line shows the model's description, never the
// script, whatever state the input is in.
func TestCollapsedLine(t *testing.T) {
	for _, tc := range []struct{ input, want string }{
		{`{"code":"local secret = 1\nreturn secret"}`, "Exec"},
		{`{"code":"return 1","description":"List open issues"}`, "Exec(List open issues)"},
		{`{"code":"return 1","description":"  two\nlines  "}`, "Exec(two lines)"},
		{`{"description":"streaming, no code yet"}`, "Exec(streaming, no code yet)"},
		{`{"code":"return 1","description":"   "}`, "Exec"},
		{`{"code":`, "Exec"},
		{`{"code":"x","description":7}`, "Exec"},
	} {
		if got := CollapsedLine(json.RawMessage(tc.input)); got != tc.want {
			t.Errorf("CollapsedLine(%s) = %q, want %q", tc.input, got, tc.want)
		}
		if got := CollapsedLine(json.RawMessage(tc.input)); strings.Contains(got, "return") || strings.Contains(got, "secret") {
			t.Errorf("CollapsedLine(%s) shows the script: %q", tc.input, got)
		}
	}
}
