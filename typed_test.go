package execlua_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/render"
)

type base struct {
	Env string `json:"env" jsonschema:"the environment"`
}

type item struct {
	ID   int      `json:"id"`
	Tags []string `json:"tags,omitempty" enum:"red,green"`
}

type deployIn struct {
	base
	Service string            `json:"service" jsonschema:"which service" enum:"api,web"`
	Items   []item            `json:"items,omitempty"`
	Labels  map[string]string `json:"labels,omitempty"`
	Replica *int              `json:"replica,omitempty"`
	At      time.Time         `json:"at,omitzero"`
	Level   int               `json:"level,omitempty" enum:"1,2,3"`
	secret  string
}

type deployOut struct {
	Service string `json:"service"`
	Count   int    `json:"count"`
}

func deploy(_ context.Context, in deployIn) (deployOut, error) {
	return deployOut{Service: in.Env + "/" + in.Service, Count: len(in.Items)}, nil
}

func newGoTools(t *testing.T, tools ...execlua.GoTool) *execlua.GoTools {
	t.Helper()
	g, err := execlua.NewGoTools(tools...)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The derived input schema carries names, descriptions, required members,
// enums, nested and embedded structs, slices, maps, pointers and times.
func TestFuncDerivesSchemas(t *testing.T) {
	tool := execlua.Func("deploy", "Deploy a service.", deploy)
	var in map[string]any
	if err := json.Unmarshal(tool.Tool.InputSchema, &in); err != nil {
		t.Fatal(err)
	}
	props := in["properties"].(map[string]any)
	want := map[string]any{
		"env":     map[string]any{"type": "string", "description": "the environment"},
		"service": map[string]any{"type": "string", "description": "which service", "enum": []any{"api", "web"}},
		"labels":  map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
		"replica": map[string]any{"type": []any{"null", "integer"}},
		"at":      map[string]any{"type": "string"},
		"level":   map[string]any{"type": "integer", "enum": []any{1.0, 2.0, 3.0}},
		"items": map[string]any{"type": []any{"null", "array"}, "items": map[string]any{
			"type": "object", "additionalProperties": false, "required": []any{"id"},
			"properties": map[string]any{
				"id":   map[string]any{"type": "integer"},
				"tags": map[string]any{"type": []any{"null", "array"}, "items": map[string]any{"type": "string", "enum": []any{"red", "green"}}},
			}}},
	}
	if diff := cmp.Diff(want, props); diff != "" {
		t.Errorf("properties (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]any{"env", "service"}, in["required"]); diff != "" {
		t.Errorf("required (-want +got):\n%s", diff)
	}
	if in["additionalProperties"] != false {
		t.Errorf("a struct must take no other members: %v", in["additionalProperties"])
	}
	sig, err := render.Signature("deploy", tool.Tool.InputSchema, tool.Tool.OutputSchema)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{`"api"|"web"`, "---@return", "count", "function tools.deploy"} {
		if !strings.Contains(sig, part) {
			t.Errorf("signature lacks %q:\n%s", part, sig)
		}
	}
	if strings.Contains(sig, "---@return any") {
		t.Errorf("a Go tool's result has a type, got:\n%s", sig)
	}
}

func TestFuncRefusesTypesWithoutSchema(t *testing.T) {
	_, err := execlua.NewGoTools(
		execlua.Func("chan", "", func(context.Context, struct{ C chan int }) (string, error) { return "", nil }),
		execlua.Func("scalar", "", func(context.Context, int) (string, error) { return "", nil }),
		execlua.Func("badenum", "", func(context.Context, struct {
			N int `json:"n" enum:"one"`
		}) (string, error) {
			return "", nil
		}),
	)
	for _, want := range []string{"Go tool chan", "Go tool scalar: its input type int must be a struct", `enum value "one" is not a number`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("NewGoTools error %v, want one with %q", err, want)
		}
	}
	_, err = execlua.NewGoTools(execlua.Func("deploy", "", deploy), execlua.Func("deploy", "", deploy))
	if !errors.Is(err, execlua.ErrDuplicateName) {
		t.Errorf("a repeated name: %v, want ErrDuplicateName", err)
	}
}

// Arguments are checked against the schema before the function runs, and
// every bad place is named with its path.
func TestGoToolsRefuseBadArguments(t *testing.T) {
	called := 0
	g := newGoTools(t, execlua.Func("deploy", "", func(ctx context.Context, in deployIn) (deployOut, error) {
		called++
		return deploy(ctx, in)
	}))
	for _, c := range []struct{ args, want string }{
		{`{"env":"prod","service":"api","items":[{"id":1},{"id":"2"}]}`, "args.items[2].id: want integer, got string"},
		{`{"service":"api"}`, "args.env: required, missing"},
		{`{"env":"prod","service":"db"}`, `args.service: want one of "api", "web", got "db"`},
		{`{"env":"prod","service":"api","colour":1}`, "args.colour: not a parameter (it takes env, service, items, labels, replica, at, level)"},
		{`{"env":"prod","service":"api","items":[{"id":1,"tags":["blue"]}]}`, `args.items[1].tags[1]: want one of "red", "green", got "blue"`},
		{`{"env":"prod","service":"api","labels":{"a-b":3}}`, `args.labels["a-b"]: want string, got integer`},
		{`{"env":"prod","service":"api","level":1.5}`, "args.level: want integer, got number 1.5"},
		{`{"env":"prod","service":"api","at":"yesterday"}`, "args: parsing time"},
	} {
		_, err := g.Call(context.Background(), execlua.Call{Name: "deploy", Args: json.RawMessage(c.args)})
		var argErr *execlua.ArgumentsError
		if !errors.As(err, &argErr) || !errors.Is(err, execlua.ErrInvalidArguments) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want an ArgumentsError with %q", c.args, err, c.want)
		}
	}
	if called != 0 {
		t.Errorf("the function ran %d times on bad arguments", called)
	}
	out, err := g.Call(context.Background(), execlua.Call{Name: "deploy", Args: json.RawMessage(`{"env":"prod","service":"web","items":[{"id":1}],"replica":null,"at":"2026-01-02T03:04:05Z"}`)})
	if err != nil || string(out.Structured) != `{"service":"prod/web","count":1}` {
		t.Errorf("a good call: %s, %v", out.Structured, err)
	}
	if _, err := g.Call(context.Background(), execlua.Call{Name: "other"}); !errors.Is(err, execlua.ErrNotGoTool) {
		t.Errorf("an unknown name: %v, want ErrNotGoTool", err)
	}
}

