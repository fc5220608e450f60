package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/execlua/execlua/internal/cputime"
	"github.com/execlua/execlua/internal/heapwatch"
	"github.com/execlua/execlua/internal/leaktest"
	"github.com/execlua/execlua/sandbox"
)

// benchPool is a pool for a benchmark, with its idle workers started.
func benchPool(b *testing.B, opts *Options) *Pool {
	p := New(opts)
	b.Cleanup(func() { p.Close() })
	p.warm()
	return p
}

// warm waits until the pool has an idle worker ready.
func (p *Pool) warm() {
	w := <-p.idle
	select {
	case p.idle <- w:
	default: // a refill took its place meanwhile
		p.release(w)
	}
}

// A cold run of `return 1` in a worker taken from a warm pool: the run
// frame, a fresh state in the worker, the outcome frame. The pool's
// refill (a process start) is left out of the timing. "spaced" runs are
// 20 ms apart, as an agent's turns are (seconds, in fact); "fresh" takes
// the worker the moment it is ready, when the kernel still charges the
// few milliseconds of CPU its start took against its next wake-ups on a
// busy machine. Both reach 200 tools, whose names alone go with the run.
func BenchmarkColdRun(b *testing.B) {
	for _, gap := range []struct {
		name string
		wait time.Duration
	}{{"spaced", 20 * time.Millisecond}, {"fresh", 0}} {
		b.Run(gap.name, func(b *testing.B) {
			p := benchPool(b, &Options{Idle: 1})
			req := sandbox.Request{Code: `return 1`, Tools: manyTools(200)}
			var took []time.Duration
			for b.Loop() {
				b.StopTimer()
				p.warm()
				time.Sleep(gap.wait) // the time between two runs, not a wait for anything
				b.StartTimer()
				start := time.Now()
				if out := p.Run(context.Background(), req, nil); out.Err != nil {
					b.Fatal(out.Err)
				}
				took = append(took, time.Since(start))
			}
			reportMedian(b, took)
		})
	}
}

// reportMedian reports the median of the runs' times beside their mean:
// on a shared machine a few runs that wait for a processor pull the mean
// up.
func reportMedian(b *testing.B, took []time.Duration) {
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "median-ns/op")
}

// manyTools is a reachable set of n tools with schemas of a usual size.
func manyTools(n int) *sandbox.Toolset {
	tools := make([]sandbox.Tool, n)
	for i := range tools {
		tools[i] = sandbox.Tool{Name: fmt.Sprintf("mcp__server__tool_%d", i), InputSchema: json.RawMessage(`{"type":"object",
			"properties":{"owner":{"type":"string","description":"The owner of the repository"},
			"repo":{"type":"string","description":"The name of the repository"},
			"labels":{"type":"array","items":{"type":"string"},"description":"Labels to filter by"},
			"page":{"type":"number","description":"Page number for pagination (min 1)"},
			"state":{"type":"string","enum":["open","closed","all"]}},"required":["owner","repo"]}`)}
	}
	return sandbox.NewToolset(tools)
}

// Starting a worker: exec, the Go runtime's start, the hello frame; with
// the worker's resident memory once idle.
func BenchmarkStartWorker(b *testing.B) {
	var rss uint64
	for b.Loop() {
		w, err := start("", nil, []string{envWorker + "=" + strconv.Itoa(Version)})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		rss += w.base
		w.end()
		b.StartTimer()
	}
	b.ReportMetric(float64(rss)/float64(b.N)/(1<<20), "MiB/idle-worker")
}

