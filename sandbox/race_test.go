//go:build race

package sandbox

import "time"

// The race detector slows every step down several times over.
const stopSlack = 100 * time.Millisecond

// The hostile corpus runs in parallel under it on few cores: a script that
// ends on a limit of its own gets a budget it cannot reach.
const ownLimitBudget = 5 * time.Minute
