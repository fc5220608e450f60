package heapwatch

import (
	"runtime"
	"runtime/metrics"
	"time"
)

// objectsMetric is the bytes of heap objects, live and not yet collected.
const objectsMetric = "/memory/classes/heap/objects:bytes"

// Objects is the bytes of heap objects now, live and not yet collected.
func Objects() uint64 {
	return read([]metrics.Sample{{Name: objectsMetric}})
}

func read(sample []metrics.Sample) uint64 {
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

// Allocated is the bytes this process has allocated on the heap so far:
// the difference across a run bounds what the run built, garbage
// included.
func Allocated() uint64 {
	return read([]metrics.Sample{{Name: "/gc/heap/allocs:bytes"}})
}

// Live is the heap in use after full collections: two, since what a
// sync.Pool drops survives the first in its victim cache.
func Live() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// Sampler samples Objects every millisecond from Start until Stop.
type Sampler struct {
	sample      []metrics.Sample // reused: a sampler that allocates adds to what it measures
	first, peak uint64
	stop, done  chan struct{}
}

// Start takes a first sample and goes on sampling until Stop.
func Start() *Sampler {
	s := &Sampler{sample: []metrics.Sample{{Name: objectsMetric}}, stop: make(chan struct{}), done: make(chan struct{})}
	s.first = read(s.sample)
	s.peak = s.first
	go s.run()
	return s
}

func (s *Sampler) run() {
	defer close(s.done)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			s.peak = max(s.peak, read(s.sample)) // the last state counts too
			return
		case <-tick.C:
			s.peak = max(s.peak, read(s.sample))
		}
	}
}

// Stop ends the sampling, after one last sample, and returns the highest
// sample and the first.
func (s *Sampler) Stop() (peak, first uint64) {
	close(s.stop)
	<-s.done
	return s.peak, s.first
}
