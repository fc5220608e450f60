//go:build !race

package lua

// slowdown is how many times slower the race detector makes a step.
const slowdown = 1
