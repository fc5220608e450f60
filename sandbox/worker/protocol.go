package worker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"github.com/execlua/execlua/sandbox"
)

// Version is the protocol's version. The worker announces it first thing;
// a host that speaks another version refuses the worker.
const Version = 2

// Frame types. Worker to host: hello, call, search, schema, called,
// printed, abandon, outcome. Host to worker: run, result, cancel.
const (
	msgHello   byte = 'h' // worker: ready, with its version and pid
	msgRun     byte = 'r' // host: the one script this worker runs
	msgCall    byte = 'c' // worker: a nested call to perform (ID, Name, Args)
	msgSearch  byte = 's' // worker: a ToolSearch to answer (ID, Args)
	msgSchema  byte = 'i' // worker: the input schema of tool Name, as call ID
	msgCalled  byte = 'n' // worker: the script made a call (Name), for OnCall
	msgPrinted byte = 'p' // worker: what the log gained (Name, Lines, Chars)
	msgAbandon byte = 'a' // worker: the script no longer waits for call ID
	msgResult  byte = 'R' // host: the answer to call or search ID
	msgCancel  byte = 'x' // host: the caller cancelled the run
	msgOutcome byte = 'o' // worker: the run's outcome
)

// message is one frame in memory; only the fields of its type are set.
type message struct {
	Type    byte
	Version int
	PID     int
	ID      int
	Name    string
	Args    json.RawMessage
	Out     sandbox.Output // a result's output
	Failed  bool           // a result that is an error, with its text in Name
	Lines   []string       // printed: the lines the log kept since the last
	Chars   int            // printed: the characters printed in all
	Run     *runRequest
	Outcome *wireOutcome
}

// Frames are a 4-byte big-endian length, then the type, then the body.
// The rare frames (hello, run, outcome) have a JSON body; the frequent
// ones a compact binary one, so that a nested call's round trip costs
// little besides the two pipe writes: numbers as uvarints, byte strings
// as a uvarint length and the bytes.
//
//	hello   JSON {"v": version, "pid": pid}
//	run     JSON runRequest
//	outcome JSON wireOutcome
//	call    id, name, args
//	search  id, args
//	schema  id, name (answered by a result whose structured content is
//	        the schema)
//	called  name
//	printed characters in all, the text the log gained, the count of
//	        lines it kept since and each
//	abandon id
//	cancel  (empty)
//	result  id, flags (1 failed, 2 structured), then the error's text, or
//	        the structured content, the count of text blocks and each,
//	        the count of images and each one's MIME type and data
const maxFrame = 256 << 20

// errFrameTooLarge refuses to send a frame over maxFrame.
var errFrameTooLarge = fmt.Errorf("a frame over the protocol's limit of %d MiB", maxFrame>>20)

type hello struct {
	Version int `json:"v"`
	PID     int `json:"pid"`
}

func (m *message) marshal(b []byte) ([]byte, error) {
	b = append(b, 0, 0, 0, 0, m.Type)
	var err error
	switch m.Type {
	case msgHello:
		b, err = appendJSON(b, hello{Version: m.Version, PID: m.PID})
	case msgRun:
		b, err = appendJSON(b, m.Run)
	case msgOutcome:
		b, err = appendJSON(b, m.Outcome)
	case msgCall:
		b = appendBytes(binary.AppendUvarint(b, uint64(m.ID)), m.Name)
		b = append(b, m.Args...)
	case msgSearch:
		b = append(binary.AppendUvarint(b, uint64(m.ID)), m.Args...)
	case msgSchema:
		b = append(binary.AppendUvarint(b, uint64(m.ID)), m.Name...)
	case msgCalled:
		b = append(b, m.Name...)
	case msgPrinted:
		b = appendBytes(binary.AppendUvarint(b, uint64(m.Chars)), m.Name)
		b = binary.AppendUvarint(b, uint64(len(m.Lines)))
		for _, line := range m.Lines {
			b = appendBytes(b, line)
		}
	case msgAbandon:
		b = binary.AppendUvarint(b, uint64(m.ID))
	case msgResult:
		b = binary.AppendUvarint(b, uint64(m.ID))
		var flags byte
		if m.Failed {
			flags |= 1
		}
		if m.Out.Structured != nil {
			flags |= 2
		}
		b = append(b, flags)
		if m.Failed {
			b = append(b, m.Name...)
			break
		}
		if m.Out.Structured != nil {
			b = appendBytes(b, string(m.Out.Structured))
		}
		b = binary.AppendUvarint(b, uint64(len(m.Out.Text)))
		for _, t := range m.Out.Text {
			b = appendBytes(b, t)
		}
		b = binary.AppendUvarint(b, uint64(len(m.Out.Images)))
		for _, img := range m.Out.Images {
			b = appendBytes(appendBytes(b, img.MIMEType), img.Data)
		}
	}
	if err != nil {
		return nil, err
	}
	if len(b)-4 > maxFrame {
		return nil, errFrameTooLarge
	}
	binary.BigEndian.PutUint32(b, uint32(len(b)-4))
	return b, nil
}

func appendJSON(b []byte, v any) ([]byte, error) {
	js, err := json.Marshal(v)
	return append(b, js...), err
}

