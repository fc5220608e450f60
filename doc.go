// Package execlua gives an LLM agent one tool, Exec, in place of the
// declarations of every rarely used tool. The model writes a short Lua
// script that calls those tools through a tools table, looks their
// parameters up with tools.ToolSearch, and gets one result back.
//
// The model. A host registers all its tools, builtins and MCP tools alike.
// One deferral table (package pool) splits them into flat tools, declared
// in tools[] as usual, and the pool, reachable only from scripts. tools[]
// then holds Exec, whose description is a constant, and the flat tools: it
// does not change when MCP servers come and go, so the prompt-cache prefix
// survives. What the pool holds is said instead in a names-only isMeta
// message appended to the conversation when the pool changes (package
// announce). Nested calls go through the host's own funnel, with its
// permission checks and hooks, so Exec widens nothing the model may do.
//
// Hosting Exec takes this package only; its types for tools, calls,
// limits and messages are aliases of the packages that implement them.
//
//  1. Describe every tool. A builtin is NewBuiltinTool (set ShouldDefer
//     for one that may go to the pool); an MCP tool is NewMCPTool with the
//     server's name and the entry its tools/list returned, which names it
//     mcp__<server>__<tool> and keeps its schemas, annotations and _meta
//     hints. Which builtins are never deferred is the host's policy,
//     Options.Exempt (package host/preset holds a coding agent's). A Go
//     function is Func: its schemas come from its types, and NewGoTools
//     makes a set of them a funnel that checks arguments before it calls.
//  2. Write the Funnel: the one function that performs a tool call with
//     the host's permission check and hooks, the code a flat call goes
//     through (Chain wraps one in Middleware steps such as Hooks).
//  3. Keep one Session per conversation, and tell it when tools or
//     settings change.
//  4. Before each model request, ask the Session for tools[] and for an
//     announcement to append as an isMeta message.
//  5. When the model calls Exec, Run the input; per-run options adjust the
//     budget and call cap and report progress.
//
// In code:
//
//	issue, err := execlua.NewMCPTool("github", listedEntry) // as tools/list sent it
//	s, err := execlua.New(funnel, &execlua.Options{Tools: builtins, Exempt: coreLoop, Settings: settings})
//	// servers connect or disconnect, settings reload:
//	s.SetTools(append(builtins, mcpTools...))
//	s.SetSettings(reloaded)
//	// every model request:
//	req := s.Request(history)          // history as []execlua.Message
//	if req.Announcement != nil {
//		history = append(history, isMeta(req.Announcement.Text))
//	}
//	send(req.Tools, req.Guidance, history)
//	// the model calls Exec:
//	res := s.Run(ctx, toolUse.Input, &execlua.RunOptions{Progress: showSummary})
//	reply(res.Text, res.Images, res.IsError)
//
// The model gets Text, Images and IsError. The host keeps the rest of the
// Result: the summary line for the user, the record of nested calls, the
// printed lines, the return value as JSON, and where the time went
// (compiling, the script itself, waiting for tools).
//
// The funnel is the host's one way of performing a tool call (permission
// check, PreToolUse hook, execution, PostToolUse hook), the same code a
// flat call goes through. The state of a Session is the registry and the
// settings; every change reassembles them, and each request and each run
// reads the assembly current at that moment. Nothing is remembered of what
// was announced: the conversation's markers are the only record.
//
// Run never panics and never returns a Go error: invalid input, a refused
// Exec and every way a script can fail (an error, the budget, a
// cancellation, a crash) come back as a Result with IsError set and plain
// words for the model, keeping whatever the script printed. The limits of a
// run are the host's (Options.Limits, adjusted for one run by RunOptions):
// they never appear in Exec's description or in the announcement, only in
// the failure of a run that hit one.
package execlua
