package execlua

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/execlua/execlua/pool"
	"github.com/execlua/execlua/sandbox"
	"github.com/execlua/execlua/search"
)

// ErrUnavailable is a run refused because Exec is not declared at the time
// of the call: switched off, denied, or no catalogued tool left. No sandbox
// starts.
var ErrUnavailable = errors.New("Exec is not available")

// RunOptions adjust one run on top of the Session's limits. The zero value
// (and nil) runs with the Session's limits and no progress callback.
type RunOptions struct {
	// Budget replaces Limits.Budget for this run when positive.
	Budget time.Duration
	// MaxCalls replaces Limits.MaxCalls for this run when positive.
	MaxCalls int
	// Progress, when not nil, gets the summary again at every nested call,
	// before the script ends (SUM-4). It runs on the script's goroutine,
	// inside the script's budget, so it must return quickly.
	Progress func(summary string)
	// OnCallDone, when not nil, gets each nested call's record as soon as
	// its outcome is known: to show a refusal as it happens. It may run on
	// any goroutine, several at once, and must return quickly.
	OnCallDone func(CallRecord)
}

// Result is one Exec call's outcome: what the model gets (Text, Images,
// IsError) and what only the host keeps (the rest).
type Result struct {
	// Text is the tool result's text, never empty.
	Text string
	// Images are the images nested calls returned, capped by the limits.
	Images []Image
	// IsError marks a failed call: invalid input, Exec unavailable, or a
	// script that did not finish (error, budget, cancellation, crash).
	IsError bool

	// Summary is the summary for the user (SUM-1..6), lines joined by
	// "\n": the count ("1 tool call", "N tool calls"), with "... " in
	// front when more than two calls were made, then the last two names,
	// one a line; "0 tool calls" alone when none was made; "failed" for a
	// run that did not finish. Never sent to the model.
	Summary string
	// Calls is the host-side record of the nested calls' names, in order,
	// repeats and refused calls included (over the call limit, refused by
	// the funnel, a name outside the pool): what "was tool X called"
	// checks read (SUM-7, SUM-9, SUM-10). Never sent to the model.
	Calls []string
	// Records are the nested calls with their arguments, server, outcome
	// (ok, error, refused and by whom) and duration, in the order they
	// were made. Never sent to the model.
	Records []CallRecord
	// Abandoned names the nested calls whose funnel had not returned when
	// the run ended (a funnel ignoring its context): left behind, never
	// waited for. A host that sees names here has a funnel to fix.
	Abandoned []string
	// Printed are the lines the script printed, as far as the log limit
	// kept them; a failed run keeps them too.
	Printed []string
	// Value is the script's return value as JSON (a string as a JSON
	// string, several values as an array); HasValue says whether the
	// script returned one. Value is nil, with HasValue set, when the
	// value was cut at the result limit: Text says so.
	Value    json.RawMessage
	HasValue bool
	// Timings say where the run's time went: compiling, the script's own
	// time (what the budget counts), and waiting for nested calls.
	Timings Timings
	// Err says why the call failed, for logs and errors.Is: ErrInvalidInput,
	// ErrUnavailable, or an error wrapping one of the sandbox's sentinels.
	// A crash's error carries its Go stack with source paths cut to the
	// package directory. Nil on success.
	Err error
}