// Go hooks and a permission step wrap the Go tools: a denial and a hook's
// refusal stop the call before the function, a hook's updated input is
// checked against the schema like the model's, and Post hooks see the
// output (HOOK-2, HOOK-3).
func TestGoToolsComposeWithHooks(t *testing.T) {
	var ran []string
	g := newGoTools(t, execlua.Func("deploy", "", func(ctx context.Context, in deployIn) (deployOut, error) {
		ran = append(ran, in.Service)
		return deploy(ctx, in)
	}))
	permit := func(next execlua.Funnel) execlua.Funnel {
		return execlua.FunnelFunc(func(ctx context.Context, c execlua.Call) (execlua.Output, error) {
			if strings.Contains(string(c.Args), `"web"`) {
				return execlua.Output{}, errors.New("permission denied: deploy web")
			}
			return next.Call(ctx, c)
		})
	}
	var msgs []string
	asked := 0
	hooks := &execlua.Hooks{
		Pre: []func(context.Context, execlua.Call) execlua.PreDecision{
			func(_ context.Context, c execlua.Call) execlua.PreDecision {
				switch {
				case strings.Contains(string(c.Args), `"staging"`):
					return execlua.PreDecision{Deny: "no deploys to staging"}
				case strings.Contains(string(c.Args), `"dev"`):
					return execlua.PreDecision{Input: json.RawMessage(`{"env":"dev","service":"db"}`)}
				case strings.Contains(string(c.Args), `"qa"`):
					return execlua.PreDecision{Ask: true}
				}
				return execlua.PreDecision{}
			},
		},
		Post: []func(context.Context, execlua.Call, execlua.Output) execlua.PostDecision{
			func(_ context.Context, c execlua.Call, out execlua.Output) execlua.PostDecision {
				return execlua.PostDecision{Block: "deployed " + string(out.Structured)}
			},
		},
		Ask:       func(context.Context, execlua.Call) error { asked++; return errors.New("the user said no") },
		OnMessage: func(m string) { msgs = append(msgs, m) },
	}
	f := execlua.Chain(g, permit, hooks.Middleware())
	call := func(args string) error {
		_, err := f.Call(context.Background(), execlua.Call{Name: "deploy", Args: json.RawMessage(args)})
		return err
	}
	if err := call(`{"env":"prod","service":"web"}`); err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Errorf("denied call: %v", err)
	}
	if err := call(`{"env":"staging","service":"api"}`); !errors.Is(err, execlua.ErrHookBlocked) || err.Error() != "PreToolUse:deploy hook error: no deploys to staging" {
		t.Errorf("blocked call: %v", err)
	}
	if err := call(`{"env":"dev","service":"api"}`); !errors.Is(err, execlua.ErrInvalidArguments) || !strings.Contains(err.Error(), `args.service: want one of "api", "web", got "db"`) {
		t.Errorf("a hook's bad updated input: %v", err)
	}
	if err := call(`{"env":"qa","service":"api"}`); err == nil || err.Error() != "the user said no" || asked != 1 {
		t.Errorf("asked call: %v (asked %d)", err, asked)
	}
	if err := call(`{"env":"prod","service":"api"}`); err != nil {
		t.Fatalf("allowed call: %v", err)
	}
	if diff := cmp.Diff([]string{"api"}, ran); diff != "" {
		t.Errorf("calls that reached the function (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{`PostToolUse:deploy hook blocking error: deployed {"service":"prod/api","count":0}`}, msgs); diff != "" {
		t.Errorf("post messages (-want +got):\n%s", diff)
	}
}

// A Session runs a script whose calls reach Go functions; a bad argument
// is an error the script can catch, with the path in it.
func TestGoToolsThroughSessionRun(t *testing.T) {
	g := newGoTools(t,
		execlua.Func("deploy", "Deploy a service.", deploy),
		execlua.Func("greet", "Say hello.", func(_ context.Context, in struct {
			Name string `json:"name"`
		}) (string, error) {
			return "hello " + in.Name, nil
		}),
	)
	tools := g.Tools()
	for i := range tools {
		tools[i].ShouldDefer = true
	}
	s, err := execlua.New(g, &execlua.Options{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	code := `
local out = tools.deploy{ env = "prod", service = "api", items = {{ id = 1 }, { id = 2 }} }
local ok, err = pcall(tools.deploy, { env = "prod", service = "api", items = {{ id = "x" }} })
return { out.service, out.count, tools.greet{ name = "ops" }, ok, err }`
	in, _ := json.Marshal(map[string]string{"code": code})
	res := s.Run(context.Background(), in, nil)
	if res.IsError {
		t.Fatalf("run failed: %s", res.Text)
	}
	want := `["prod/api",2,"hello ops",false,"deploy was not called, its arguments are not valid: args.items[1].id: want integer, got string"]`
	if string(res.Value) != want {
		t.Errorf("value\n got %s\nwant %s", res.Value, want)
	}
}
