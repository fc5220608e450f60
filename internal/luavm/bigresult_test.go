package luavm

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	glua "github.com/yuin/gopher-lua"

	"github.com/execlua/execlua/internal/luafloor"
)

// bigDocument is an object-heavy tool output of about size bytes: an
// array of records of a dozen fields, strings, numbers, a nested array.
func bigDocument(size int) []byte {
	var b strings.Builder
	b.WriteString(`{"total":0,"items":[`)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"number":%d,"title":"Issue number %d: something broke in module %d","state":"open","locked":false,"comments":%d,"score":%g,"author":{"login":"user%d","id":%d,"site_admin":false},"labels":["bug","p%d","area/%d"],"created_at":"2025-01-%02dT10:00:00Z","url":"https://example.com/repo/issues/%d"}`,
			i, i+1000, i, i%97, i%13, float64(i)/7, i%500, 5000+i%500, i%4, i%31, 1+i%28, i)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// heldHeap is the live heap after building what build returns, less the
// live heap before, with only the built value kept; allocated is what
// building allocated in all, a bound on its peak.
func heldHeap(build func() any) (held, allocated int64, kept any) {
	before, total := heap()
	kept = build()
	after, totalAfter := heap()
	return int64(after) - int64(before), int64(totalAfter - total), kept
}

// heap is the live heap after full collections, and all bytes allocated.
func heap() (live, total uint64) {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc, m.TotalAlloc
}

// The heap a big structured result takes once converted, beside its JSON
// size and beside the floor of gopher-lua's tables: the same document
// decoded by encoding/json and built with RawSetString and RawSetInt,
// the Go values dropped.
func TestBigResultHeap(t *testing.T) {
	raw := bigDocument(6 << 20)
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
