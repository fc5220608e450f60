package pool

import (
	"slices"

	"github.com/execlua/execlua/internal/toolname"
)

// ExecName is the name of the Exec tool. It is never deferred: it is the way
// into the pool, so it cannot be inside it.
const ExecName = toolname.Exec

// Reason names the rule of the deferral table that decided a tool.
type Reason int

// The rules, in the order Decide checks them.
const (
	// ReasonAlwaysLoad: the tool set AlwaysLoad; not deferred.
	ReasonAlwaysLoad Reason = iota
	// ReasonExempt: Exec, or a name in Options.Exempt; not deferred.
	ReasonExempt
	// ReasonRemoteList: a builtin named in Options.RemoteNonDeferred; not
	// deferred.
	ReasonRemoteList
	// ReasonLocalList: a builtin named in Options.LocalNonDeferred; not
	// deferred.
	ReasonLocalList
	// ReasonMCP: an MCP tool without AlwaysLoad; deferred.
	ReasonMCP
	// ReasonOwnIntent: no override applied; the tool's ShouldDefer decided.
	ReasonOwnIntent
)

func (r Reason) String() string {
	switch r {
	case ReasonAlwaysLoad:
		return "alwaysLoad"
	case ReasonExempt:
		return "exempt"
	case ReasonRemoteList:
		return "remote non-deferred list"
	case ReasonLocalList:
		return "local non-deferred list"
	case ReasonMCP:
		return "mcp"
	case ReasonOwnIntent:
		return "own intent"
	}
	return "unknown"
}

// Decision is the deferral table's verdict on one tool.
type Decision struct {
	Deferred bool
	Reason   Reason
}

// Decide is the deferral table: it says whether t goes into the pool (before
// permissions are applied). It reads only opts' exempt and non-deferred
// lists, never MCP connection state, so a builtin's verdict cannot change when servers come
// and go.
//
// The non-deferred lists name builtins only: an MCP tool leaves the pool
// solely by declaring AlwaysLoad itself (on the tool or its server entry), so
// the server, not the host, says when it must not be deferred. Names in the
// lists that match no tool are simply never consulted.
func Decide(t Tool, opts *Options) Decision {
	opts = opts.orDefault()
	switch {
	case t.AlwaysLoad:
		return Decision{false, ReasonAlwaysLoad}
	case t.Name == ExecName || slices.Contains(opts.Exempt, t.Name):
		return Decision{false, ReasonExempt}
	case t.Kind == Builtin && slices.Contains(opts.RemoteNonDeferred, t.Name):
		return Decision{false, ReasonRemoteList}
	case t.Kind == Builtin && slices.Contains(opts.LocalNonDeferred, t.Name):
		return Decision{false, ReasonLocalList}
	case t.Kind == MCP:
		return Decision{true, ReasonMCP}
	}
	return Decision{t.ShouldDefer, ReasonOwnIntent}
}
