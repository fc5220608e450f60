package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// suite is one package's test binary and the benchmarks run from it.
type suite struct {
	pkg   string // relative to the module root
	bench string // -test.bench pattern
	extra []string
}

var suites = []suite{
	{pkg: "sandbox", bench: "^BenchmarkFloors$"},
	{pkg: "sandbox/worker", bench: "^BenchmarkNestedCall$"},
	{pkg: ".", bench: "Real10k|^BenchmarkRequest1000$|^BenchmarkSetTools1000$", extra: []string{"-test.benchtime", "20x"}},
	{pkg: "search", bench: "^Benchmark(NewIndex|NewIndexReal|NewIndexRealDistinct|QueryLatency|QueryLatencyReal|QueryLatencyRealDistinct|Server20Of|ServerReal)10k$"},
	{pkg: "cmd/execlua", bench: "^BenchmarkDemoCall$", extra: []string{"-test.benchtime", "3x"}},
	{pkg: "host/gateway", bench: "^BenchmarkGatewayOverhead$", extra: []string{"-test.benchtime", "20x"}},
}

// row is one line of the table: a benchmark's metric, and the unit of its
// absolute figure when the line gives one.
type row struct {
	what, floor string
	bench, unit string
	abs         string
}

var rows = []row{
	{"nested call, small arguments (`tools.x{ i = i }` echoed)", "bare gopher-lua yield, a fresh table each way", "BenchmarkFloors/call-small/execlua", "x-bare-yield", "ns/op"},
	{"the same", "the original design's Node worker round trip", "BenchmarkFloors/call-small/execlua", "x-node", ""},
	{"nested call, empty table each way (`tools.x{}`)", "bare gopher-lua yield, `{ i = i }`", "BenchmarkFloors/call-empty/execlua", "x-bare-yield", "ns/op"},
	{"nested call, 2 KB structured result", "`encoding/json` decoding + Lua table building", "BenchmarkFloors/call-2KB/execlua", "x-json+table", "ns/op"},
	{"the same", "Node worker round trip", "BenchmarkFloors/call-2KB/execlua", "x-node", ""},
	{"cold run of `return 1` from a fresh state", "bare gopher-lua state, same libraries", "BenchmarkFloors/cold/execlua", "x-bare", "ns/op"},
	{"cold run from a prepared state (the default)", "the same", "BenchmarkFloors/cold/prepared", "x-bare", "ns/op"},
	{"`return 1` with 10,000 pool tools", "the same with 100", "BenchmarkFloors/pool/10000", "x-100", ""},
	{"`return 1` with 10,000 real pool tools", "the same with 100", "BenchmarkFloors/pool/10000-real", "x-100", ""},
	{"nested call in a worker process (median round trip)", "", "BenchmarkNestedCall", "median-ns/op", ""},
	{"`New` with 10,000 real pool tools", "", "BenchmarkNewReal10k", "cpu-ns/op", ""},
	{"the same, the search index's build alone", "", "BenchmarkNewReal10k", "index-cpu-ns/op", ""},
	{"a 24-tool server joining 10,000 real tools (`SetTools`)", "", "BenchmarkSetToolsReal10k/join", "cpu-ns/op", ""},
	{"the same, execlua's own (the search index's update left out)", "", "BenchmarkSetToolsReal10k/join", "own-cpu-ns/op", ""},
	{"the first `Request` after it (the new announcement rendered)", "", "BenchmarkSetToolsReal10k/join", "request-cpu-ns/op", ""},
	{"that server leaving", "", "BenchmarkSetToolsReal10k/leave", "cpu-ns/op", ""},
	{"the same, execlua's own", "", "BenchmarkSetToolsReal10k/leave", "own-cpu-ns/op", ""},
	{"`SetTools` with the same 10,000 tools", "", "BenchmarkSetToolsReal10k/same", "cpu-ns/op", ""},
	{"`Request` over 10,024 real pool tools, announced", "", "BenchmarkRequestReal10k", "cpu-ns/op", ""},
	{"search index of 10,000 tools, built", "", "BenchmarkNewIndex10k", "cpu-ns/op", ""},
	{"the same, 10,000 real tools (descriptions and schemas as published)", "", "BenchmarkNewIndexReal10k", "cpu-ns/op", ""},
	{"the same, each copy's descriptions its own (no text repeats)", "", "BenchmarkNewIndexRealDistinct10k", "cpu-ns/op", ""},
	{"ToolSearch over 10,000 tools, p95 of the queries' medians", "", "BenchmarkQueryLatency10k", "p95-ns/query", ""},
	{"the same, 10,000 real tools", "", "BenchmarkQueryLatencyReal10k", "p95-ns/query", ""},
	{"the same, each copy's descriptions its own", "", "BenchmarkQueryLatencyRealDistinct10k", "p95-ns/query", ""},
	{"a 20-tool server joining the index of 10,000 tools", "", "BenchmarkServer20Of10k/add", "cpu-ns/op", ""},
	{"the same, leaving", "", "BenchmarkServer20Of10k/remove", "cpu-ns/op", ""},
	{"a 20-tool server joining the index of 10,000 real tools", "", "BenchmarkServerReal10k/join", "cpu-ns/op", ""},
	{"the same, leaving", "", "BenchmarkServerReal10k/leave", "cpu-ns/op", ""},
	{"nested call through `execlua run --demo` (in-process MCP server), CPU", "the library's call, same run", "BenchmarkDemoCall", "x-library", "cli-cpu-ns/call"},
	{"Exec with one nested call through `serve --http`'s gateway by mcp-go's client, CPU of both", "a direct `Session.Run`, same run", "BenchmarkGatewayOverhead", "x-direct", "http-cpu-ns/exec"},
}

