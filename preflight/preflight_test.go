package preflight_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yuin/gopher-lua/parse"

	"github.com/execlua/execlua/internal/luavm"
	"github.com/execlua/execlua/pool"
	"github.com/execlua/execlua/preflight"
	"github.com/execlua/execlua/search"
)

func plantedTools(t testing.TB) []pool.Tool {
	t.Helper()
	raw, err := os.ReadFile("../testdata/preflight/tools.json")
	if err != nil {
		t.Fatal(err)
	}
	var tools []pool.Tool
	if err := json.Unmarshal(raw, &tools); err != nil {
		t.Fatal(err)
	}
	return tools
}

// expectation is a planted script's leading comments: "-- want: <text>"
// for each problem it must report, "-- want: nothing" for a script it
// must pass, "-- missed: <why>" for a mistake it is known to leave to run
// time.
type expectation struct {
	want   []string
	clean  bool
	missed string
}

func parseExpectation(src string) expectation {
	var e expectation
	for _, line := range strings.Split(src, "\n") {
		switch rest, _ := strings.CutPrefix(line, "-- "); {
		case rest == "want: nothing":
			e.clean = true
		case strings.HasPrefix(rest, "want: "):
			e.want = append(e.want, strings.TrimPrefix(rest, "want: "))
		case strings.HasPrefix(rest, "missed: "):
			e.missed = strings.TrimPrefix(rest, "missed: ")
		}
	}
	return e
}

// The corpus of planted mistakes: every kind is caught with its line, all
// at once; the known misses stay missed; the traps pass. The tally is the
// one reported in docs/preflight.md.
func TestPlantedMistakes(t *testing.T) {
	c := preflight.New(plantedTools(t), &preflight.Options{SearchSchema: json.RawMessage(search.InputSchema)})
	files, _ := filepath.Glob("../testdata/preflight/*.lua")
	if len(files) < 20 {
		t.Fatalf("%d planted scripts, want at least 20", len(files))
	}
	var caught, missed, wrong int
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		e := parseExpectation(string(src))
		err = c.Check(context.Background(), string(src))
		var pe *preflight.Error
		refused := errors.As(err, &pe) && errors.Is(err, preflight.ErrRefused)
		name := filepath.Base(file)
		switch {
		case e.clean || e.missed != "":
			if refused {
				wrong++
				t.Errorf("%s: refused, want it passed:\n%v", name, err)
			} else if e.missed != "" {
				missed++
			}
		case !refused:
			t.Errorf("%s: passed, want %q", name, e.want)
		default:
			caught++
			if len(pe.Problems) != len(e.want) {
				t.Errorf("%s: %d problems, want %d:\n%v", name, len(pe.Problems), len(e.want), err)
			}
			for _, w := range e.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s: report lacks %q:\n%v", name, w, err)
				}
			}
		}
	}
	t.Logf("planted corpus: %d caught, %d missed (known), %d wrongly refused", caught, missed, wrong)
}

// No script of the project's corpora that works is refused: the scripts
// of testdata/lua (with their assert helper) and the hostile corpus, under
// the tools they run with. A script refused must be one whose run fails
// (expect: error).
func TestNoFalsePositivesOnCorpora(t *testing.T) {
	var tools []pool.Tool
	for _, name := range []string{"echo", "text", "none", "fail", "test_fail"} {
		tools = append(tools, pool.Tool{Name: name})
	}
	c := preflight.New(tools, &preflight.Options{SearchSchema: json.RawMessage(search.InputSchema)})
	helper, err := os.ReadFile("../testdata/lua/lib/assert.lua")
	if err != nil {
		t.Fatal(err)
	}
	prelude := strings.ReplaceAll(string(helper), "\n", " ")
	files, _ := filepath.Glob("../testdata/lua/*.lua")
	hostile, _ := filepath.Glob("../testdata/lua/hostile/*.lua")
	if len(files) < 5 || len(hostile) < 30 {
		t.Fatalf("%d scripts and %d hostile ones, want the corpora", len(files), len(hostile))
	}
	checked, refusedFailing := 0, 0
	for _, file := range append(files, hostile...) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		code := string(src)
		if !strings.Contains(file, "hostile") {
			code = prelude + code
		}
		checked++
		err = c.Check(context.Background(), code)
		if err == nil {
			continue
		}
		if !strings.HasPrefix(string(src), "-- expect: error") {
			t.Errorf("%s: refused a script that works:\n%v", file, err)
			continue
		}
		refusedFailing++
		t.Logf("%s: refused ahead of a run that fails: %v", filepath.Base(file), err)
	}
	t.Logf("corpora: %d scripts checked, 0 working ones refused, %d failing ones refused ahead", checked, refusedFailing)
}

// Preflight's cost as a ratio to compiling the same script, and the part
// of it that is gopher-lua's parser, which compiling runs again (reported
// in docs/preflight.md).
func BenchmarkPreflightVsCompile(b *testing.B) {
	src, err := os.ReadFile("../testdata/preflight/clean_traps.lua")
	if err != nil {
		b.Fatal(err)
	}
	code := strings.Repeat("do\n"+string(src)+"\nend\n", 20) // 300 lines
	c := preflight.New(plantedTools(b), &preflight.Options{SearchSchema: json.RawMessage(search.InputSchema)})
	ctx := context.Background()
	var checking, compiling, parsing time.Duration
	for b.Loop() {
		start := time.Now()
		if err := c.Check(ctx, code); err != nil {
			b.Fatal(err)
		}
		mid := time.Now()
		if _, err := luavm.CompileContext(ctx, code); err != nil {
			b.Fatal(err)
		}
		end := time.Now()
		if _, err := parse.Parse(strings.NewReader(code), "script"); err != nil {
			b.Fatal(err)
		}
		checking, compiling, parsing = checking+mid.Sub(start), compiling+end.Sub(mid), parsing+time.Since(end)
	}
	b.ReportMetric(float64(checking)/float64(compiling), "preflight/compile")
	b.ReportMetric(float64(parsing)/float64(checking), "parse/preflight")
	b.ReportMetric(float64(checking.Nanoseconds())/float64(b.N), "preflight-ns/op")
}
