//go:build race

package sandbox

import "time"

// The race detector slows every step down several times over.
const stopSlack = time.Second
