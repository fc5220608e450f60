package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"

	"github.com/execlua/execlua"
)

// PermissionQuestion is what the user is asked before a call no rule
// allows. A nested call asks exactly what a flat call of the same tool
// asks (PERM-1): the leaf tool and its arguments, never Exec.
type PermissionQuestion struct {
	Tool execlua.Tool
	Args json.RawMessage
	// Why says why the user is asked: no rule matched, an ask rule
	// matched (named), or a hook asked.
	Why string
	// Rule is the allow rule AllowAlways saves: the tool's full name.
	Rule string
	// Cause says who wants the user asked. A prompter that answers
	// without asking (the CLI's --yes) answers only NoRuleMatched: an ask
	// rule or a hook asked for a person.
	Cause AskCause
}

// AskCause says why a question is put to the user.
type AskCause int

// The causes.
const (
	// NoRuleMatched: no rule allows or denies the call.
	NoRuleMatched AskCause = iota
	// AskRuleMatched: an ask rule names the call.
	AskRuleMatched
	// HookAsked: a PreToolUse hook answered "ask".
	HookAsked
)

// PermissionAnswer is the user's answer.
type PermissionAnswer int

// The answers.
const (
	// Deny refuses this call.
	Deny PermissionAnswer = iota
	// AllowOnce lets this call through.
	AllowOnce
	// AllowAlways lets this call through and saves the question's Rule in
	// the local settings file ("yes, don't ask again").
	AllowAlways
)

func (a PermissionAnswer) String() string {
	return [...]string{"deny", "allow once", "allow always"}[a]
}

// Prompter asks the user. Calls are made one at a time. An error counts
// as Deny, with the error's text as the reason.
type Prompter interface {
	Ask(ctx context.Context, q PermissionQuestion) (PermissionAnswer, error)
}

// PrompterFunc adapts a function to Prompter.
type PrompterFunc func(ctx context.Context, q PermissionQuestion) (PermissionAnswer, error)

// Ask calls f.
func (f PrompterFunc) Ask(ctx context.Context, q PermissionQuestion) (PermissionAnswer, error) {
	return f(ctx, q)
}

// Executor performs a call after the permission check and the PreToolUse
// hooks: the MCP client for MCP tools, Options.Builtin for builtins.
type Executor func(ctx context.Context, tool execlua.Tool, call execlua.Call) (execlua.Output, error)

// sessionKey and toolUseKey carry what WithSession and WithToolUseID
// give a call's hooks.
type (
	sessionKey   struct{}
	toolUseKey   struct{}
	conversation struct{ id, transcript string }
)

// WithSession returns a context whose calls tell their hooks this
// session_id and transcript_path, in place of the host's: a host serving
// several conversations passes each its own, stable across its calls.
func WithSession(ctx context.Context, sessionID, transcriptPath string) context.Context {
	return context.WithValue(ctx, sessionKey{}, conversation{sessionID, transcriptPath})
}

// WithToolUseID returns a context whose call tells its hooks this
// tool_use_id: a host passes the model's id of a flat call. Without it
// every call, nested ones included, gets a new id of its own.
func WithToolUseID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, toolUseKey{}, id)
}

// newID is prefix and 24 random hex digits.
func newID(prefix string) string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return prefix + hex.EncodeToString(b[:])
}

// messageSink carries where a call's isMeta messages go.
type messageSink struct{}

// WithMessages returns a context whose calls hand the isMeta messages
// their PostToolUse hooks produce (HOOK-3) to add, instead of
// Options.OnMessage: a host serving several conversations passes each
// run's own.
func WithMessages(ctx context.Context, add func(text string)) context.Context {
	return context.WithValue(ctx, messageSink{}, add)
}
