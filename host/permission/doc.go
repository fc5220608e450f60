// Package permission decides whether a tool call may proceed, from the
// permission rules of the settings layers.
//
// The model. A rule names the leaf tool a call reaches, never Exec: a nested
// call is judged by the name and arguments of the tool the script calls,
// exactly as a direct call of that tool would be (PERM-2, PERM-3). A rule
// is one of:
//
//	mcp__github__create_issue   that tool
//	mcp__github                 every tool of the server github
//	mcp__github__*              the same; any name ending in * is a prefix
//	Bash(git log:*)             that tool, when its argument matches
//
// An argument pattern is matched against the tool's primary argument:
// Bash's command, the file path of Read, Write, Edit, NotebookEdit, the
// path of Glob and Grep (and their pattern when no path is given), the URL
// of WebFetch ("domain:example.com" matches its host and subdomains). For
// every other tool, MCP tools included, a pattern matches when it matches
// any top-level string argument. In a pattern, "*" matches any run of
// characters (but not "/" in a path, where "**" does), and a trailing ":*"
// makes the rest a prefix: "git log:*" matches "git log" and "git log -3".
//
// Deny beats ask beats allow, whichever layer each rule comes from. When
// no rule matches, the permission mode decides: bypassPermissions allows,
// dontAsk refuses, acceptEdits allows the file-editing builtins, and the
// default (and plan) mode asks the user. [Checker.Denied] is the
// whole-tool filter the pool is built with (POOL-9, FLAG-6): a deny rule
// without a pattern.
package permission
