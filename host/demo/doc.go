// Package demo holds the built-in demo MCP servers: small, in-memory
// servers with realistic tools that the execlua CLI adds with --demo and
// that the README's examples script against.
//
// The model: each call of Servers builds fresh servers with their own state,
// keyed by the name a host connects them under. Nothing touches the network
// or the disk; every tool answers from memory, so a script run against them
// is repeatable.
//
//   - demo: echo (its arguments back as structured content), sleep (a slow
//     call: { slept = ms } after ms milliseconds), chart (an image), fail
//     (always an error result). All read-only.
//   - notes: a small note store. list_notes and get_note are read-only,
//     add_note changes the store, delete_note is destructive.
//   - weather: forecast, read-only and open-world, with an outputSchema and
//     a searchHint.
//
// The servers are mcp-go servers; a host connects them in process (see
// host.Options.InProcess) or serves them over any mcp-go transport.
package demo
