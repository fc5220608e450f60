package pool

import (
	"encoding/json"

	"github.com/execlua/execlua/internal/toolname"
)

// Kind says where a tool comes from.
type Kind int

const (
	// Builtin tools are implemented by the host itself.
	Builtin Kind = iota
	// MCP tools come from a connected MCP server and are named
	// mcp__<server>__<tool>.
	MCP
)

// MCPPrefix starts the name of every MCP tool: MCPPrefix + server + "__" +
// tool. It is the one place the prefix is spelled.
const MCPPrefix = toolname.MCPPrefix

// MCPName is the name the model uses for tool of server.
func MCPName(server, tool string) string { return MCPPrefix + server + "__" + tool }

func (k Kind) String() string {
	if k == MCP {
		return "mcp"
	}
	return "builtin"
}

// Tool describes one registered tool: everything the deferral table, the
// declarations, the announcement, search, rendering and the sandbox need.
// Schemas are kept as the JSON the tool published, so rendering and
// declarations stay byte-exact.
type Tool struct {
	// Name is the name the model uses: a builtin's own name, or
	// mcp__<server>__<tool> for an MCP tool.
	Name        string
	Description string
	// InputSchema is the tool's JSON Schema for its arguments; empty means
	// {"type":"object"}.
	InputSchema json.RawMessage
	// OutputSchema is the MCP outputSchema (or a builtin's equivalent); empty
	// when the tool declares none.
	OutputSchema json.RawMessage

	Kind Kind
	// Server and ServerTool are the MCP server's name and the tool's name on
	// that server; empty for builtins.
	Server     string
	ServerTool string

	// ShouldDefer is the tool's own intent to be deferred (builtins declare it;
	// MCP tools are deferred regardless).
	ShouldDefer bool
	// AlwaysLoad is the escape hatch: the tool is never deferred. For MCP
	// tools it comes from _meta["anthropic/alwaysLoad"] or the server entry.
	AlwaysLoad bool
	// SearchHint is a curated phrase that ToolSearch matches above the
	// description (_meta["anthropic/searchHint"] for MCP tools). It is never
	// announced.
	SearchHint string
	// Annotations are the MCP tool annotations (or a builtin's equivalent):
	// hints about what a call does, used by search and by dry runs.
	Annotations Annotations
}

// Annotations mirror MCP's ToolAnnotations. Each hint is nil when the tool
// did not say, so "not declared" stays apart from "declared false".
type Annotations struct {
	Title           string
	ReadOnlyHint    *bool
	DestructiveHint *bool
	IdempotentHint  *bool
	OpenWorldHint   *bool
}

// ReadOnly reports whether the tool declared that it does not modify its
// environment.
func (a Annotations) ReadOnly() bool { return a.ReadOnlyHint != nil && *a.ReadOnlyHint }

// Destructive reports whether the tool declared that it may destroy or
// overwrite data. Undeclared counts as not destructive: the hint is a
// signal to prefer other tools, not a safety guarantee.
func (a Annotations) Destructive() bool {
	return !a.ReadOnly() && a.DestructiveHint != nil && *a.DestructiveHint
}
