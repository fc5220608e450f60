// Package host is a reference host for execlua built from real parts: MCP
// servers over mcp-go, the settings files coding agents already keep, their
// permission rules and their hooks, all on one funnel.
//
// The model. A [Host] owns the MCP connections (package servers), the
// settings layers (package settings), and, built from the settings, the
// permission checker (package permission) and the hook runner (package
// hooks). Every tool call, flat or nested, goes through its one funnel,
// [Host.Call]:
//
//	lookup -> PreToolUse hooks -> permission rules
//	       -> (if the user is to be asked) PermissionRequest hooks, Prompter
//	       -> Execute middleware -> the tool
//	       -> PostToolUse hooks, or PostToolUseFailure hooks
//
// The order and how decisions combine are Claude Code's: a hook's deny
// refuses; a deny rule refuses whatever a hook said; an ask rule asks even
// when a hook allowed; a hook's ask asks; a hook's allow lets through a
// call no rule names; otherwise the rules and the permission mode decide.
// Every refusal is an error that says who refused ([execlua.Refusal]): the
// rule and the file it is in, the hook, the user. Hooks are told a stable
// session id (Options.SessionID, or WithSession per conversation) and a
// tool_use_id per call.
//
// A nested call reaches the funnel through the Session's Funnel, a flat
// call through Host.Call; both run the same lines, so rules match the leaf
// tool's name and arguments, never Exec's (PERM-1..3), and a hook sees the
// same input either way (HOOK-1, HOOK-7). Exec's own call goes through
// [Host.RunExec], which fires Exec's hooks as a flat tool's (HOOK-6);
// tools.ToolSearch inside a script reads the catalogue and fires none. A
// context made with [WithObserver] is told of each call as it ends, with
// who decided it ([Decision]): what audit logs and metrics read.
//
// Sessions made with [Host.NewSession] follow the host: a server that
// connects, disconnects or changes its tool list, and a settings file that
// changes on disk, reach every session's registry and settings at once
// (POOL-10, POOL-12, FLAG-5), so the next request and the next run see
// them. A settings file that stops parsing keeps its last good contents and
// is reported with file, line and column.
//
// MCP servers have a lifecycle (package servers): a server that exits or
// stops answering is started again with backoff, one that keeps failing
// is marked failed and retried slowly, and meanwhile its last tools stay
// in the pool, so tools[], the announcement and Exec do not flap; a
// nested call to it waits for it within its timeout. [Host.Servers] gives
// each server's [ServerStatus] (JSON-encodable, for `execlua servers` and
// a health endpoint), Options.OnServerState each change. A changed
// .mcp.json or settings file restarts only the servers whose entries
// changed. Timeouts come from the entry, Options, or MCP_TIMEOUT and
// MCP_TOOL_TIMEOUT. A nested call asks its server for progress;
// [Host.RunExec] adds it to the run's live summary (RunOptions.Progress),
// and [WithProgress] hands it to a gateway that forwards it.
//
// Failures that are not a call's own (a server that would not start, a tool
// left out for its name, a hook that failed open, a broken settings file)
// are collected as [Report]s and passed to Options.OnReport; the host never
// prints.
package host
