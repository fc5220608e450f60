package luavm

import (
	"encoding/json"
	"runtime"
	"testing"

	glua "github.com/yuin/gopher-lua"

	"github.com/execlua/execlua/internal/heapwatch"
	"github.com/execlua/execlua/internal/luafloor"
)

// heldHeap is the live heap after building what build returns, less the
// live heap before, with only the built value kept; allocated is what
// building allocated in all, a bound on its peak.
func heldHeap(build func() any) (held, allocated int64, kept any) {
	before, total := heapwatch.Live(), heapwatch.Allocated()
	kept = build()
	after, totalAfter := heapwatch.Live(), heapwatch.Allocated()
	return int64(after) - int64(before), int64(totalAfter - total), kept
}

// The heap a big structured result takes once converted, beside its JSON
// size and beside the floor of gopher-lua's tables: the same document
// decoded by encoding/json and built with RawSetString and RawSetInt,
// the Go values dropped.
func TestBigResultHeap(t *testing.T) {
	raw := luafloor.BigDocument(6 << 20)
	s := New(nil)
	defer s.Close()
	bare := glua.NewState()
	defer bare.Close()

	floor, floorAlloc, keepFloor := heldHeap(func() any {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		return luafloor.Table(bare, v)
	})
	ours, oursAlloc, keepOurs := heldHeap(func() any {
		v, err := FromJSON(s.L, raw)
		if err != nil {
			t.Fatal(err)
		}
		return v
	})
	runtime.KeepAlive(keepFloor)
	runtime.KeepAlive(keepOurs)
	size := float64(len(raw))
	t.Logf("JSON %.1f MB; held: gopher-lua tables %.2fx its size, ours %.2fx; allocated: %.2fx (encoding/json + tables), ours %.2fx",
		size/1e6, float64(floor)/size, float64(ours)/size, float64(floorAlloc)/size, float64(oursAlloc)/size)
	if ours > floor {
		t.Errorf("the converted result holds %d bytes, more than gopher-lua's own tables of it (%d)", ours, floor)
	}
}
