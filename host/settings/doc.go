// Package settings reads the settings files coding agents already keep, in
// Claude Code's format, and keeps them current while the host runs.
//
// The model. Settings come in layers, lowest precedence first: the user
// file (~/.claude/settings.json), the project file (.claude/settings.json),
// the local project file (.claude/settings.local.json) and the managed
// file, which stands in for remote settings an administrator pushes and
// which a library host may give from code instead (Options.Managed,
// [Store.SetManaged]).
// MCP servers also come from a separate .mcp.json.
//
// Layers merge key by key:
//
//   - enableExec, permissions.defaultMode: the highest layer that sets the
//     key wins (FLAG-4).
//   - permissions.allow, deny, ask, hooks: the lists of every layer apply
//     together; no layer removes another's rule or hook. Which rule wins
//     among them is the permission checker's business (deny, ask, allow).
//   - nonDeferredTools: the managed layer's list is the remote list; the
//     other layers' lists are joined into the local list. Both apply.
//   - mcpServers: a name defined in several places takes the definition of
//     the highest one; .mcp.json ranks below every settings file. A
//     .mcp.json server named in any layer's disabledMcpjsonServers is left
//     out; if some layer sets enabledMcpjsonServers, only the named
//     .mcp.json servers are kept. Servers from settings files are not
//     filtered by these lists.
//
// A key that neither execlua nor Claude Code knows (a misspelling such as
// "permisions", which would leave its rules out without a word) is
// reported through Options.OnWarning as an [UnknownKeyError] naming the
// file and the nearest known key; the file is still read.
//
// A [Store] holds the last good contents of every file and, once watching,
// reloads a file when it changes. A file that does not parse keeps its last
// good contents (or none, at start) and the error names the file, line and
// column ([FileError]). Every [Settings] value is immutable: a reload
// builds a new one.
//
// [Store.AllowAlways] writes an allow rule into the most specific settings
// file configured (local, else project, else user), keeping every other key
// and value of that file, by writing a temporary file and renaming it.
package settings
