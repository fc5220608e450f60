package worker

import (
	"context"
	"encoding/json"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"

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
// refill (a process start) is left out of the timing.
func BenchmarkColdRun(b *testing.B) {
	p := benchPool(b, &Options{Idle: 1})
	req := sandbox.Request{Code: `return 1`}
	for b.Loop() {
		b.StopTimer()
		p.warm()
		b.StartTimer()
		if out := p.Run(context.Background(), req, nil); out.Err != nil {
			b.Fatal(out.Err)
		}
	}
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
// b.N calls, so the run's own cost vanishes.
func BenchmarkNestedCall(b *testing.B) {
	p := benchPool(b, &Options{Idle: 1})
	answer := sandbox.Output{Structured: json.RawMessage(`{"ok":true}`)}
	done := sandbox.Output{Structured: json.RawMessage(`{"ok":false}`)}
	calls := 0
	req := sandbox.Request{
		Code:  `while tools.t{ i = 1 }.ok do end`,
		Tools: sandbox.NewToolset([]sandbox.Tool{{Name: "t"}}),
		Funnel: sandbox.FunnelFunc(func(context.Context, sandbox.Call) (sandbox.Output, error) {
			calls++
			if calls >= b.N {
				return done, nil
			}
			return answer, nil
		}),
	}
	b.ResetTimer()
	if out := p.Run(context.Background(), req, &sandbox.Options{MaxCalls: b.N + 1}); out.Err != nil {
		b.Fatal(out.Err)
	}
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
	heap := func() uint64 {
		runtime.GC()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
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
				before := heap()
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
				hostBytes += float64(heap()) - float64(before)
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