func appendBytes(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// unmarshal reads a frame (its type, then its body). It copies what it
// keeps, so the frame's buffer may be reused.
func unmarshal(frame []byte) (*message, error) {
	if len(frame) == 0 {
		return nil, errors.New("an empty frame")
	}
	m := &message{Type: frame[0]}
	d := decoder{b: frame[1:]}
	switch m.Type {
	case msgHello:
		var h hello
		d.json(&h)
		m.Version, m.PID = h.Version, h.PID
	case msgRun:
		m.Run = new(runRequest)
		d.json(m.Run)
	case msgOutcome:
		m.Outcome = new(wireOutcome)
		d.json(m.Outcome)
	case msgCall:
		m.ID, m.Name, m.Args = d.int(), d.string(), d.rest()
	case msgSearch:
		m.ID, m.Args = d.int(), d.rest()
	case msgSchema:
		m.ID, m.Name = d.int(), string(d.rest())
	case msgCalled:
		m.Name = string(d.rest())
	case msgPrinted:
		m.Chars, m.Name = d.count(), d.string()
		for n := d.int(); n > 0 && d.err == nil; n-- {
			m.Lines = append(m.Lines, d.string())
		}
	case msgAbandon:
		m.ID = d.int()
	case msgCancel:
	case msgResult:
		m.ID = d.int()
		flags := d.byte()
		m.Failed = flags&1 != 0
		if m.Failed {
			m.Name = string(d.rest())
			break
		}
		if flags&2 != 0 {
			m.Out.Structured = json.RawMessage(d.string())
		}
		for n := d.int(); n > 0 && d.err == nil; n-- {
			m.Out.Text = append(m.Out.Text, d.string())
		}
		for n := d.int(); n > 0 && d.err == nil; n-- {
			m.Out.Images = append(m.Out.Images, sandbox.Image{MIMEType: d.string(), Data: d.string()})
		}
	default:
		return nil, fmt.Errorf("a frame of unknown type %q", m.Type)
	}
	if d.err != nil {
		return nil, fmt.Errorf("a malformed %q frame: %w", m.Type, d.err)
	}
	return m, nil
}

// decoder reads a binary body; the first error sticks.
type decoder struct {
	b   []byte
	err error
}

var errShort = errors.New("the body ends early")

func (d *decoder) int() int {
	v, n := binary.Uvarint(d.b)
	if n <= 0 || v > maxFrame {
		d.fail(errShort)
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

// count reads a number that is no length: only its range is checked.
func (d *decoder) count() int {
	v, n := binary.Uvarint(d.b)
	if n <= 0 || v > math.MaxInt32<<16 {
		d.fail(errShort)
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.fail(errShort)
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) string() string {
	n := d.int()
	if n > len(d.b) {
		d.fail(errShort)
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) rest() []byte {
	r := bytes.Clone(d.b)
	d.b = nil
	return r
}

func (d *decoder) json(v any) {
	if err := json.Unmarshal(d.b, v); err != nil {
		d.fail(err)
	}
}

func (d *decoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// runRequest is a sandbox.Request without its functions: the worker learns
// the tools' names and whether the host has a funnel and a search, and
// asks through the pipe, for a tool's input schema too (at its first call
// with arguments: most runs call few of the tools they may reach).
type runRequest struct {
	Code         string
	Tools        []string
	Denied       map[string]string `json:",omitempty"`
	SearchSchema json.RawMessage   `json:",omitempty"`
	HasFunnel    bool
	HasSearch    bool
	Options      sandbox.Options
}

// wireOutcome is a sandbox.Outcome with its error in a form that survives
// the trip; the embedded Outcome's own Err is shadowed and travels as nil.
type wireOutcome struct {
	sandbox.Outcome
	Err *wireError `json:"Err,omitempty"`
}

func encodeOutcome(out sandbox.Outcome) *wireOutcome {
	return &wireOutcome{Outcome: out, Err: encodeError(out.Err)}
}

// decode is the outcome on the host side; hostErrs restores the funnel's
// own errors by call id.
func (w *wireOutcome) decode(ctx context.Context, hostErrs func(id int) error) sandbox.Outcome {
	out := w.Outcome
	out.Err = decodeError(ctx, w.Err, hostErrs)
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
// (safe for concurrent senders), frames in from a buffered reader (one
// reader at a time).
type conn struct {
	mu  sync.Mutex
	w   *bufio.Writer
	buf []byte // the frame being written, reused

	r    *bufio.Reader
	body []byte // the frame being read, reused
}

func newConn(r io.Reader, w io.Writer) *conn {
	return &conn{w: bufio.NewWriterSize(w, 16<<10), r: bufio.NewReaderSize(r, 16<<10)}
}

// send writes m; flush false leaves it in the buffer to go with the next
// flushed frame (a notification that needs no answer).
func (c *conn) send(m *message, flush bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	frame, err := m.marshal(c.buf[:0])
	if err != nil {
		return err
	}
	c.buf = frame
	if cap(c.buf) > 1<<20 {
		c.buf = nil // a large frame's buffer is not kept
	}
	if _, err := c.w.Write(frame); err != nil {
		return err
	}
	if flush {
		return c.w.Flush()
	}
	return nil
}

// flush writes what send left in the buffer.
func (c *conn) flush() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.w.Flush()
}

// buffered reports whether bytes of a next frame have been read already.
func (c *conn) buffered() bool { return c.r.Buffered() > 0 }

func (c *conn) receive() (*message, error) {
	var head [4]byte
	if _, err := io.ReadFull(c.r, head[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(head[:])
	if n > maxFrame {
		return nil, fmt.Errorf("a frame of %d bytes is over the protocol's limit of %d", n, maxFrame)
	}
	var body []byte
	var err error
	if n <= 1<<20 {
		if cap(c.body) < int(n) {
			c.body = make([]byte, max(n, 4<<10))
		}
		body = c.body[:n]
		_, err = io.ReadFull(c.r, body)
	} else {
		// A large frame grows as its bytes arrive: a length alone
		// allocates nothing.
		body, err = io.ReadAll(io.LimitReader(c.r, int64(n)))
		if err == nil && len(body) < int(n) {
			err = io.ErrUnexpectedEOF
		}
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return nil, err
	}
	return unmarshal(body)
}
