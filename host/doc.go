// Package host is a reference host for execlua built from real parts: MCP
// servers over mcp-go, the settings files coding agents already keep, their
// permission rules and their command hooks, all on one funnel.
//
// The model. A [Host] owns the MCP connections (package servers), the
// settings layers (package settings), and, built from the settings, the
// permission checker (package permission) and the hook runner (package
// hooks). Every tool call, flat or nested, goes through its one funnel,
// [Host.Call]:
//
//	lookup -> permission check (ask the Prompter if needed)
//	       -> PreToolUse hooks -> Execute middleware -> the tool
//	       -> PostToolUse hooks
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
// Failures that are not a call's own (a server that would not start, a tool
// left out for its name, a hook that failed open, a broken settings file)
// are collected as [Report]s and passed to Options.OnReport; the host never
// prints.
package host
