package sandbox

import (
	"context"
	"fmt"
	"strings"
	"testing"

	glua "github.com/yuin/gopher-lua"
)

// tools.parallel with 100 branches, one call each, all in flight at once.
func BenchmarkParallel100(b *testing.B) {
	f := newFunnel(map[string]toolFunc{"t": structured(`{"ok":true}`)})
	var branches []string
	for i := range 100 {
		branches = append(branches, fmt.Sprintf("function() return tools.t{ i = %d } end", i))
	}
	req := f.request("return select('#', tools.parallel(" + strings.Join(branches, ",") + "))")
	opts := &Options{MaxCalls: 1000}
	for b.Loop() {
		if out := Run(context.Background(), req, opts); out.Err != nil || out.Result != "100" {
			b.Fatal(out.Err, out.Result)
		}
	}
}

// The cost of checking the budget before every instruction: a tight loop
// in the sandbox against the same loop in a bare gopher-lua state.
const loop = `local n = 0 for i = 1, 1e6 do n = n + i % 7 end return n`

func BenchmarkLoopSandbox(b *testing.B) {
	req := newFunnel(nil).request(loop)
	for b.Loop() {
		if out := Run(context.Background(), req, nil); out.Err != nil {
			b.Fatal(out.Err)
		}
	}
}

func BenchmarkLoopBareGopherLua(b *testing.B) {
	for b.Loop() {
		L := glua.NewState()
		if err := L.DoString(loop); err != nil {
			b.Fatal(err)
		}
		L.Close()
	}
}

// pcall runs its function as a coroutine so nested calls can cross it;
// this is what that costs per pcall.
func BenchmarkPcall(b *testing.B) {
	req := newFunnel(nil).request(`for i = 1, 1000 do pcall(type, i) end`)
	for b.Loop() {
		if out := Run(context.Background(), req, nil); out.Err != nil {
			b.Fatal(out.Err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/pcall")
}
