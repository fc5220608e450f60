package gateway

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/serve"
)

// DefaultMaxAuditArgs caps the arguments an audit line keeps, in bytes.
const DefaultMaxAuditArgs = 2048

// Audit writes one JSON line for every Exec call and every call through
// the host's funnel: who asked (client, session, remote address), what
// (tool, arguments capped), who decided and what (rule, mode, hook or
// user; allow or deny), the outcome and the duration. It is a
// serve.Observer. A line is written whole with one Write, in the order
// the calls end.
type Audit struct {
	mu      sync.Mutex
	w       io.Writer
	maxArgs int
	now     func() time.Time
	onError func(error)
}

// AuditOptions configure an Audit; the zero value (and nil) keeps
// DefaultMaxAuditArgs bytes of arguments and ignores write errors.
type AuditOptions struct {
	MaxArgs int
	// OnError is told when a line could not be written.
	OnError func(error)
}

// NewAudit returns an audit log writing to w.
func NewAudit(w io.Writer, opts *AuditOptions) *Audit {
	a := &Audit{w: w, maxArgs: DefaultMaxAuditArgs, now: time.Now, onError: func(error) {}}
	if opts != nil {
		if opts.MaxArgs > 0 {
			a.maxArgs = opts.MaxArgs
		}
		if opts.OnError != nil {
			a.onError = opts.OnError
		}
	}
	return a
}

// AuditLine is one line of the audit log.
type AuditLine struct {
	Time    time.Time `json:"time"`
	Event   string    `json:"event"` // "exec" or "call"
	Client  string    `json:"client,omitempty"`
	Session string    `json:"session,omitempty"`
	Remote  string    `json:"remote,omitempty"`
	Tool    string    `json:"tool"`
	// Args are the arguments as JSON, or ArgsCut is set and Args is the
	// first bytes of them as a string.
	Args     json.RawMessage `json:"args,omitempty"`
	ArgsCut  bool            `json:"args_cut,omitempty"`
	Decision string          `json:"decision,omitempty"` // "allow" or "deny"; "" when nothing was decided
	By       string          `json:"decided_by,omitempty"`
	Rule     string          `json:"rule,omitempty"`
	Outcome  string          `json:"outcome"` // "ok" or "error"
	Error    string          `json:"error,omitempty"`
	Kind     string          `json:"error_kind,omitempty"`
	Calls    *int            `json:"calls,omitempty"` // an Exec run's nested calls
	Millis   float64         `json:"duration_ms"`
}

// Run writes an Exec call's line (serve.Observer).
func (a *Audit) Run(rec serve.RunRecord) {
	calls := len(rec.Result.Calls)
	line := a.line("exec", rec.Client, "Exec", rec.Input, rec.Decision, rec.Result.Err, rec.Duration)
	if rec.Result.IsError && line.Outcome == "ok" {
		line.Outcome = "error"
	}
	line.Calls = &calls
	a.write(line)
}

// Call writes a funnel call's line (serve.Observer).
func (a *Audit) Call(c serve.Client, rec host.CallRecord) {
	a.write(a.line("call", c, rec.Name, rec.Args, rec.Decision, rec.Err, rec.Duration))
}

func (a *Audit) line(event string, c serve.Client, tool string, args json.RawMessage, d host.Decision, err error, took time.Duration) AuditLine {
	l := AuditLine{Time: a.now().UTC(), Event: event, Client: c.ID, Session: c.Session, Remote: c.Remote, Tool: tool,
		By: d.By, Rule: d.Rule, Outcome: "ok", Millis: float64(took.Microseconds()) / 1000}
	l.Args, l.ArgsCut = capArgs(args, a.maxArgs)
	if d.By != "" {
		l.Decision = "deny"
		if d.Allowed {
			l.Decision = "allow"
		}
	}
	if err != nil {
		l.Outcome, l.Error, l.Kind = "error", err.Error(), ErrorKind(err)
	}
	return l
}

// capArgs keeps args whole when they are short JSON, else their first max
// bytes as a JSON string.
func capArgs(args json.RawMessage, max int) (json.RawMessage, bool) {
	if len(args) <= max && json.Valid(args) {
		return args, false
	}
	cut := string(args[:min(len(args), max)])
	out, _ := json.Marshal(cut) // a string always encodes; invalid UTF-8 is replaced
	return out, true
}

func (a *Audit) write(l AuditLine) {
	data, err := json.Marshal(l)
	if err == nil {
		a.mu.Lock()
		_, err = a.w.Write(append(data, '\n'))
		a.mu.Unlock()
	}
	if err != nil {
		a.onError(err)
	}
}

// Log is a serve.Observer that logs through slog: each Exec call at Info
// (Warn when it failed), each funnel call at Debug.
type Log struct{ Logger *slog.Logger }

// Run logs an Exec call.
func (l Log) Run(rec serve.RunRecord) {
	level := slog.LevelInfo
	if rec.Result.IsError {
		level = slog.LevelWarn
	}
	l.Logger.Log(context.Background(), level, "exec", "client", rec.Client.ID, "session", rec.Client.Session, "remote", rec.Client.Remote,
		"calls", len(rec.Result.Calls), "error", errText(rec.Result.Err), "kind", ErrorKind(rec.Result.Err), "duration", rec.Duration)
}

// Call logs a funnel call.
func (l Log) Call(c serve.Client, rec host.CallRecord) {
	l.Logger.Debug("call", "client", c.ID, "session", c.Session, "tool", rec.Name, "allowed", rec.Decision.Allowed,
		"decided_by", rec.Decision.By, "error", errText(rec.Err), "duration", rec.Duration)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
