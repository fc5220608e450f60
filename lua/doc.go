// Package lua runs Lua 5.1 scripts in execlua's safe environment, for a Go
// program that wants scripting of its own, without the Exec tool and the
// agent around it.
//
// A Runner is the scripting surface: it gives scripts a fixed set of
// tools, most often Go functions (execlua.Func, execlua.NewGoTools), and
// runs each script the way Exec does, with none of what serves a model
// (no announcement, no pool, no deferral, no ToolSearch):
//
//	ops, _ := execlua.NewGoTools(execlua.Func("restart", "Restart a service.", restart))
//	r, _ := lua.NewRunner(ops.Tools(), ops, &lua.RunnerOptions{Print: log.Println, Timeout: 2 * time.Second})
//	res, err := r.Run(ctx, `tools.restart{ service = "api" }`)
//
// Calls are carried by coroutines (a call yields to the driver, which
// performs it through the funnel), tools.parallel puts several in flight
// together, and the script-time budget stops while a call is in flight;
// RunnerOptions.Timeout adds a wall-clock limit that counts everything.
// Limits and worker processes (execlua.Process) are those of a Session.
// Printed lines reach RunnerOptions.Print as they are printed. Before a
// script runs, package preflight refuses it when a literal call cannot
// work, naming every such call. Errors are worded for the operator.
//
// Run is the smaller entry point it grew from: one script in a fresh
// state with an empty tools table, Go values in as globals, return values
// out as JSON.
//
// Each run gets a fresh state, never reused, holding exactly the globals
// of an Exec script: the allowlisted base functions, string (without
// dump), table, math, coroutine, print and tools. require, load, os, io,
// debug and the rest read as nil. Builtins that would run or allocate
// without bound are capped, and the run stops when its context is done.
//
// Values cross the boundary as data only: Options.Globals are converted
// from Go values as encoding/json would decode them (maps, slices,
// numbers, strings, booleans, nil), and the script's return values come
// back as JSON. A value that is not plain data (a function, a coroutine, a
// table with a metatable) is refused with a ValueError naming its path,
// which wraps ErrNotData.
//
// The environment itself, and the protocol by which execlua's sandbox
// carries tool calls through it, live in internal/luavm; the driver is
// package sandbox's.
package lua
