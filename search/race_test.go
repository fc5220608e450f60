//go:build race

package search

import "time"

// The race detector slows every step down several times over.
const cpuSlack = time.Second
