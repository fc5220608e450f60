//go:build race

package execlua

import "time"

// The race detector slows every step down several times over.
const hostWorkCPU = 5 * time.Second
