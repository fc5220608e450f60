//go:build !race

package worker

const (
	raceEnabled      = false
	raceMemoryFactor = 1
	raceSlowdown     = 1
)
