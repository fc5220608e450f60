package heapwatch

import (
	"runtime"
	"testing"
)

const block = 64 << 20

// Live rises by what is kept and falls back once it is dropped.
func TestLive(t *testing.T) {
	before := Live()
	kept := make([]byte, block)
	held := Live()
	runtime.KeepAlive(kept)
	if held < before+block {
		t.Errorf("Live = %d with %d bytes kept, %d before", held, block, before)
	}
	if after := Live(); after >= held-block/2 {
		t.Errorf("Live = %d once the %d bytes were dropped, %d while kept", after, block, held)
	}
}

// Allocated counts what was allocated and dropped.
func TestAllocated(t *testing.T) {
	before := Allocated()
	for range 4 {
		runtime.KeepAlive(make([]byte, block/4))
	}
	if grew := Allocated() - before; grew < block {
		t.Errorf("Allocated grew by %d after %d bytes allocated", grew, block)
	}
}

// A sampler's peak includes what was allocated between its start and its
// stop, even with no tick in between (Stop samples last); its first
// sample does not.
func TestSamplerPeak(t *testing.T) {
	runtime.GC()
	s := Start()
	kept := make([]byte, block)
	peak, first := s.Stop()
	if first >= block || peak < block {
		t.Errorf("peak %d, first %d, with %d bytes allocated after the start", peak, first, block)
	}
	if now := Objects(); now < block {
		t.Errorf("Objects = %d with %d bytes kept", now, block)
	}
	runtime.KeepAlive(kept)
}
