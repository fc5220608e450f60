//go:build !race

package search

import "time"

// cpuSlack bounds the CPU time of a step that must cost little: far more
// than it takes, far less than the unbounded work it replaces.
const cpuSlack = 150 * time.Millisecond
