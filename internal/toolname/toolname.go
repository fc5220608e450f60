// Package toolname spells, once, the names several layers must agree on: the
// prefix of MCP tool names and what their parts may be, the fixed entries of the sandbox's tools table
// (ToolSearch and parallel) and the Exec tool's own name. Which tools a
// host has is not here: that is the host's, supplied through options.
package toolname

const (
	// MCPPrefix starts every MCP tool's name: mcp__<server>__<tool>. The
	// sandbox reads it for one rule (ORCH-4): a call to an unknown name
	// with this prefix is refused in plain words instead of meeting nil.
	MCPPrefix = "mcp__"
	// ToolSearch is the tools-table entry that searches the pool.
	ToolSearch = "ToolSearch"
	// Parallel is the tools-table entry that runs functions together.
	Parallel = "parallel"
	// Exec is the name of the Exec tool in tools[].
	Exec = "Exec"
)

// ValidPart reports whether s can be a server's or a tool's part of an MCP
// tool name, mcp__<server>__<tool>: 1 to 64 of A-Z, a-z, 0-9, _, . and -.
func ValidPart(s string) bool {
	if len(s) < 1 || len(s) > 64 {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}