func main() {
	runs := flag.Int("runs", 5, "times to run every benchmark")
	dir := flag.String("out", filepath.Join(os.TempDir(), "execlua-bench"), "where the binaries and raw outputs go")
	flag.Parse()
	if err := run(*runs, *dir, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

func run(runs int, dir string, out io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, s := range suites {
		build := exec.Command("go", "test", "-c", "-o", binary(dir, s), "./"+s.pkg)
		if b, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("building %s: %v\n%s", s.pkg, err, b)
		}
	}
	got := map[string]map[string][]float64{} // benchmark -> unit -> values
	var loads []string
	raw, err := os.Create(filepath.Join(dir, "raw.txt"))
	if err != nil {
		return err
	}
	defer raw.Close()
	for i := range runs {
		for _, s := range suites {
			loads = append(loads, loadavg())
			fmt.Fprintf(os.Stderr, "run %d/%d: %s (load %s)\n", i+1, runs, s.pkg, loads[len(loads)-1])
			args := append([]string{"-test.run", "^$", "-test.bench", s.bench, "-test.benchmem", "-test.count", "1"}, s.extra...)
			cmd := exec.Command(binary(dir, s), args...)
			cmd.Dir, cmd.Stderr = s.pkg, os.Stderr
			b, err := cmd.Output()
			raw.Write(b)
			if err != nil {
				return fmt.Errorf("%s: %v\n%s", s.pkg, err, b)
			}
			parse(b, got)
		}
	}
	fmt.Fprintf(out, "%d runs on %s, %d cores, %s; load average (1 min) %s\n\n", runs, cpuName(), runtime.NumCPU(), runtime.Version(), span(loads))
	fmt.Fprintln(out, "| execlua | floor | median (range) |")
	fmt.Fprintln(out, "|---|---|---|")
	for _, r := range rows {
		fmt.Fprintf(out, "| %s | %s | %s |\n", r.what, r.floor, r.figure(got[r.bench]))
	}
	return nil
}

func binary(dir string, s suite) string {
	name := strings.ReplaceAll(s.pkg, "/", "-")
	if name == "." {
		name = "execlua"
	}
	return filepath.Join(dir, name+".test")
}

// parse reads `go test -bench` result lines: name, iterations, then
// value-unit pairs. The -N suffix of GOMAXPROCS is dropped.
func parse(b []byte, got map[string]map[string][]float64) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := f[0]
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			name = name[:i]
		}
		if got[name] == nil {
			got[name] = map[string][]float64{}
		}
		for i := 2; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				got[name][f[i+1]] = append(got[name][f[i+1]], v)
			}
		}
	}
}

// figure is the row's metric as median (min–max), with the absolute
// figure's median beside a ratio.
func (r row) figure(units map[string][]float64) string {
	vals := units[r.unit]
	if len(vals) == 0 {
		return "not measured (" + r.unit + " missing)"
	}
	s := stat(vals, r.unit)
	if r.abs != "" && len(units[r.abs]) > 0 {
		abs := slices.Clone(units[r.abs])
		slices.Sort(abs)
		s += " (" + human(abs[len(abs)/2], r.abs) + ")"
	}
	return s
}

func stat(vals []float64, unit string) string {
	v := slices.Clone(vals)
	slices.Sort(v)
	med := v[len(v)/2]
	if len(v)%2 == 0 {
		med = (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	bare := func(x float64) string { return strings.TrimSuffix(human(x, unit), " CPU") }
	return fmt.Sprintf("%s (%s–%s)", human(med, unit), bare(v[0]), bare(v[len(v)-1]))
}

// human writes a ratio as 1.23× and a time per operation in its unit.
func human(v float64, unit string) string {
	if strings.HasPrefix(unit, "x-") {
		return fmt.Sprintf("%.2f×", v)
	}
	cpu := ""
	if strings.Contains(unit, "cpu-") {
		cpu = " CPU"
	}
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.1f ms%s", v/1e6, cpu)
	case v >= 1e3:
		return fmt.Sprintf("%.1f µs%s", v/1e3, cpu)
	}
	return fmt.Sprintf("%.0f ns%s", v, cpu)
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(b))[0]
}

func span(loads []string) string {
	var v []float64
	for _, l := range loads {
		if f, err := strconv.ParseFloat(l, 64); err == nil {
			v = append(v, f)
		}
	}
	if len(v) == 0 {
		return "unknown"
	}
	slices.Sort(v)
	return fmt.Sprintf("%.1f–%.1f (median %.1f)", v[0], v[len(v)-1], v[len(v)/2])
}

func cpuName() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, line := range strings.Split(string(b), "\n") {
		if name, ok := strings.CutPrefix(line, "model name"); ok {
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), ":")) + " " + runtime.GOOS + "/" + runtime.GOARCH
		}
	}
	return runtime.GOOS + "/" + runtime.GOARCH
}