// Run runs one Exec call. input is the call's input as the model sent it;
// opts adjust this run (nil: the Session's limits, no progress callback).
// The script reaches the pool as it is now (POOL-10), its nested calls go
// through the session's funnel, and tools.ToolSearch searches that same
// pool.
//
// Run never returns an error and never panics: every failure is a Result
// with IsError set and plain words in Text (BUD-11).
func (s *Session) Run(ctx context.Context, input json.RawMessage, opts *RunOptions) (res Result) {
	defer func() {
		if p := recover(); p != nil {
			res = s.failed(fmt.Errorf("%w: %v", sandbox.ErrCrashed, p), sandbox.Outcome{Calls: res.Calls})
		}
	}()
	var o RunOptions
	if opts != nil {
		o = *opts
	}
	in, err := ParseInput(input)
	if err != nil {
		return s.failed(err, sandbox.Outcome{})
	}
	st := s.cur.Load()
	if st.asm.Exec != pool.ExecDeclared {
		return s.failed(fmt.Errorf("%w: %v", ErrUnavailable, st.asm.Exec), sandbox.Outcome{})
	}
	limits := s.limits
	if o.Budget > 0 {
		limits.Budget = o.Budget
	}
	// A script over the size limit is the sandbox's to refuse.
	if s.preflight && len(in.Code) <= cmp.Or(s.limits.MaxScriptBytes, sandbox.DefaultMaxScriptBytes) {
		if err := st.checker().CheckWithin(ctx, in.Code, cmp.Or(limits.Budget, sandbox.DefaultBudget)); err != nil {
			return s.failed(err, sandbox.Outcome{})
		}
	}
	if o.MaxCalls > 0 {
		limits.MaxCalls = o.MaxCalls
	}
	// The sandbox keeps the record of calls (Outcome.Calls, which the
	// summary is made from); this copy, told call by call, feeds the live
	// summary and is kept in res so that a panic still returns it.
	var calls []string
	maxCalls := limits.MaxCalls
	if maxCalls <= 0 {
		maxCalls = sandbox.DefaultMaxCalls
	}
	log := &callLog{st: st, onDone: o.OnCallDone}
	onCall := func(name string) {
		calls = append(calls, name)
		res.Calls = calls
		log.sandboxCall(name, len(calls), maxCalls)
		if o.Progress != nil {
			o.Progress(summary(calls))
		}
	}
	out := s.run(ctx, sandbox.Request{
		Code:         in.Code,
		Tools:        st.reach,
		Denied:       st.denied(),
		Funnel:       log.funnel(s.funnel),
		Search:       st.search,
		SearchSchema: json.RawMessage(search.InputSchema),
		OnCall:       onCall,
	}, &limits)
	records := log.close()
	if out.Err != nil {
		res = s.failed(out.Err, out)
		res.Records = records
		return res
	}
	return Result{
		Records:   records,
		Text:      successText(out),
		Images:    out.Images,
		Summary:   summary(out.Calls),
		Calls:     out.Calls,
		Abandoned: out.Abandoned,
		Printed:   out.Lines,
		Value:     out.Value(),
		HasValue:  out.HasResult,
		Timings:   out.Timings,
	}
}

// failed is the Result of a call that did not finish, keeping what the
// script printed and which calls it made.
func (s *Session) failed(err error, out sandbox.Outcome) Result {
	// What the model and the log read of the error is bounded as the
	// script's own errors are: a crash's panic value may be megabytes.
	keep := s.limits.MaxErrorChars()
	level := slog.LevelInfo
	if errors.Is(err, sandbox.ErrCrashed) {
		level = slog.LevelError
		err = &crashError{detail: sandbox.CutMessage(trimSourcePaths(err.Error()), keep)}
	}
	s.log.Log(context.Background(), level, "Exec failed", "err", err, "calls", len(out.Calls))

	text := failureText(err, keep)
	if log := logText(out); log != "" {
		text += "\n\nPrinted output before the failure:\n" + log
	}
	text += imagesNote(out)
	return Result{Text: text, Images: out.Images, IsError: true, Summary: "failed", Calls: out.Calls, Abandoned: out.Abandoned,
		Printed: out.Lines, Timings: out.Timings, Err: err}
}

// crashError is a crash as the host sees it: the sandbox's report with
// source paths cut, matching sandbox.ErrCrashed.
type crashError struct{ detail string }

func (e *crashError) Error() string { return e.detail }
func (e *crashError) Unwrap() error { return sandbox.ErrCrashed }

// sourcePath is a stack line's file: everything before its package
// directory goes, so that no absolute path of the build machine reaches a
// log or a user.
var sourcePath = regexp.MustCompile(`(?m)^(\t)\S*?([^/\s]+/[^/\s]+:\d+)`)

func trimSourcePaths(s string) string { return sourcePath.ReplaceAllString(s, "$1$2") }

