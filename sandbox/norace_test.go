//go:build !race

package sandbox

import "time"

// stopSlack is how long after a stop (budget, cancellation) a run may
// return: the contract's 10 ms, with room for a machine shared with other
// work.
const stopSlack = 50 * time.Millisecond

// The budget of a script that ends on a limit of its own: out of reach.
const ownLimitBudget = 30 * time.Second
