//go:build !race

package luavm

// slowdown is how many times slower the race detector makes a step.
const slowdown = 1
