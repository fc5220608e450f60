package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/execlua/execlua/host/internal/proc"
	"github.com/execlua/execlua/host/settings"
)

// The events this package runs.
const (
	PreToolUse  = "PreToolUse"
	PostToolUse = "PostToolUse"
)

// DefaultTimeout bounds a hook that sets no timeout.
const DefaultTimeout = 60 * time.Second

// Options configure a Runner. The zero value (and nil) runs hooks in the
// process's working directory with the default timeout and reports
// failures to nobody.
type Options struct {
	// Cwd is the hooks' working directory and CLAUDE_PROJECT_DIR.
	Cwd string
	// SessionID is passed to every hook.
	SessionID string
	// Timeout replaces DefaultTimeout for hooks that set none.
	Timeout time.Duration
	// OnFailure is told of every hook that failed open (HOOK-5).
	OnFailure func(Failure)
}

// Failure is a hook that failed and let the call through.
type Failure struct {
	Event, Tool, Command string
	// Err says what happened: an exit status, a timeout, a start error.
	Err    error
	Stderr string
}

func (f Failure) Error() string {
	s := fmt.Sprintf("%s hook %q for %s failed and was ignored: %v", f.Event, f.Command, f.Tool, f.Err)
	if f.Stderr != "" {
		s += ": " + f.Stderr
	}
	return s
}

// ErrBlocked is what every hook refusal matches.
var ErrBlocked = errors.New("blocked by a hook")

// BlockedError is a call a PreToolUse hook refused; Error is the text the
// script or the model reads (HOOK-2).
type BlockedError struct {
	Tool, Command, Reason string
}

func (e *BlockedError) Error() string {
	return fmt.Sprintf("%s:%s hook error: %s", PreToolUse, e.Tool, e.Reason)
}
func (e *BlockedError) Unwrap() error { return ErrBlocked }

// Runner runs the hooks of one settings value. It is immutable.
type Runner struct {
	opts   Options
	events map[string][]matcher
}

type matcher struct {
	re    *regexp.Regexp // nil matches everything
	hooks []settings.HookCommand
}

// New compiles the hooks of s. A matcher that is not a valid regular
// expression is left out and returned as an error.
func New(s *settings.Settings, opts *Options) (*Runner, []error) {
	r := &Runner{events: map[string][]matcher{}}
	if opts != nil {
		r.opts = *opts
	}
	if r.opts.Timeout <= 0 {
		r.opts.Timeout = DefaultTimeout
	}
	var errs []error
	for _, ev := range []string{PreToolUse, PostToolUse} {
		for _, m := range s.Hooks(ev) {
			c := matcher{hooks: m.Hooks}
			if m.Matcher != "" && m.Matcher != "*" {
				re, err := regexp.Compile("^(?:" + m.Matcher + ")$")
				if err != nil {
					errs = append(errs, fmt.Errorf("%s hook matcher %q is not a valid regular expression: %w", ev, m.Matcher, err))
					continue
				}
				c.re = re
			}
			r.events[ev] = append(r.events[ev], c)
		}
	}
	return r, errs
}

// Has reports whether any hook of event matches tool, so a host can skip
// building the hook input.
func (r *Runner) Has(event, tool string) bool { return len(r.commands(event, tool)) > 0 }

func (r *Runner) commands(event, tool string) []settings.HookCommand {
	var out []settings.HookCommand
	for _, m := range r.events[event] {
		if m.re == nil || m.re.MatchString(tool) {
			for _, h := range m.hooks {
				if h.Type == "command" && h.Command != "" {
					out = append(out, h)
				}
			}
		}
	}
	return out
}

// PreResult is what the PreToolUse hooks said.
type PreResult struct {
	// Blocked is a *BlockedError when a hook refused the call.
	Blocked error
	// Ask is set when a hook asked for the user to be asked.
	Ask bool
	// Input is the input a hook gave the call in place of its own
	// (hookSpecificOutput.updatedInput, a JSON object); nil when none
	// did. Of several, the first hook in listed order wins.
	Input json.RawMessage
}

// Pre runs the PreToolUse hooks for a call of tool with input.
func (r *Runner) Pre(ctx context.Context, tool string, input json.RawMessage) PreResult {
	var res PreResult
	for _, a := range r.run(ctx, PreToolUse, tool, input, nil) {
		switch {
		case a.block != "" && res.Blocked == nil:
			res.Blocked = &BlockedError{Tool: tool, Command: a.command, Reason: a.block}
		case a.ask:
			res.Ask = true
		}
		if a.input != nil && res.Input == nil {
			res.Input = a.input
		}
	}
	if res.Blocked != nil {
		res.Input = nil
	}
	return res
}

