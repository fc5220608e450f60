package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/hooks"
	"github.com/execlua/execlua/host/permission"
	"github.com/execlua/execlua/sandbox"
)

// callOutput is one nested call in run --json.
type callOutput struct {
	Name string `json:"name"`
	// Arguments are the call's arguments, cut to maxJSONArgs bytes (then a
	// JSON string that says so).
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Server    string          `json:"server,omitempty"`
	// Outcome is "ok", "error", "refused" or "abandoned".
	Outcome   string  `json:"outcome"`
	RefusedBy string  `json:"refusedBy,omitempty"`
	Error     string  `json:"error,omitempty"`
	Duration  float64 `json:"durationMs"`
}

// maxJSONArgs caps the arguments run --json shows of one call.
const maxJSONArgs = 2000

func callOutputs(records []execlua.CallRecord) []callOutput {
	out := make([]callOutput, len(records))
	for i, r := range records {
		out[i] = callOutput{Name: r.Name, Arguments: capArgs(r.Args), Server: r.Server, Outcome: r.Outcome,
			RefusedBy: r.RefusedBy, Duration: float64(r.Duration.Microseconds()) / 1000}
		if r.Err != nil {
			out[i].Error = r.Err.Error()
		}
	}
	return out
}

func capArgs(args json.RawMessage) json.RawMessage {
	if len(args) == 0 {
		return nil
	}
	args = canonical(args)
	if len(args) <= maxJSONArgs {
		return args
	}
	cut, _ := json.Marshal(fmt.Sprintf("%s... (%d bytes in all)", strings.ToValidUTF8(string(args[:maxJSONArgs]), ""), len(args)))
	return cut
}

// refusalHint says how to let a refused call through, or "" when there is
// nothing to change but the user's answer.
func refusalHint(r execlua.CallRecord) string {
	var denied *permission.DeniedError
	var blocked *hooks.BlockedError
	var nobody *nobodyToAsk
	var unknown *sandbox.UnknownToolError
	switch {
	case errors.Is(r.Err, execlua.ErrCallLimit):
		return "raise --max-calls"
	case errors.As(r.Err, &unknown) && unknown.DeniedBy != "":
		return "remove or narrow that rule in the file named"
	case errors.Is(r.Err, execlua.ErrUnknownTool):
		return "see the tools scripts can call with 'execlua tools'"
	case errors.As(r.Err, &blocked):
		return "the hook said: " + blocked.Reason + "; change the hook or its matcher in the settings"
	case errors.As(r.Err, &denied) && denied.Rule != nil:
		return "remove or narrow that rule in the file named"
	case errors.As(r.Err, &nobody):
		return nobody.hint()
	case errors.As(r.Err, &denied) && strings.HasPrefix(denied.By, "the permission mode"):
		return fmt.Sprintf("add an allow rule for %s, or change permissions.defaultMode", r.Name)
	}
	return ""
}

// progress shows a run's calls as they happen on stderr: the live summary
// line, with calls that failed or were refused counted apart from those
// made, each refusal on a line of its own with a hint, and hook failures.
type progress struct {
	mu                                sync.Mutex
	w                                 io.Writer
	term                              bool
	shown                             bool // a live line is on screen (terminal only)
	start                             time.Time
	summary                           string
	made, failed, refused, hookErrors int
}

func newProgress(w io.Writer) *progress {
	return &progress{w: w, term: isTerminal(w), start: time.Now()}
}

// update shows the summary again (RunOptions.Progress).
func (p *progress) update(summary string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.summary = summary
	p.show()
}

// callDone counts a finished call and prints a refusal
// (RunOptions.OnCallDone).
func (p *progress) callDone(r execlua.CallRecord) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch r.Outcome {
	case execlua.CallRefused:
		p.refused++
		p.clear()
		fmt.Fprintf(p.w, "execlua: %s refused by %s\n", r.Name, r.RefusedBy)
		if hint := refusalHint(r); hint != "" {
			fmt.Fprintf(p.w, "  hint: %s\n", hint)
		}
		return
	case execlua.CallError:
		p.failed++
	}
	p.made++
}

// report prints a host report made during the run: a hook that failed is
// an error the user sees (HOOK-5), and the final line counts it.
func (p *progress) report(r host.Report) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r.Source == "hooks" {
		p.hookErrors++
	}
	p.clear()
	fmt.Fprintf(p.w, "execlua: warning: %s\n", firstLine(r.String()))
	if r.Stderr != "" {
		fmt.Fprintf(p.w, "%s\n", indent(r.Stderr))
	}
}

func (p *progress) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// show writes the live line: on a terminal rewritten in place, elsewhere
// one plain line per change.
func (p *progress) show() {
	if p.term {
		fmt.Fprintf(p.w, "\r\x1b[K%s", p.line())
		p.shown = true
		return
	}
	fmt.Fprintln(p.w, p.line())
}

// done replaces the live line with the final summary and the time taken.
func (p *progress) done(summary string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.summary = summary
	p.clear()
	fmt.Fprintf(p.w, "%s (%s)\n", p.line(), time.Since(p.start).Round(time.Millisecond))
}

// line folds the summary's lines ("3 tool calls", then names) into one,
// with the counts that are not plain successes.
func (p *progress) line() string {
	head, rest, _ := strings.Cut(p.summary, "\n")
	var counts []string
	if p.failed > 0 || p.refused > 0 {
		counts = append(counts, fmt.Sprintf("%d made", p.made))
	}
	for _, c := range []struct {
		n         int
		one, many string
	}{{p.failed, "failed", "failed"}, {p.refused, "refused", "refused"}, {p.hookErrors, "hook error", "hook errors"}} {
		if c.n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", c.n, plural(c.n, c.one, c.many)))
		}
	}
	if len(counts) > 0 {
		head += " (" + strings.Join(counts, ", ") + ")"
	}
	if rest == "" {
		return head
	}
	return head + ": " + strings.ReplaceAll(rest, "\n", ", ")
}
