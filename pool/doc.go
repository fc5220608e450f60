// Package pool decides which tools the model sees declared in tools[] and
// which it reaches only through Exec.
//
// Every registered tool is described by a [Tool]. One function, [Decide],
// says whether a tool is deferred, checking in this order: the tool's
// AlwaysLoad escape hatch; the names kept flat (Exec, and the host's exempt
// list, Options.Exempt: for a coding agent the core loop, as package
// host/preset has it); the non-deferred lists from remote and local
// settings, which name builtins; MCP tools, which are deferred
// unconditionally; and last the tool's own ShouldDefer. The first rule that
// applies decides. Nothing else in the module makes this decision, and the
// package knows no tool by name but Exec.
//
// [Assemble] runs Decide over the registered tools, applies the host's one
// deny filter to flat and deferred tools alike, and returns an [Assembly]:
// tools[] (the declarations sent with every request), the flat tools, and the
// pool, which holds the deferred tools that survive the filter. The pool is
// exactly what the sandbox can call, what the announcement lists and what
// ToolSearch searches.
//
// Exec is declared only when it is enabled, not denied and the pool is not
// empty. Then tools[] is Exec followed by the flat tools. Otherwise every
// permitted tool is declared flat, so switching Exec off or denying it never
// costs a capability. Exec's declaration is passed in and returned as given,
// and MCP tools only ever enter the pool, so servers connecting and
// disconnecting change the pool (and with it the announcement) but not one
// byte of tools[].
//
// Tools taken out of tools[] stay registered. [Assembly.Available] is the one
// answer to "can this session use tool X", and system-prompt guidance keyed
// by tool name follows it ([Assembly.Guidance]), never tools[].
//
// The package is pure: no goroutines, no I/O, no package state. Call Assemble
// again whenever the settings or the permissions change, and
// [Assembly.Reassemble] when only the registry does: it keeps the verdicts
// of every run of one server's tools (or of builtins) that did not change,
// so a server joining or leaving a pool of 10,000 costs that server and
// one comparison of every other tool, tools[] is kept while no tool of
// it changed, the same registry again returns the Assembly itself, and
// [Assembly.PoolChange] says what joined and left for those who keep state
// per pool tool. The pool itself is flattened only when asked for. Runs
// read the Assembly current when they start, so that the sandbox reaches
// the pool as it is now rather than as it was announced.
package pool
