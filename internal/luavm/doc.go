// Package luavm is the language layer of execlua: the global environment a
// script sees, and the conversion of values between Lua and JSON.
//
// Every run gets a fresh gopher-lua state (New, then InstallPrelude; or
// Prepare ahead of the run, then Bind), never reused. It holds exactly the globals of the contract:
//
//	assert error ipairs next pairs pcall xpcall select tonumber tostring
//	type unpack rawequal rawget rawset setmetatable getmetatable _G _VERSION
//	string (without dump)  table  math  coroutine  print  tools
//
// Nothing else: require, load, os, io, debug and the rest read as nil, and
// calling or indexing one of them fails with a plain-words error. The holes
// gopher-lua opens compared with C Lua are closed here: setmetatable takes
// tables only, getmetatable never hands out the string library, tostring and
// string.format never show a Go pointer or type, math.randomseed seeds a
// per-state generator, and print goes to the host's callback, not stdout.
//
// Builtins that would run or allocate without bound are replaced: string
// patterns use a matcher that counts its steps and stops with the run,
// string.upper, lower and reverse work byte by byte (as in C Lua) and stop
// with the run too,
// string.rep, string.format, table.concat, string.gsub (piece by piece)
// and the `..` operator (rewritten at compile time into a checked call)
// refuse results over MaxStringBytes, unpack and string.byte refuse more
// than 8000 results (ranges are computed in floats, so -2^62..2^62 cannot
// overflow), every store of an integer key far past the end of a table's
// array part is refused (the compiler checks assignments and constructors,
// rawset and table.insert check their own; see assign.go), and
// coroutine creation and nesting are capped. gopher-lua's own library
// functions are guarded like ours: a Go panic in any of them is a crash.
//
// The compiler also rewrites # into a call, so that it ignores __len on
// tables as Lua 5.1 does (gopher-lua's VM honours it), has a multiple
// assignment evaluate every target before assigning and a numeric for
// convert string bounds, as Lua 5.1 does. Compile refuses,
// before gopher-lua compiles anything, sources nested more
// than 200 levels, functions with more than 10,000 distinct constants or
// more than 255 upvalues; CompileContext stops reading the source once its
// context is done.
//
// Nested tool calls are carried by coroutines. The prelude (prelude.lua,
// embedded) installs a yieldable pcall/xpcall and coroutine wrappers that
// pass tool-call yields outward to the driver in package sandbox; where a
// yield cannot cross a Go frame (a metamethod, a for iterator, a table.sort
// comparator, a gsub callback) the call is performed on the spot instead.
// Coroutine states are Lua 5.1's: a running or normal coroutine cannot be
// resumed, and one waiting for a tool call's result reads "normal" and
// belongs to the driver until the result is delivered.
//
// Conversion: ToJSON encodes a script value as a tool argument (plain data
// only, paths named in errors, empty tables as [] where the schema declares
// an array), FromJSON builds fresh Lua values from a tool's output (FromGo
// from one already decoded into Go values, by the same rules), and
// RenderCut and RenderResult show any value as compact JSON for print and
// return values, building only the characters kept and counting the rest,
// under the state's context. The round trip is faithful: a JSON null inside
// an array becomes tools.null (so # and ipairs see every element) and goes
// back out as null, and an empty array or object from JSON is remembered
// (weakly) and goes back out as it came, whatever a schema says. No Go
// value ever reaches the script.
//
// Footprint estimates what a script still reaches, for the sandbox's
// per-run memory accounting; it walks the VM and must run on the VM's
// goroutine between two instructions.
//
// The package is internal: the protocol between the prelude and the
// sandbox's driver (Host, the marks, the yield error, Load and Results) is
// not public API. Package lua is the public face, for a Go program that
// wants a safe Lua state of its own.
package luavm
