// Package sandbox runs one Lua script: a fresh state from package internal/luavm, a
// driver that carries nested tool calls, the budget clock, the limits, and
// the turning of every failure into an Outcome.
//
// The script runs as a coroutine. A call tools.name(args) converts args to
// JSON (plain data only), records the call, and yields it to the driver;
// the driver stops the budget clock, hands the call to the host's Funnel,
// and resumes the script with the tool's output (structured content as a
// table, else the text, else nil) or raises the tool's error at the call
// site. tools.parallel gathers the calls of all its branches into one yield
// and the driver performs them concurrently, so they share one waiting
// window. Where a yield cannot cross a Go frame, the call is performed on
// the spot, with the clock stopped all the same.
//
//	local issue = tools.mcp__github__get_issue{ number = 7 }
//	local ok, err = pcall(tools.mcp__slack__post, { text = issue.title })
//	local a, b = tools.parallel(
//	  function() return tools.WebFetch{ url = "https://a.example" } end,
//	  function() return tools.WebFetch{ url = "https://b.example" } end)
//	print(#a, #b)
//	return { posted = ok }
//
// The budget counts only the VM's own time, compiling the script and
// rendering its result included. It is a context whose cause says which
// limit ended the run; gopher-lua checks it before every instruction, and
// the builtins that can run long (pattern matching, table.sort,
// table.concat, JSON encoding) check it themselves. Cancelling the caller's
// context ends the run promptly: the VM runs on a goroutine of its own,
// which compiles the script and performs a yield's single call inline, and
// Run's goroutine waits for it or for the run's stop. A stopped VM ends at
// its next instruction; one held in the compiler or by a funnel that
// ignores its context is left behind, the call named in Outcome.Abandoned.
// A run whose caller's context ends, cancelled or past its deadline, fails
// with ErrCanceled wrapping that context's cause. ToolSearch is the host's
// work on the script's time: the SearchFunc gets the run's context.
//
// What the model reads is bounded: the result at MaxResultChars, the log
// at MaxLogChars, and a script's error (a string raised, a __tostring's,
// a tool's error) at Options.MaxErrorChars, each with a note of its full
// length; a returned table keeps one key of each JSON name
// (Outcome.LeftOutKeys), so that the result is always valid JSON.
//
// Memory is charged to the run that holds it. The process's heap is only
// the trigger: when it grows past what the run could still add, the run's
// own goroutine, between two instructions, walks what the script reaches
// (luavm.State.Footprint) and stops the run only if that is over MaxMemory.
// The cap is on that estimate, not on the process: garbage the script made
// and the collector's headroom come on top.
//
// Run never panics and never returns a Go error for script-level
// failures: Outcome.Err carries a sentinel-wrapping error instead.
//
// Each run gets its own Lua state, used once: taken from the few the
// process keeps prepared ahead (libraries and prelude installed, refilled
// in the background; SetPreparedStates), or built on the spot.
//
// The reachable set is a Toolset, built once per pool and shared by every
// run that reaches it (name map, schemas parsed at first use), so a run
// costs the same whatever the pool's size. A funnel may return structured
// content as JSON (Output.Structured) or already decoded into Go values
// (Output.Decoded); the script gets the same value either way.
//
// The Funnel is the only way out of the sandbox. The driver consumes call
// requests and produces call results through it and nothing else, which
// keeps the core testable with a fake and leaves room to move the VM into a
// worker process later.
package sandbox
