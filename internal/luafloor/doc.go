// Package luafloor is the plain way to build gopher-lua tables from a
// decoded JSON document: what a host without execlua's converters would
// write, and so the floor the converters' speed and memory are measured
// against (in the sandbox's BenchmarkFloors and luavm's heap tests). It is
// for those measurements only.
package luafloor
