// Package servers connects the host to MCP servers with mcp-go and turns
// their tools into pool tools and their results into tool outputs.
//
// The model. A [Manager] owns one connection per configured server: a
// stdio subprocess, a streamable HTTP or SSE endpoint, or an mcp-go server
// in the same process. [Manager.Connect] starts them all in parallel, each
// bounded by its own start timeout, so a server that does not start or
// answer is reported (which server, why, the last lines of its stderr)
// without holding up the others. Connect with a new set of entries starts
// the added servers, stops the removed ones and restarts those whose entry
// changed; the others, and their calls in flight, are left alone.
//
// Lifecycle. Every server has a [State]:
//
//	starting -> ready -> restarting -> ready ...
//	                         |
//	                         +-> failed (CrashLimit failures in a row) -> restarting (after SlowRetry)
//	disabled ("disabled": true); failed for good: an entry that cannot work
//
// A stdio server that exits, a connection that is lost, a start that
// fails: each is a failure, and the server is started again by a timer, at
// once after the first failure, then after Backoff, doubling up to
// MaxBackoff. CrashLimit failures in a row mark it failed, and it is tried
// again every SlowRetry. A server that stayed up longer than MaxBackoff, or
// answered a call, starts its count afresh. An HTTP or SSE server is found
// down by a call, or, while idle, by a ping every PingInterval that fails
// or is not answered within its start timeout. A call it cannot have
// received (connection refused, session unknown) is made again once the
// server is back; one it may have received fails, saying the server is
// being restarted. The clock is injected so that tests drive the timers.
//
// No flapping. A server keeps the tools it last listed while it is down:
// [Manager.Tools], and so the pool, tools[] and the announcement, change
// only when a server lists other tools (at a start or after
// notifications/tools/list_changed, debounced) or its entry changes;
// [Options.OnChange] says so. [Options.OnState] is told of every state
// change. A call to a starting or restarting server waits for it, within
// the call's timeout; a call to a failed or disabled one fails at once.
//
// Timeouts. A start (process, handshake, first tools/list) is bounded by
// the entry's "startupTimeout", else Options.ConnectTimeout, else
// MCP_TIMEOUT, else 30 s; a call, waiting included, by the entry's
// "timeout", else Options.CallTimeout, else MCP_TOOL_TIMEOUT, else
// nothing (milliseconds in entries and variables). A [TimeoutError] says
// which timeout fired and where to raise it; a process the host stopped
// for its timeout is not reported as one that exited.
//
// Progress. A call whose context carries a sink ([WithProgress]) sends a
// progress token; the server's notifications/progress for it reach the
// sink in order (a notification that arrives after a later one is
// dropped), until the call returns.
//
// Status. [Manager.Status] gives each server's [Status]: state,
// transport, timeouts, last error, stderr tail, restarts, the calls
// waiting for it, and its tools with their annotations, in a JSON form
// whose field names are stable.
//
// [Manager.Call] performs tools/call: the output is the structuredContent
// (the bytes as received when mcp-go kept them), the text blocks and the
// image blocks; an embedded text resource counts as text, an embedded image
// as an image, and audio, binary resources and resource links become a line
// of text saying what was there. An isError result is an error carrying its
// text (ORCH-2).
// Cancelling the call's context sends notifications/cancelled to a stdio or
// in-process server and ends the HTTP request of an HTTP server.
package servers
