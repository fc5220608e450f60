package host

import (
	"context"
	"encoding/json"
	"time"
)

// Decision says what let a call through, or stopped it, and who decided:
// what an audit log records.
type Decision struct {
	Allowed bool
	// By is who decided: "rule" (a permission rule, named in Rule),
	// "mode" (the permission mode, as no rule matched), "hook" (a
	// PreToolUse hook refused it), "user" (the Prompter answered: a person
	// at a terminal, or the answer a host gives for nobody, such as
	// serve's --yes) or "" when no check ran (an unknown tool, arguments
	// that are not an object).
	By string
	// Rule is the text of the rule that decided, when one did.
	Rule string
}

// CallRecord is one call through the funnel as an observer sees it when
// the call ends.
type CallRecord struct {
	Name string
	// Args are the arguments as performed: a PreToolUse hook's
	// replacement when there was one.
	Args     json.RawMessage
	Decision Decision
	// Err is the call's error (a refusal included); nil on success.
	Err      error
	Duration time.Duration
}

type observerKey struct{}
type recordKey struct{}

// WithObserver returns a context whose calls through Call are each told to
// observe when they end: the nested calls of a RunExec given this context
// included. RunExec also tells it of Exec itself (Name execlua.Name, the
// decision about Exec, the run's error). observe may be called from
// several goroutines at once.
func WithObserver(ctx context.Context, observe func(CallRecord)) context.Context {
	return context.WithValue(ctx, observerKey{}, observe)
}

// observed runs call under a fresh record when ctx has an observer, and
// tells the observer of it; otherwise it just runs call.
func observed[T any](ctx context.Context, name string, args json.RawMessage, call func(context.Context) (T, error)) (T, error) {
	observe, ok := ctx.Value(observerKey{}).(func(CallRecord))
	if !ok {
		return call(ctx)
	}
	rec := &CallRecord{Name: name, Args: args}
	start := time.Now()
	out, err := call(context.WithValue(ctx, recordKey{}, rec))
	rec.Err, rec.Duration = err, time.Since(start)
	observe(*rec)
	return out, err
}

// decide notes who decided the call ctx belongs to, when it is observed.
func decide(ctx context.Context, d Decision) {
	if rec, ok := ctx.Value(recordKey{}).(*CallRecord); ok {
		rec.Decision = d
	}
}

// performed notes the arguments the observed call ctx belongs to goes on
// with.
func performed(ctx context.Context, args json.RawMessage) {
	if rec, ok := ctx.Value(recordKey{}).(*CallRecord); ok {
		rec.Args = args
	}
}