// One nested call round trip through the worker: the call frame out, the
// host's funnel, the result frame back, the script resumed. One run makes
// b.N calls, so the run's own cost vanishes. Besides the mean: the median
// time from one funnel call to the next, and the CPU each side spent per
// call (the host's whole process, the worker's from /proc).
func BenchmarkNestedCall(b *testing.B) {
	p := benchPool(b, &Options{Idle: 1})
	w, err := p.acquire(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer p.release(w)
	answer := sandbox.Output{Structured: json.RawMessage(`{"ok":true}`)}
	done := sandbox.Output{Structured: json.RawMessage(`{"ok":false}`)}
	calls := 0
	took := make([]time.Duration, 0, b.N)
	var last time.Time
	req := sandbox.Request{
		Code:  `while tools.t{ i = 1 }.ok do end`,
		Tools: sandbox.NewToolset([]sandbox.Tool{{Name: "t"}}),
		Funnel: sandbox.FunnelFunc(func(context.Context, sandbox.Call) (sandbox.Output, error) {
			now := time.Now()
			if calls > 0 {
				took = append(took, now.Sub(last))
			}
			last = now
			calls++
			if calls >= b.N {
				return done, nil
			}
			return answer, nil
		}),
	}
	hostBefore, workerBefore := hostCPU(), processCPU(w.pid)
	b.ResetTimer()
	if out := w.run(context.Background(), req, sandbox.Options{MaxCalls: b.N + 1}, p.grace); out.Err != nil {
		b.Fatal(out.Err)
	}
	b.StopTimer()
	b.ReportMetric(float64((hostCPU()-hostBefore).Nanoseconds())/float64(b.N), "host-cpu-ns/op")
	b.ReportMetric(float64((processCPU(w.pid)-workerBefore).Nanoseconds())/float64(b.N), "worker-cpu-ns/op")
	if len(took) > 0 {
		reportMedian(b, took)
	}
}

// hostCPU is the CPU this process has used.
func hostCPU() time.Duration {
	d, _ := cputime.Process()
	return d
}

// processCPU is the CPU process pid has used, from /proc (in clock ticks
// of 10 ms: a benchmark of a second or more reads it to 1 %).
func processCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command's closing parenthesis; utime and stime
	// are the 14th and 15th of the line.
	fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	utime, _ := strconv.Atoi(fields[11])
	stime, _ := strconv.Atoi(fields[12])
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// The same round trip in Node: a worker thread's postMessage echo, the
// original design's mechanism, measured by testdata/postmessage_echo.js.
func BenchmarkNodePostMessageEcho(b *testing.B) {
	node, err := exec.LookPath("node")
	if err != nil {
		b.Skip("node is not on the PATH")
	}
	out, err := exec.Command(node, "testdata/postmessage_echo.js", strconv.Itoa(max(b.N, 1000))).Output()
	if err != nil {
		b.Fatal(err)
	}
	ns, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(ns, "ns/echo")
}

// The memory of runs in flight: 20 runs at once, each waiting in a nested
// call, per run. In-process that is the host's heap; in a worker, the
// host's heap and the worker's resident memory.
func BenchmarkConcurrentRunMemory(b *testing.B) {
	const runs = 20
	p := benchPool(b, &Options{Idle: runs, MaxWorkers: runs})
	for _, mode := range []string{"inprocess", "process"} {
		b.Run(mode, func(b *testing.B) {
			var hostBytes, workerBytes float64
			for b.Loop() {
				b.StopTimer()
				if mode == "process" {
					for len(p.idle) < runs {
						p.warm()
						runtime.Gosched()
					}
				}
				before := heapwatch.Live()
				arrived := make(chan struct{}, runs)
				release := make(chan struct{})
				req := sandbox.Request{
					Code:  `local t = {} for i = 1, 100 do t[i] = { i = i } end return tools.t{ n = #t }`,
					Tools: sandbox.NewToolset([]sandbox.Tool{{Name: "t"}}),
					Funnel: sandbox.FunnelFunc(func(ctx context.Context, c sandbox.Call) (sandbox.Output, error) {
						arrived <- struct{}{}
						<-release
						return sandbox.Output{Structured: c.Args}, nil
					}),
				}
				run := sandbox.Run
				if mode == "process" {
					run = p.Run
				}
				b.StartTimer()
				var wg sync.WaitGroup
				for range runs {
					wg.Go(func() {
						if out := run(context.Background(), req, nil); out.Err != nil {
							b.Error(out.Err)
						}
					})
				}
				for range runs {
					<-arrived
				}
				b.StopTimer()
				hostBytes += float64(heapwatch.Live()) - float64(before)
				if mode == "process" {
					// MaxWorkers is the number of runs: every child is busy.
					for _, pid := range leaktest.Children() {
						rss, _ := residentMemory(pid)
						workerBytes += float64(rss)
					}
				}
				close(release)
				wg.Wait()
				b.StartTimer()
			}
			b.ReportMetric(hostBytes/float64(b.N)/runs/(1<<10), "host-KiB/run")
			if mode == "process" {
				b.ReportMetric(workerBytes/float64(b.N)/runs/(1<<20), "worker-MiB/run")
			}
		})
	}
}
