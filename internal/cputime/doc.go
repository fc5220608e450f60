// Package cputime reads the CPU time this process has used, user and
// system together, for the benchmarks: on a shared machine what a
// benchmark cost in CPU says more than the wall clock does.
package cputime
