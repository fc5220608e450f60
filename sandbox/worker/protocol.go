package worker

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/execlua/execlua/sandbox"
)

// Version is the protocol's version. The worker announces it first thing;
// a host that speaks another version refuses the worker.
const Version = 1

// Message types. Worker to host: hello, call, search, called, outcome.
// Host to worker: run, result, cancel.
const (
	msgHello   = "hello"   // worker: ready, with its version and pid
	msgRun     = "run"     // host: the one script this worker runs
	msgCall    = "call"    // worker: a nested call to perform (ID, Name, Args)
	msgSearch  = "search"  // worker: a ToolSearch to answer (ID, Args)
	msgCalled  = "called"  // worker: the script made a call (Name), for OnCall
	msgAbandon = "abandon" // worker: the script no longer waits for call ID
	msgResult  = "result"  // host: the answer to call or search ID
	msgCancel  = "cancel"  // host: the caller cancelled the run
	msgOutcome = "outcome" // worker: the run's outcome; the worker then exits
)

// message is one frame: a JSON object on one line. Only the fields of its
// type are set.
type message struct {
	Type    string          `json:"t"`
	Version int             `json:"v,omitempty"`
	PID     int             `json:"pid,omitempty"`
	ID      int             `json:"id,omitempty"`
	Name    string          `json:"name,omitempty"`
	Args    json.RawMessage `json:"args,omitempty"`
	Out     *wireOutput     `json:"out,omitempty"`
	Err     *wireError      `json:"err,omitempty"`
	Run     *runRequest     `json:"run,omitempty"`
	Outcome *wireOutcome    `json:"outcome,omitempty"`
}

// wireOutput is a sandbox.Output with its structured content as text, so
// that none (nil) and a JSON null stay apart.
type wireOutput struct {
	Structured    string          `json:"structured,omitempty"`
	HasStructured bool            `json:"has,omitempty"`
	Text          []string        `json:"text,omitempty"`
	Images        []sandbox.Image `json:"images,omitempty"`
}

func encodeOutput(out sandbox.Output) *wireOutput {
	return &wireOutput{Structured: string(out.Structured), HasStructured: out.Structured != nil, Text: out.Text, Images: out.Images}
}

func (w *wireOutput) decode() sandbox.Output {
	out := sandbox.Output{Text: w.Text, Images: w.Images}
	if w.HasStructured {
		out.Structured = json.RawMessage(w.Structured)
	}
	return out
}

// runRequest is a sandbox.Request without its functions: the worker learns
// only whether the host has a funnel and a search, and asks through the
// pipe.
type runRequest struct {
	Code         string
	Tools        []sandbox.Tool
	SearchSchema json.RawMessage
	HasFunnel    bool
	HasSearch    bool
	Options      sandbox.Options
}

// wireOutcome is a sandbox.Outcome with its error in a form that survives
// the trip, and its Value as text so that no value (nil) and a JSON null
// stay apart; the embedded Outcome's own Err and Value are shadowed.
type wireOutcome struct {
	sandbox.Outcome
	Err     *wireError `json:"Err,omitempty"`
	Value   string     `json:"Value,omitempty"`
	NoValue bool       `json:"NoValue,omitempty"`
}

func encodeOutcome(out sandbox.Outcome) *wireOutcome {
	return &wireOutcome{Outcome: out, Err: encodeError(out.Err), Value: string(out.Value), NoValue: out.Value == nil}
}

// decode is the outcome on the host side; hostErrs restores the funnel's
// own errors by call id.
func (w *wireOutcome) decode(ctx context.Context, hostErrs func(id int) error) sandbox.Outcome {
	out := w.Outcome
	out.Err = decodeError(ctx, w.Err, hostErrs)
	if !w.NoValue {
		out.Value = json.RawMessage(w.Value)
	}
	return out
}

// Error kinds: one per sentinel of package sandbox, "call" for an error the
// host's funnel or search returned (kept on the host side and restored by
// call ID), and "other" for the rest.
const (
	kindBudget     = "budget"
	kindNestedWait = "nested-wait"
	kindMemory     = "memory"
	kindCallLimit  = "call-limit"
	kindUnknown    = "unknown-tool"
	kindScript     = "script"
	kindCanceled   = "canceled"
	kindCrashed    = "crashed"
	kindNoFunnel   = "no-funnel"
	kindCall       = "call"
	kindOther      = "other"
)

// wireError is an error of a run as it crosses the pipe: its kind, its
// message, the number its typed form carries, and its cause.
type wireError struct {
	Kind    string     `json:"kind"`
	Message string     `json:"msg"`
	Limit   int64      `json:"limit,omitempty"`
	Name    string     `json:"name,omitempty"`
	CallID  int        `json:"call,omitempty"`
	Cause   *wireError `json:"cause,omitempty"`
}