// summary is the user's result line (SUM-1..5): the count, then the last
// two calls, with "... " in front when earlier ones are not listed.
func summary(calls []string) string {
	var b strings.Builder
	if len(calls) > 2 {
		b.WriteString("... ")
	}
	if len(calls) == 1 {
		b.WriteString("1 tool call")
	} else {
		fmt.Fprintf(&b, "%d tool calls", len(calls))
	}
	for _, name := range calls[max(0, len(calls)-2):] {
		b.WriteString("\n")
		b.WriteString(name)
	}
	return b.String()
}

// noOutput is what a script that neither returned nor printed anything
// gets: an empty tool result would read as if something went missing
// (ORCH-7).
const noOutput = "The script finished without a return value and printed nothing."

// successText lays out a finished script's result: the return value alone,
// the printed output alone, or both under headings so that neither is
// mistaken for the other.
func successText(out sandbox.Outcome) string {
	log := logText(out)
	var text string
	switch {
	case !out.HasResult && log == "":
		text = noOutput
	case !out.HasResult:
		text = log
	case log == "":
		text = resultText(out)
	default:
		text = "Printed output:\n" + log + "\n\nReturn value:\n" + resultText(out)
	}
	return text + imagesNote(out)
}

// resultText is the return value with a note when it was cut (BUD-8), and
// one when keys were left out of it for repeating another key's JSON name.
// Only the full length is told: the limit is the host's, not the model's.
func resultText(out sandbox.Outcome) string {
	text := out.Result
	switch {
	case out.Result == "" && out.ResultChars == 0:
		return "(the script returned an empty string)"
	case out.ResultChars > utf8.RuneCountInString(out.Result):
		text += fmt.Sprintf("\n[Return value truncated: it was %d characters long.]", out.ResultChars)
	}
	switch out.LeftOutKeys {
	case 0:
	case 1:
		text += "\n[1 key was left out of the return value: its table has another key of the same name in JSON (a string key keeps its name: {[1] = 1, [\"1\"] = 2} is {\"1\":2}).]"
	default:
		text += fmt.Sprintf("\n[%d keys were left out of the return value: their tables have other keys of the same names in JSON (a string key keeps its name: {[1] = 1, [\"1\"] = 2} is {\"1\":2}).]", out.LeftOutKeys)
	}
	return text
}

// logText is what the script printed with a note when it was cut (BUD-7),
// or "" when it printed nothing.
func logText(out sandbox.Outcome) string {
	if out.Log == "" && out.LogChars == 0 {
		return ""
	}
	if out.LogChars > utf8.RuneCountInString(out.Log) {
		return out.Log + fmt.Sprintf("\n[Printed output truncated: %d characters were printed in all.]", out.LogChars)
	}
	return out.Log
}

// imagesNote tells the model that images were left out (BUD-9), so that a
// missing image does not read as a tool that returned none.
func imagesNote(out sandbox.Outcome) string {
	switch out.DroppedImages {
	case 0:
		return ""
	case 1:
		return "\n\n[1 more image from tool calls was left out.]"
	}
	return fmt.Sprintf("\n\n[%d more images from tool calls were left out.]", out.DroppedImages)
}

// failureText says in plain words why a call failed, in at most about
// keep characters. The sandbox's budget and wait messages are already
// written for the model, and a script's error is cut already; a crash's
// details (a Go panic and its stack) are for the log only.
func failureText(err error, keep int) string {
	var scriptErr *sandbox.ScriptError
	switch {
	case errors.Is(err, ErrInvalidInput):
		return sentence(err.Error())
	case errors.Is(err, ErrPreflight):
		return sentence(err.Error())
	case errors.Is(err, ErrUnavailable):
		return "Exec is not available right now: it was switched off or denied, or no catalogued tools remain. Call the tools declared to you directly."
	case errors.Is(err, sandbox.ErrCrashed):
		return "The sandbox crashed while running the script and the run was ended. Tool calls it completed still apply."
	case errors.Is(err, sandbox.ErrCanceled):
		return "The run was cancelled before the script finished (the user interrupted it or the session ended). Tool calls it completed still apply."
	case errors.As(err, &scriptErr):
		return "The script failed with an error: " + strings.TrimSpace(scriptErr.Message)
	}
	return sentence(sandbox.CutMessage(err.Error(), keep))
}

// sentence capitalises s and ends it with a full stop.
func sentence(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
