package execlua

import (
	"github.com/execlua/execlua/announce"
	"github.com/execlua/execlua/pool"
	"github.com/execlua/execlua/preflight"
	"github.com/execlua/execlua/sandbox"
)

// The types a host meets, re-exported so that hosting Exec takes this one
// import. Each is defined, and documented, in the package named.
type (
	// Tool describes one registered tool (pool.Tool). Build MCP tools with
	// NewMCPTool and builtins with NewBuiltinTool.
	Tool = pool.Tool
	// Kind says where a tool comes from: Builtin or MCP.
	Kind = pool.Kind
	// Annotations are a tool's MCP annotations (pool.Annotations).
	Annotations = pool.Annotations
	// ToolDeclaration is one entry of tools[] (pool.Declaration).
	ToolDeclaration = pool.Declaration
	// Guidance is a system-prompt line keyed by tool name (pool.Guidance).
	Guidance = pool.Guidance
	// Assembly answers which tools a request declares, pools or leaves
	// out (pool.Assembly).
	Assembly = pool.Assembly
	// ExecStatus says whether Exec is declared and, if not, why.
	ExecStatus = pool.ExecStatus

	// Funnel is the host's one way of performing a tool call: permission
	// check, PreToolUse hook, execution, PostToolUse hook (sandbox.Funnel).
	Funnel = sandbox.Funnel
	// FunnelFunc adapts a function to Funnel.
	FunnelFunc = sandbox.FunnelFunc
	// Call is one nested call as the funnel receives it.
	Call = sandbox.Call
	// Output is what a tool returned to the funnel.
	Output = sandbox.Output
	// Image is one image block of a tool's output.
	Image = sandbox.Image
	// Limits bound every run of a Session (sandbox.Options); zero fields
	// take the defaults.
	Limits = sandbox.Options
	// Timings say where a run's time went: compiling, the script's own
	// time, waiting for tools.
	Timings = sandbox.Timings
	// BudgetError, ScriptError and the other typed errors of a failed run
	// are the sandbox's; Result.Err wraps them.
	BudgetError = sandbox.BudgetError
	ScriptError = sandbox.ScriptError

	// Message is one conversation message as the announcement decision
	// reads it (announce.Message).
	Message = announce.Message
	// Announcement is an isMeta message to append to the conversation.
	Announcement = announce.Announcement
)

// The kinds of Tool.
const (
	Builtin = pool.Builtin
	MCP     = pool.MCP
)

// MCPPrefix starts the name of every MCP tool: mcp__<server>__<tool>.
const MCPPrefix = pool.MCPPrefix

// Why Exec is or is not declared (Request.Assembly.Exec).
const (
	ExecDeclared  = pool.ExecDeclared
	ExecDisabled  = pool.ExecDisabled
	ExecDenied    = pool.ExecDenied
	ExecEmptyPool = pool.ExecEmptyPool
)

// The sentinels a host matches with errors.Is, re-exported from the
// packages that return them.
var (
	// Result.Err of a failed run (besides ErrInvalidInput and
	// ErrUnavailable).
	ErrBudgetExceeded     = sandbox.ErrBudgetExceeded
	ErrCanceled           = sandbox.ErrCanceled
	ErrCrashed            = sandbox.ErrCrashed
	ErrNestedWaitExceeded = sandbox.ErrNestedWaitExceeded
	ErrMemoryExceeded     = sandbox.ErrMemoryExceeded
	ErrScript             = sandbox.ErrScript
	ErrCallLimit          = sandbox.ErrCallLimit
	ErrUnknownTool        = sandbox.ErrUnknownTool
	// ErrPreflight is a script refused before it ran: a literal call
	// that cannot work (Options.Preflight).
	ErrPreflight = preflight.ErrRefused

	// New, SetTools and SetSettings refusing a registry.
	ErrEmptyName     = pool.ErrEmptyName
	ErrDuplicateName = pool.ErrDuplicateName
	ErrReservedName  = pool.ErrReservedName
)
