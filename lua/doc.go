// Package lua is the language layer of execlua: the global environment a
// script sees, and the conversion of values between Lua and JSON.
//
// Every run gets a fresh gopher-lua state (New, then InstallPrelude), never
// pooled or reused. It holds exactly the globals of the contract:
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
// string.rep, string.format, table.concat, string.gsub and the `..`
// operator (rewritten at compile time into a checked call) refuse results
// over MaxStringBytes, unpack and string.byte refuse more than 8000 results,
// and coroutine creation and nesting are capped.
//
// Nested tool calls are carried by coroutines. The prelude (prelude.lua,
// embedded) installs a yieldable pcall/xpcall and coroutine wrappers that
// pass tool-call yields outward to the driver in package sandbox; where a
// yield cannot cross a Go frame (a metamethod, a for iterator, a table.sort
// comparator, a gsub callback) the call is performed on the spot instead.
//
// Conversion: ToJSON encodes a script value as a tool argument (plain data
// only, paths named in errors, empty tables as [] where the schema declares
// an array), FromJSON builds fresh Lua values from a tool's output (FromGo
// from one already decoded into Go values, by the same rules), and
// Render shows any value as compact JSON for print and return values. No Go
// value ever reaches the script.
package lua
