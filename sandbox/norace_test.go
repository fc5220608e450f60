//go:build !race

package sandbox

import "time"

// stopSlack is how long after a stop (budget, cancellation) a run may
// return: the contract's 10 ms, with room for a machine shared with other
// work.
const stopSlack = 50 * time.Millisecond
