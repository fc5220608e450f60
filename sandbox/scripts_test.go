package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/execlua/execlua/internal/heapwatch"
	"github.com/execlua/execlua/pool"
	"github.com/execlua/execlua/search"
)

// Scripts under testdata/lua carry their expectation in leading comments:
//
//	-- expect: ok | error <substring> | budget | memory
//	-- result: <exact result>
//	-- log: <exact log>
//
// The default is "ok". The assert helper (testdata/lua/lib/assert.lua) is
// prepended on the script's first line, so line numbers stay true; its
// check and eq report each failure through the test_fail tool and let the
// script go on.
type scriptSpec struct {
	expect, detail string
	result, log    *string
}

func parseSpec(src string) scriptSpec {
	spec := scriptSpec{expect: "ok"}
	for _, line := range strings.Split(src, "\n") {
		rest, ok := strings.CutPrefix(line, "-- ")
		if !ok {
			break
		}
		key, value, _ := strings.Cut(rest, ": ")
		switch key {
		case "expect":
			spec.expect, spec.detail, _ = strings.Cut(value, " ")
		case "result":
			spec.result = &value
		case "log":
			v := strings.ReplaceAll(value, `\n`, "\n")
			spec.log = &v
		}
	}
	return spec
}

// scriptFunnel gives scripts a few tools and turns test_fail calls into
// test failures.
func scriptFunnel(t *testing.T, name string) func(string) Request {
	f := newFunnel(map[string]toolFunc{
		"echo": echo,
		"text": func(_ context.Context, args map[string]any) (Output, error) {
			return Output{Text: []string{fmt.Sprint(args["text"])}}, nil
		},
		"none": func(context.Context, map[string]any) (Output, error) { return Output{}, nil },
		"fail": func(_ context.Context, args map[string]any) (Output, error) {
			return Output{}, errors.New(fmt.Sprint(args["message"]))
		},
		"test_fail": func(_ context.Context, args map[string]any) (Output, error) {
			t.Errorf("%s: %v", name, args["message"])
			return Output{}, nil
		},
	})
	var catalogue []pool.Tool
	for _, tool := range f.toolList() {
		catalogue = append(catalogue, pool.Tool{Name: tool.Name, Description: "a test tool"})
	}
	request := func(code string) Request {
		req := f.request(code)
		req.Search = func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			res, err := search.NewIndex(catalogue).SearchContext(ctx, args)
			if err != nil {
				return nil, err
			}
			return json.Marshal(res)
		}
		req.SearchSchema = json.RawMessage(search.InputSchema)
		return req
	}
	return request
}

// eachScript runs body as a subtest for every script matching pattern.
func eachScript(t *testing.T, pattern string, atLeast int, body func(t *testing.T, name, src string, spec scriptSpec)) {
	files, _ := filepath.Glob(pattern)
	if len(files) < atLeast {
		t.Fatalf("%d scripts match %s, want at least %d", len(files), pattern, atLeast)
	}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			body(t, name, string(src), parseSpec(string(src)))
		})
	}
}

func TestScripts(t *testing.T) {
	helper, err := os.ReadFile("../testdata/lua/lib/assert.lua")
	if err != nil {
		t.Fatal(err)
	}
	prelude := strings.ReplaceAll(string(helper), "\n", " ")
	eachScript(t, "../testdata/lua/*.lua", 5, func(t *testing.T, name, src string, spec scriptSpec) {
		out := Run(context.Background(), scriptFunnel(t, name)(prelude+src), &Options{MaxCalls: 1000})
		checkSpec(t, spec, out)
		if spec.result != nil && out.Result != *spec.result {
			t.Errorf("result %q, want %q", out.Result, *spec.result)
		}
		if spec.log != nil && out.Log != *spec.log {
			t.Errorf("log %q, want %q", out.Log, *spec.log)
		}
	})
}

func checkSpec(t *testing.T, spec scriptSpec, out Outcome) {
	t.Helper()
	switch spec.expect {
	case "ok":
		if out.Err != nil {
			t.Errorf("failed: %v", out.Err)
		}
	case "error":
		if !errors.Is(out.Err, ErrScript) || !strings.Contains(out.Err.Error(), spec.detail) {
			t.Errorf("err = %v, want a script error containing %q", out.Err, spec.detail)
		}
	case "budget":
		if !errors.Is(out.Err, ErrBudgetExceeded) {
			t.Errorf("err = %v, want the budget", out.Err)
		}
	case "memory":
		if !errors.Is(out.Err, ErrMemoryExceeded) {
			t.Errorf("err = %v, want the memory limit", out.Err)
		}
	default:
		t.Fatalf("unknown expectation %q", spec.expect)
	}
}

// TestHostileScripts runs the escape and denial-of-service corpus: each
// script must end with its expected outcome, and the host must survive.
// With -v it logs how far past the budget each run ended and the heap's
// peak while it ran (the table in docs/hardening.md).
func TestHostileScripts(t *testing.T) {
	budget := 100 * time.Millisecond
	var report []string
	var mu sync.Mutex
	eachScript(t, "../testdata/lua/hostile/*.lua", 30, func(t *testing.T, name, src string, spec scriptSpec) {
		opts := &Options{Budget: budget}
		if spec.expect != "budget" {
			// Ends on a limit of its own; keep slow machines out of it.
			opts = &Options{Budget: ownLimitBudget, MaxMemory: 64 << 20}
		}
		request := scriptFunnel(t, name)
		runtime.GC()
		heap := heapwatch.Start()
		start := time.Now()
		out := Run(context.Background(), request(string(src)), opts)
		elapsed := time.Since(start)
		peak, _ := heap.Stop()
		checkSpec(t, spec, out)
		over := "–"
		if spec.expect == "budget" {
			over = fmt.Sprintf("%.1f ms", float64(elapsed-budget)/float64(time.Millisecond))
		}
		mu.Lock()
		report = append(report, fmt.Sprintf("| %s | %s | %s | %.0f MiB |", strings.TrimSuffix(name, ".lua"), spec.expect, over, float64(peak)/(1<<20)))
		mu.Unlock()
	})
	t.Logf("\n| script | outcome | past the 100 ms budget | heap peak |\n|---|---|---|---|\n%s", strings.Join(report, "\n"))
}
