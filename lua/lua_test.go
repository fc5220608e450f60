package lua

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/execlua/execlua/internal/cputime"
)

func run(t *testing.T, code string, opts *Options) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := Run(ctx, code, opts)
	parts := make([]string, len(out))
	for i, v := range out {
		parts[i] = string(v)
	}
	return strings.Join(parts, " "), err
}

// The facade gives the environment of an Exec script: the same globals,
// the prelude's pcall and coroutines, an empty tools table, and the same
// refusals (ISO-1, ISO-3).
func TestRunEnvironment(t *testing.T) {
	for code, want := range map[string]string{
		`return type(os), type(io), type(require), type(load), type(debug)`: `"nil" "nil" "nil" "nil" "nil"`,
		`return pcall(error, "x")`:                 `false "x"`,
		`return pcall(function() return 1, 2 end)`: `true 1 2`,
		`local co = coroutine.wrap(function(a) local b = coroutine.yield(a + 1) return b * 2 end)
		 return co(1), co(5)`: `2 10`,
		`return type(tools), next(tools) == nil`:  `"table" true`,
		`return`:                                  ``,
		`return nil, {}, {1, 2}, {a = {b = "c"}}`: `null {} [1,2] {"a":{"b":"c"}}`,
		`return n + 1, s, list[2], obj.k, flag`:   `42 "str" "y" null true`,
	} {
		got, err := run(t, code, &Options{Globals: map[string]any{
			"n": 41, "s": "str", "list": []any{"x", "y"}, "obj": map[string]any{"k": nil}, "flag": true,
		}})
		if err != nil || got != want {
			t.Errorf("%s:\n got %s, %v\nwant %s", code, got, err, want)
		}
	}
}

// A script that fails, or asks for what is not there, ends with a
// ScriptError in plain words; none of them shows the prelude.
func TestRunErrors(t *testing.T) {
	for code, want := range map[string]string{
		`error("boom")`: `script:1: boom`,
		`error({})`:     `{}`,
		`error(setmetatable({}, {__tostring = function() return "custom" end}))`: `custom`,
		`require("socket")`:           `require is not available inside Exec`,
		`return tools.search_web{}`:   `search_web`,
		`coroutine.yield(1)`:          `attempt to yield from outside a coroutine`,
		`return (`:                    `syntax error`,
		`return string.rep("x", 100)`: `resulting string too large (the limit is 50 bytes)`,
	} {
		_, err := run(t, code, &Options{MaxStringBytes: 50})
		var se *ScriptError
		if !errors.As(err, &se) || !strings.Contains(se.Message, want) {
			t.Errorf("%s: got %v, want a ScriptError containing %q", code, err, want)
			continue
		}
		if strings.Contains(se.Message, "prelude") {
			t.Errorf("%s: the message shows the prelude: %s", code, se.Message)
		}
	}
}

// The run stops when its context is done, with the context's cause.
func TestRunStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	var err error
	// A run that goes on past its deadline keeps a processor busy.
	if spent := cputime.Spent(t, func() { _, err = Run(ctx, `while true do end`, nil) }); spent > 2*time.Second {
		t.Fatalf("the run spent %v of CPU before it stopped", spent)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want the context's deadline", err)
	}
	cancelled, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if _, err := Run(cancelled, `return 1`, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled context: got %v", err)
	}
}

// Values that are not plain data are refused with their path, on the way
// in and on the way out.
func TestRunRefusesNonData(t *testing.T) {
	_, err := run(t, `return 1, { f = { print } }`, nil)
	var ve *ValueError
	if !errors.As(err, &ve) || !errors.Is(err, ErrNotData) || ve.Path != "result[2].f[1]" {
		t.Fatalf("got %v, want a ValueError at result[2].f[1]", err)
	}
	_, err = run(t, `return 1`, &Options{Globals: map[string]any{"ch": make(chan int)}})
	// The error is about the global, not about a tool's output.
	if err == nil || !strings.Contains(err.Error(), "global ch cannot be converted: json: unsupported type") || strings.Contains(err.Error(), "tool") {
		t.Fatalf("a channel global: got %v", err)
	}
}

// Print gets each line; the coroutine cap holds.
func TestRunOptions(t *testing.T) {
	var lines []string
	if _, err := run(t, `print("a", 1) print({1})`, &Options{Print: func(l string) { lines = append(lines, l) }}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(lines, "|"); got != "a\t1|[1]" {
		t.Fatalf("printed %q", got)
	}
	_, err := run(t, `for i = 1, 10 do coroutine.create(function() end) end`, &Options{MaxCoroutines: 3})
	if err == nil || !strings.Contains(err.Error(), "too many coroutines") {
		t.Fatalf("coroutine cap: got %v", err)
	}
}
