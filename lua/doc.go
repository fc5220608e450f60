// Package lua runs a Lua 5.1 script in execlua's safe environment, for a Go
// program that wants one of its own, without the Exec tool around it.
//
// Each Run gets a fresh state, never pooled or reused, holding exactly the
// globals of an Exec script: the allowlisted base functions, string
// (without dump), table, math, coroutine, print and an empty tools table.
// require, load, os, io, debug and the rest read as nil. Builtins that
// would run or allocate without bound are capped (Options), and the run
// stops when its context is done.
//
// Values cross the boundary as data only: Options.Globals are converted
// from Go values as encoding/json would decode them (maps, slices,
// numbers, strings, booleans, nil), and the script's return values come
// back as JSON. A value that is not plain data (a function, a coroutine, a
// table with a metatable) is refused with a ValueError naming its path,
// which wraps ErrNotData.
//
// The environment itself, and the protocol by which execlua's sandbox
// carries tool calls through it, live in internal/luavm.
package lua
