package execlua

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/execlua/execlua/sandbox"
	"github.com/execlua/execlua/search"
)

// Refusal is an error a funnel returns for a call it refused, as opposed
// to one that failed: a permission rule, a hook, a user. RefusedBy says
// who, in words a user can act on ("the deny rule \"X\" in the project
// settings (/repo/.claude/settings.json)").
type Refusal interface {
	error
	RefusedBy() string
}

// The outcomes of a CallRecord.
const (
	CallOK        = "ok"
	CallError     = "error"
	CallRefused   = "refused"
	CallAbandoned = "abandoned"
)

// CallRecord is one nested call as the run saw it, for the host's record
// (run --json, logs); never sent to the model.
type CallRecord struct {
	Name string
	// Args are the call's arguments as the funnel got them; nil for a
	// call refused before it reached the funnel.
	Args json.RawMessage
	// Server is the MCP server of the tool, "" for a builtin, ToolSearch
	// or a name outside the pool.
	Server string
	// Outcome is CallOK, CallError, CallRefused, or CallAbandoned (the
	// funnel had not returned when the run ended).
	Outcome string
	// RefusedBy says who refused a refused call (see Refusal); for the
	// run's own refusals it is "the call limit" or "the pool".
	RefusedBy string
	// Err is the error of a failed or refused call.
	Err error
	// Duration is how long the funnel took; 0 for calls it never saw.
	Duration time.Duration
}

// poolTool finds a tool of the pool by name.
func (st *state) poolTool(name string) (Tool, bool) {
	t, inPool, ok := st.asm.Lookup(name)
	return t, ok && inPool
}

// callLog collects a run's CallRecords: the funnel's calls as they start
// and end, and the calls the sandbox answers or refuses itself.
type callLog struct {
	mu      sync.Mutex
	records []CallRecord
	closed  bool
	onDone  func(CallRecord)
	st      *state
}

// funnel wraps next so that every call is recorded.
func (l *callLog) funnel(next Funnel) Funnel {
	return FunnelFunc(func(ctx context.Context, call Call) (Output, error) {
		l.mu.Lock()
		i := len(l.records)
		t, _ := l.st.poolTool(call.Name)
		l.records = append(l.records, CallRecord{Name: call.Name, Args: call.Args, Server: t.Server, Outcome: CallAbandoned})
		l.mu.Unlock()
		start := time.Now()
		out, err := next.Call(ctx, call)
		l.finish(i, err, time.Since(start))
		return out, err
	})
}

func (l *callLog) finish(i int, err error, d time.Duration) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return
	}
	r := &l.records[i]
	r.Outcome, r.RefusedBy = classify(err)
	r.Err, r.Duration = err, d
	done := *r
	l.mu.Unlock()
	if l.onDone != nil {
		l.onDone(done)
	}
}

// classify says what a call's error makes of it, and who refused it.
func classify(err error) (outcome, refusedBy string) {
	var ref Refusal
	switch {
	case err == nil:
		return CallOK, ""
	case errors.As(err, &ref):
		return CallRefused, ref.RefusedBy()
	}
	return CallError, ""
}

// sandboxCall records a call the funnel never sees: ToolSearch, answered
// by the sandbox, and calls refused before the funnel (over the call
// limit, a name outside the pool). n is the call's number in the run.
func (l *callLog) sandboxCall(name string, n, maxCalls int) {
	r := CallRecord{Name: name, Outcome: CallOK}
	_, inPool := l.st.poolTool(name)
	switch {
	case n > maxCalls:
		r.Outcome, r.RefusedBy, r.Err = CallRefused, fmt.Sprintf("the call limit (%d calls a run)", maxCalls), &sandbox.CallLimitError{Limit: maxCalls}
	case name == search.Name:
	case inPool:
		return // the funnel records it
	case l.st.denied()[name] != "":
		by := l.st.denied()[name]
		r.Outcome, r.RefusedBy, r.Err = CallRefused, by, &sandbox.UnknownToolError{Name: name, DeniedBy: by}
	default:
		r.Outcome, r.RefusedBy, r.Err = CallRefused, "the pool (no tool of that name can be called from Exec)", &sandbox.UnknownToolError{Name: name}
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return
	}
	l.records = append(l.records, r)
	l.mu.Unlock()
	if l.onDone != nil {
		l.onDone(r)
	}
}

// close ends the log and returns its records; calls still running stay
// CallAbandoned.
func (l *callLog) close() []CallRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	return l.records
}
