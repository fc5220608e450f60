//go:build race

package worker

// Under the race detector a worker maps terabytes of shadow address space,
// its resident memory is several times its heap, and it starts a run
// (state, prelude, compilation) an order of magnitude slower, so the grace
// period is stretched as much.
const (
	raceEnabled      = true
	raceMemoryFactor = 5
	raceSlowdown     = 10
)