// encodeError flattens err for the pipe. A *hostError (an error the host
// sent for a call) becomes a reference to that call.
func encodeError(err error) *wireError {
	if err == nil {
		return nil
	}
	w := &wireError{Kind: kindOther, Message: err.Error()}
	var (
		host    *hostError
		budget  *sandbox.BudgetError
		wait    *sandbox.NestedWaitError
		memory  *sandbox.MemoryError
		limit   *sandbox.CallLimitError
		unknown *sandbox.UnknownToolError
		script  *sandbox.ScriptError
	)
	switch {
	case errors.As(err, &script):
		w.Kind, w.Message, w.Cause = kindScript, script.Message, encodeError(script.Cause)
	case errors.As(err, &host):
		w.Kind, w.CallID = kindCall, host.id
	case errors.As(err, &budget):
		w.Kind, w.Limit = kindBudget, int64(budget.Budget)
	case errors.As(err, &wait):
		w.Kind, w.Limit = kindNestedWait, int64(wait.Limit)
	case errors.As(err, &memory):
		w.Kind, w.Limit = kindMemory, int64(memory.Limit)
	case errors.As(err, &limit):
		w.Kind, w.Limit = kindCallLimit, int64(limit.Limit)
	case errors.As(err, &unknown):
		w.Kind, w.Name = kindUnknown, unknown.Name
	case errors.Is(err, sandbox.ErrCanceled):
		w.Kind = kindCanceled
	case errors.Is(err, sandbox.ErrCrashed):
		w.Kind = kindCrashed
	case errors.Is(err, sandbox.ErrNoFunnel):
		w.Kind = kindNoFunnel
	}
	return w
}

// decodeError rebuilds the error on the host side: the same typed errors
// and sentinels as in-process, the funnel's own errors from hostErrs, and
// a cancellation carrying the caller's cause.
func decodeError(ctx context.Context, w *wireError, hostErrs func(id int) error) error {
	if w == nil {
		return nil
	}
	switch w.Kind {
	case kindScript:
		return &sandbox.ScriptError{Message: w.Message, Cause: decodeError(ctx, w.Cause, hostErrs)}
	case kindCall:
		if err := hostErrs(w.CallID); err != nil {
			return err
		}
	case kindBudget:
		return &sandbox.BudgetError{Budget: time.Duration(w.Limit)}
	case kindNestedWait:
		return &sandbox.NestedWaitError{Limit: time.Duration(w.Limit)}
	case kindMemory:
		return &sandbox.MemoryError{Limit: int(w.Limit)}
	case kindCallLimit:
		return &sandbox.CallLimitError{Limit: int(w.Limit)}
	case kindUnknown:
		return &sandbox.UnknownToolError{Name: w.Name}
	case kindCanceled:
		return canceled(ctx)
	case kindCrashed:
		return &remoteError{msg: w.Message, sentinel: sandbox.ErrCrashed}
	case kindNoFunnel:
		return sandbox.ErrNoFunnel
	}
	return errors.New(w.Message)
}

// canceled is the error of a run its caller cancelled, as package sandbox
// reports it.
func canceled(ctx context.Context) error {
	return fmt.Errorf("%w: %w", sandbox.ErrCanceled, context.Cause(ctx))
}

// remoteError is an error that happened in the worker: its text as the
// worker wrote it, matching the sentinel of its kind.
type remoteError struct {
	msg      string
	sentinel error
}

func (e *remoteError) Error() string { return e.msg }
func (e *remoteError) Unwrap() error { return e.sentinel }

// hostError is, in the worker, an error the host returned for a call: the
// script sees its text, and the host gets its own error back by id.
type hostError struct {
	id  int
	msg string
}

func (e *hostError) Error() string { return e.msg }

// conn is one end of the pipe pair: frames out through a buffered writer
// (safe for concurrent senders), frames in through a decoder (one reader).
type conn struct {
	mu  sync.Mutex
	w   *bufio.Writer
	enc *json.Encoder
	dec *json.Decoder
}

func newConn(r io.Reader, w io.Writer) *conn {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &conn{w: bw, enc: enc, dec: json.NewDecoder(bufio.NewReaderSize(r, 64<<10))}
}

// send writes m; flush false leaves it in the buffer to go with the next
// flushed frame (a notification that needs no answer).
func (c *conn) send(m *message, flush bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.enc.Encode(m); err != nil {
		return err
	}
	if flush {
		return c.w.Flush()
	}
	return nil
}

func (c *conn) receive() (*message, error) {
	var m message
	if err := c.dec.Decode(&m); err != nil {
		return nil, err
	}
	return &m, nil
}
