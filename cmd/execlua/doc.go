// Command execlua runs Lua scripts the way the Exec tool runs them, against
// real MCP servers, shows what a model would see, and serves Exec to any MCP
// client.
//
// The model: every command opens the reference host (package host) that the
// common flags describe (settings layers, .mcp.json, --demo's in-process
// servers), takes one execlua Session from it, and does one thing with it.
// The command line uses only the library's public API, so whatever it does
// an embedder can do. Dry runs, recording and replay are wrappers around the
// host's execution step (host.Options.Execute), after the permission check
// and the PreToolUse hooks, so those apply to them exactly as to real calls.
//
//	execlua demo                       # the whole idea in one screen
//	execlua run --demo script.lua      # a script against the demo servers
//	execlua run --dry-run script.lua   # only read-only calls are performed
//	execlua tools --json               # tools[] and the announcement
//	execlua search "list notes"        # ToolSearch from the shell
//	execlua types -o tools.d.lua       # definitions for lua-language-server
//	execlua serve --http :8080         # Exec for any MCP client (loopback)
//
// Exit status: 0 for success, 1 for a failed script, 2 for usage or
// configuration errors.
package main
