package execlua

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
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

// Result is one Exec call's outcome: what the model gets (Text, Images,
// IsError) and what only the host keeps (Summary, Calls, Err).
type Result struct {
	// Text is the tool result's text, never empty.
	Text string
	// Images are the images nested calls returned, capped by the limits.
	Images []sandbox.Image
	// IsError marks a failed call: invalid input, Exec unavailable, or a
	// script that did not finish (error, budget, cancellation, crash).
	IsError bool

	// Summary is the result line for the user: "N tool calls" and the last
	// two names, or "failed". Never sent to the model.
	Summary string
	// Calls is the host-side record of the nested calls, in order, repeats
	// and refused calls included: what "was tool X called" checks read
	// (SUM-9, SUM-10). Never sent to the model.
	Calls []string
	// Err says why the call failed, for logs and errors.Is: ErrInvalidInput,
	// ErrUnavailable, or an error wrapping one of the sandbox's sentinels.
	// Nil on success.
	Err error
}

// Run runs one Exec call. input is the call's input as the model sent it.
// The script reaches the pool as it is now (POOL-10), its nested calls go
// through the session's funnel, and tools.ToolSearch searches that same
// pool. progress, when not nil, gets the summary again at every nested call,
// before the script ends (SUM-4); it runs on the script's goroutine, inside
// the script's budget, so it must return quickly.
//
// Run never returns an error and never panics: every failure is a Result
// with IsError set and plain words in Text (BUD-11).
func (s *Session) Run(ctx context.Context, input json.RawMessage, progress func(summary string)) (res Result) {
	defer func() {
		if p := recover(); p != nil {
			res = s.failed(fmt.Errorf("%w: %v", sandbox.ErrCrashed, p), sandbox.Outcome{Calls: res.Calls})
		}
	}()
	in, err := ParseInput(input)
	if err != nil {
		return s.failed(err, sandbox.Outcome{})
	}
	st := s.cur.Load()
	if st.asm.Exec != pool.ExecDeclared {
		return s.failed(fmt.Errorf("%w: %v", ErrUnavailable, st.asm.Exec), sandbox.Outcome{})
	}
	// The sandbox keeps the record of calls (Outcome.Calls, which the
	// summary is made from); this copy, told call by call, feeds the live
	// summary and is kept in res so that a panic still returns it.
	var calls []string
	onCall := func(name string) {
		calls = append(calls, name)
		res.Calls = calls
		if progress != nil {
			progress(summary(calls))
		}
	}
	out := sandbox.Run(ctx, sandbox.Request{
		Code:         in.Code,
		Tools:        st.reach,
		Funnel:       s.funnel,
		Search:       st.search,
		SearchSchema: json.RawMessage(search.InputSchema),
		OnCall:       onCall,
	}, &s.limits)
	if out.Err != nil {
		return s.failed(out.Err, out)
	}
	return Result{Text: successText(out), Images: out.Images, Summary: summary(out.Calls), Calls: out.Calls}
}

// failed is the Result of a call that did not finish, keeping what the
// script printed and which calls it made.
func (s *Session) failed(err error, out sandbox.Outcome) Result {
	level := slog.LevelInfo
	if errors.Is(err, sandbox.ErrCrashed) {
		level = slog.LevelError
	}
	s.log.Log(context.Background(), level, "Exec failed", "err", err, "calls", len(out.Calls))

	text := failureText(err)
	if log := logText(out); log != "" {
		text += "\n\nPrinted output before the failure:\n" + log
	}
	text += imagesNote(out)
	return Result{Text: text, Images: out.Images, IsError: true, Summary: "failed", Calls: out.Calls, Err: err}
}

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

// resultText is the return value with a note when it was cut (BUD-8). Only
// the full length is told: the limit is the host's, not the model's.
func resultText(out sandbox.Outcome) string {
	switch {
	case out.Result == "" && out.ResultChars == 0:
		return "(the script returned an empty string)"
	case out.ResultChars > utf8.RuneCountInString(out.Result):
		return out.Result + fmt.Sprintf("\n[Return value truncated: it was %d characters long.]", out.ResultChars)
	}
	return out.Result
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

// failureText says in plain words why a call failed. The sandbox's budget
// and wait messages are already written for the model; a crash's details
// (a Go panic and its stack) are for the log only.
func failureText(err error) string {
	var scriptErr *sandbox.ScriptError
	switch {
	case errors.Is(err, ErrInvalidInput):
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
	return sentence(err.Error())
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
