//go:build !race

package sandbox

import "time"

// stopSlack is how much CPU time a run may spend after a stop (budget,
// cancellation) before it returns: far more than the contract's 10 ms, far
// less than a step that ignores the stop.
const stopSlack = 250 * time.Millisecond
