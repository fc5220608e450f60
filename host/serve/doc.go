// Package serve is an MCP server that fronts a host: it offers Exec and the
// host's non-deferred tools to any MCP client, so that the client reaches a
// whole fleet of servers through one tool.
//
// The model: the host (package host) owns the connections, settings,
// permissions and hooks; this package only speaks MCP on top of it. Every
// call, a direct one of a flat tool or a nested one inside an Exec script,
// goes through the host's one funnel, so the same permission rules and
// hooks apply either way.
//
// Each MCP session is its own conversation: it keeps its own record of the
// announcements it was given, and all of them share one execlua.Session
// (a session keeps nothing of a conversation), so a thousand clients cost
// one assembled pool and one search index. The announcement of
// the pool at start is the server's instructions; when the pool has changed
// since a conversation last heard of it, the new announcement comes first
// in the next Exec result, ahead of the script's own result. A request
// with no session (protocol 2026-07-28 or later over HTTP) is told so
// ahead of every Exec result while the pool differs from the
// instructions, as nothing records what it heard. The messages PostToolUse
// hooks add to the conversation follow the call's result as text blocks.
//
// While servers are configured, tools[] has Exec even if none of them has
// given a tool yet (a library's model gets no Exec for an empty pool,
// POOL-3; a gateway's client lists its tools once and keeps them). Such an
// Exec call does not run: its result names each server's state, last
// error and next try (ErrNoToolsYet). Once a server connects, its tools
// are callable from the same client, announced in its next Exec result.
//
// A client that sends a progress token with an Exec call gets the live
// summary as progress notifications while the script runs. Over HTTP they
// go on the call's own response stream, written by one goroutine in the
// order the run made them and all before the result (mcp-go's queue of a
// session is shared by all its streams, which reordered them); a client
// too slow to take them loses the newest, never the order.
//
// Runs in flight are capped per client and in all (Options.MaxRuns,
// MaxRunsPerClient): past a cap, an Exec call is answered at once with an
// error result that says which (ErrBusy). A client is the name an HTTP
// middleware authenticated it by (WithClient), else its MCP session, else
// its remote host. Drain shuts runs down: new calls are answered
// ErrShuttingDown, runs in flight may finish until its context ends, and
// the rest are cancelled with a result that says so.
//
// Observers (audit logs, metrics, logs; see package host/gateway) are told
// of every Exec call and every call through the funnel, with the client,
// who decided (host.Decision) and the outcome.
//
// Serve it over stdio (ServeStdio) or streamable HTTP (Handler, or the
// secured gateway of package host/gateway); many clients may use one HTTP
// server at once.
package serve
