// Package heapwatch measures this process's Go heap for tests and
// benchmarks, one way for all of them:
//
//   - Live is the heap that stays after full collections: what a set of
//     objects holds, as the difference of two readings.
//   - Objects is the heap's objects now, garbage included, read without a
//     collection: cheap enough to sample while work goes on.
//   - Allocated counts every byte allocated so far: what a run built,
//     garbage included, as the difference of two readings.
//   - Start samples Objects every millisecond until Stop, for the peak a
//     run reached.
//
// The figures are those of runtime/metrics and runtime.MemStats: the Go
// heap only, not a worker process's memory nor what C code holds.
package heapwatch