// Post runs the PostToolUse hooks for a finished call and returns the
// isMeta messages they produced (HOOK-3), in the order the hooks are
// listed.
func (r *Runner) Post(ctx context.Context, tool string, input, response json.RawMessage) []string {
	var msgs []string
	for _, a := range r.run(ctx, PostToolUse, tool, input, response) {
		if a.block != "" {
			msgs = append(msgs, fmt.Sprintf("%s:%s hook blocking error from command: \"%s\": %s", PostToolUse, tool, a.command, a.block))
		}
		if a.context != "" {
			msgs = append(msgs, a.context)
		}
	}
	return msgs
}

// answer is one hook's verdict.
type answer struct {
	command string
	block   string // the reason, when the hook blocks
	ask     bool
	context string          // additionalContext for the model
	input   json.RawMessage // updatedInput, a JSON object
}

// run runs every matching hook of event in parallel.
func (r *Runner) run(ctx context.Context, event, tool string, input, response json.RawMessage) []answer {
	cmds := r.commands(event, tool)
	if len(cmds) == 0 {
		return nil
	}
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	payload := map[string]any{
		"session_id":      r.opts.SessionID,
		"cwd":             r.opts.Cwd,
		"hook_event_name": event,
		"tool_name":       tool,
		"tool_input":      input,
	}
	if event == PostToolUse {
		payload["tool_response"] = response
	}
	stdin, err := json.Marshal(payload)
	if err != nil { // input or response is not JSON
		stdin, _ = json.Marshal(map[string]any{"session_id": r.opts.SessionID, "cwd": r.opts.Cwd, "hook_event_name": event, "tool_name": tool})
	}
	out := make([]answer, len(cmds))
	var wg sync.WaitGroup
	for i, h := range cmds {
		wg.Go(func() { out[i] = r.runOne(ctx, event, tool, h, stdin) })
	}
	wg.Wait()
	return out
}

// runOne runs one hook and reads its answer.
func (r *Runner) runOne(ctx context.Context, event, tool string, h settings.HookCommand, stdin []byte) answer {
	a := answer{command: h.Command}
	timeout := r.opts.Timeout
	if h.Timeout > 0 {
		timeout = time.Duration(h.Timeout * float64(time.Second))
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", h.Command)
	cmd.Dir = r.opts.Cwd
	cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+r.opts.Cwd)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	proc.Group(cmd)
	err := cmd.Run()

	fail := func(err error) answer {
		if r.opts.OnFailure != nil {
			r.opts.OnFailure(Failure{Event: event, Tool: tool, Command: h.Command, Err: err, Stderr: strings.TrimSpace(stderr.String())})
		}
		return a
	}
	var exit *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return fail(fmt.Errorf("timed out after %v", timeout))
	case ctx.Err() != nil:
		return a // the call itself was cancelled
	case errors.As(err, &exit) && exit.ExitCode() == 2:
		a.block = strings.TrimSpace(stderr.String())
		if a.block == "" {
			a.block = "blocked (the hook exited with status 2 and wrote nothing to stderr)"
		}
		return a
	case err != nil:
		return fail(err)
	}
	return readJSON(a, stdout.Bytes())
}

// readJSON reads the JSON answer a hook that exited 0 may print.
func readJSON(a answer, stdout []byte) answer {
	stdout = bytes.TrimSpace(stdout)
	if len(stdout) == 0 || stdout[0] != '{' {
		return a
	}
	var out struct {
		Continue   *bool  `json:"continue"`
		StopReason string `json:"stopReason"`
		Decision   string `json:"decision"`
		Reason     string `json:"reason"`
		Specific   struct {
			PermissionDecision       string          `json:"permissionDecision"`
			PermissionDecisionReason string          `json:"permissionDecisionReason"`
			AdditionalContext        string          `json:"additionalContext"`
			UpdatedInput             json.RawMessage `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal(stdout, &out) != nil {
		return a
	}
	or := func(s, def string) string {
		if s == "" {
			return def
		}
		return s
	}
	switch {
	case out.Continue != nil && !*out.Continue:
		a.block = or(out.StopReason, "the hook stopped the call")
	case out.Specific.PermissionDecision == "deny":
		a.block = or(out.Specific.PermissionDecisionReason, or(out.Reason, "denied by the hook"))
	case out.Decision == "block":
		a.block = or(out.Reason, "blocked by the hook")
	case out.Specific.PermissionDecision == "ask":
		a.ask = true
	}
	a.context = out.Specific.AdditionalContext
	if in := bytes.TrimSpace(out.Specific.UpdatedInput); len(in) > 0 && in[0] == '{' {
		a.input = in
	}
	return a
}
