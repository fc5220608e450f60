package sandbox

import (
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/execlua/execlua/internal/luavm"
)

// Sentinels for the ways a run ends early; errors.Is works on Outcome.Err.
var (
	ErrBudgetExceeded     = errors.New("execution budget exceeded")
	ErrCanceled           = errors.New("run canceled")
	ErrCrashed            = errors.New("sandbox crashed")
	ErrNestedWaitExceeded = errors.New("nested-call wait cap exceeded")
	ErrMemoryExceeded     = errors.New("memory limit exceeded")
	ErrCallLimit          = errors.New("nested call limit reached")
	ErrUnknownTool        = errors.New("tool not in this session's catalogue")
	ErrScript             = errors.New("script error")
	ErrNoFunnel           = errors.New("this host performs no tool calls")
)

// BudgetError ends a run whose script ran past its budget.
type BudgetError struct{ Budget time.Duration }

func (e *BudgetError) Error() string {
	return fmt.Sprintf("the script ran over its execution budget (%v of script time; waiting for tool calls does not count) and was stopped; tool calls it completed still apply", e.Budget)
}
func (e *BudgetError) Unwrap() error { return ErrBudgetExceeded }

// NestedWaitError ends a run that waited longer than MaxNestedWait.
type NestedWaitError struct{ Limit time.Duration }

func (e *NestedWaitError) Error() string {
	return fmt.Sprintf("the script waited for tool calls longer than the cap of %v and was stopped; tool calls it completed still apply", e.Limit)
}
func (e *NestedWaitError) Unwrap() error { return ErrNestedWaitExceeded }

// MemoryError ends a run whose script grew the heap past MaxMemory.
type MemoryError struct{ Limit int }

func (e *MemoryError) Error() string {
	return fmt.Sprintf("the script used more than %d MiB of memory and was stopped; tool calls it completed still apply", e.Limit>>20)
}
func (e *MemoryError) Unwrap() error { return ErrMemoryExceeded }

// CallLimitError refuses one nested call beyond MaxCalls; the script can
// catch it and go on.
type CallLimitError struct{ Limit int }

func (e *CallLimitError) Error() string {
	return fmt.Sprintf("nested call limit reached: a script may make at most %d tool calls, so this call was not made", e.Limit)
}
func (e *CallLimitError) Unwrap() error { return ErrCallLimit }

// UnknownToolError refuses a call to an mcp__ name outside the pool. Its
// message shows at most the first maxNameShown characters of the name.
type UnknownToolError struct {
	Name string
	// DeniedBy says who denied the tool when the host's permission filter
	// left it out (Request.Denied); "" for a name the host does not have.
	DeniedBy string
}

func (e *UnknownToolError) Error() string {
	if e.DeniedBy != "" {
		return fmt.Sprintf("Permission to use %s has been denied by %s, so it is not among the tools scripts can call.", shownName(e.Name), e.DeniedBy)
	}
	return fmt.Sprintf("%s is not reachable: only this session's catalogued tools can be called from Exec; find them with tools.%s{ query = \"...\" }", shownName(e.Name), SearchName)
}
func (e *UnknownToolError) Unwrap() error { return ErrUnknownTool }

// maxNameShown bounds a name a script wrote when a message repeats it:
// a name of megabytes is no tool's.
const maxNameShown = 200

// shownName is name as a message repeats it: cut at maxNameShown
// characters, saying how long it was.
func shownName(name string) string {
	if len(name) <= maxNameShown {
		return name
	}
	return luavm.CutRunes(name, maxNameShown) + fmt.Sprintf("… (a name of %d bytes)", len(name))
}

// CutMessage bounds an error's message at keep characters (a script's
// error, whatever it raised; see Options.MaxErrorChars), noting the cut
// and the full length.
func CutMessage(msg string, keep int) string {
	if len(msg) <= keep { // never more characters than bytes
		return msg
	}
	chars := utf8.RuneCountInString(msg)
	if chars <= keep {
		return msg
	}
	return luavm.CutRunes(msg, keep) + fmt.Sprintf("\n[Error message truncated: it was %d characters long.]", chars)
}

// ScriptError is a script that failed on its own: a syntax error, an
// uncaught error() or a refused nested call it did not catch. Cause is the
// nested call's error when the message came from one.
type ScriptError struct {
	Message string
	Cause   error
}

func (e *ScriptError) Error() string { return e.Message }

// Is makes errors.Is(err, ErrScript) hold; Unwrap reaches the cause.
func (e *ScriptError) Is(target error) bool { return target == ErrScript }
func (e *ScriptError) Unwrap() error        { return e.Cause }
