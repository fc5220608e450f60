package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/execlua/execlua/host/settings"
)

// The events a tool call raises.
const (
	PreToolUse         = "PreToolUse"
	PermissionRequest  = "PermissionRequest"
	PostToolUse        = "PostToolUse"
	PostToolUseFailure = "PostToolUseFailure"
)

// events are the events this package runs, in the order a call raises
// them.
var events = []string{PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure}

// DefaultTimeout bounds a hook that sets no timeout, as Claude Code's
// hooks reference gives it for command hooks.
const DefaultTimeout = 600 * time.Second

// Options configure a Runner. The zero value (and nil) runs hooks in the
// process's working directory with the default timeout and reports
// failures to nobody.
type Options struct {
	// Cwd is the hooks' working directory and CLAUDE_PROJECT_DIR.
	Cwd string
	// Timeout replaces DefaultTimeout for hooks that set none.
	Timeout time.Duration
	// OnFailure is told of every hook that failed (HOOK-5): one that
	// failed open, and one that blocked because it failed (onFailure
	// "block").
	OnFailure func(Failure)
	// Client sends HTTP hooks' requests; nil is a client of its own that
	// keeps no connection open between hooks.
	Client *http.Client
	// LookupEnv reads the variables an HTTP hook's headers name; nil is
	// os.LookupEnv.
	LookupEnv func(string) (string, bool)
}

// Failure is a hook that failed: it exited with a status other than 0 and
// 2, timed out, could not start, or (an HTTP hook) got no 2xx answer. Its
// Error leaves out Tool and Stderr, which a report shows apart.
type Failure struct {
	Event, Tool string
	// Command is the hook's command, or an HTTP hook's URL.
	Command string
	// Err says what happened: an exit status, a timeout, a start error.
	Err    error
	Stderr string
	// Blocked is set when the failure refused the call (onFailure
	// "block"); otherwise the call went on.
	Blocked bool
}

func (f Failure) Error() string {
	what := "failed and was ignored (the call went on)"
	if f.Blocked {
		what = `failed and blocked the call (onFailure is "block")`
	}
	return fmt.Sprintf("%s hook %q %s: %v", f.Event, f.Command, what, f.Err)
}

// ErrBlocked is what every hook refusal matches.
var ErrBlocked = errors.New("blocked by a hook")

// BlockedError is a call a hook refused; Error is the text the script or
// the model reads (HOOK-2); Event and Command say which hook refused.
type BlockedError struct {
	Event, Tool, Command, Reason string
}

func (e *BlockedError) Error() string {
	return fmt.Sprintf("%s:%s hook error: %s", e.Event, e.Tool, e.Reason)
}
func (e *BlockedError) Unwrap() error { return ErrBlocked }

// RefusedBy names the hook that refused.
func (e *BlockedError) RefusedBy() string { return fmt.Sprintf("the %s hook %q", e.Event, e.Command) }

// Runner runs the hooks of one settings value. It is immutable.
type Runner struct {
	opts   Options
	events map[string][]matcher
}

// matcher is one compiled matcher entry.
type matcher struct {
	match func(tool string) bool
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
	if r.opts.Client == nil {
		// No keep-alive: a Runner is replaced on every settings change and
		// has no Close, so it must leave no idle connection behind.
		r.opts.Client = &http.Client{Transport: &http.Transport{Proxy: http.ProxyFromEnvironment, DisableKeepAlives: true}}
	}
	var errs []error
	for _, ev := range events {
		for _, m := range s.Hooks(ev) {
			match, err := compileMatcher(m.Matcher)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s hook matcher %q is not a valid regular expression: %w", ev, m.Matcher, err))
				continue
			}
			r.events[ev] = append(r.events[ev], matcher{match: match, hooks: m.Hooks})
		}
	}
	return r, errs
}

// exactList is a matcher of names only: one name, or names joined by |.
var exactList = regexp.MustCompile(`^[A-Za-z0-9_|]+$`)

// compileMatcher reads a matcher as Claude Code does: "" and "*" match
// every tool; letters, digits, _ and | name tools exactly (Bash,
// Edit|Write); anything else is a regular expression searched in the name
// (mcp__memory__.*, ^Notebook).
func compileMatcher(m string) (func(string) bool, error) {
	switch {
	case m == "" || m == "*":
		return func(string) bool { return true }, nil
	case exactList.MatchString(m):
		names := strings.Split(m, "|")
		return func(tool string) bool { return contains(names, tool) }, nil
	}
	re, err := regexp.Compile(m)
	if err != nil {
		return nil, err
	}
	return re.MatchString, nil
}

func contains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// Has reports whether any hook of event matches tool, so a host can skip
// building the hook input.
func (r *Runner) Has(event, tool string) bool { return len(r.hooksFor(event, tool)) > 0 }

func (r *Runner) hooksFor(event, tool string) []settings.HookCommand {
	var out []settings.HookCommand
	for _, m := range r.events[event] {
		if !m.match(tool) {
			continue
		}
		for _, h := range m.hooks {
			if h.Type == "command" && h.Command != "" || h.Type == "http" && h.URL != "" {
				out = append(out, h)
			}
		}
	}
	return out
}

// Call is the call every hook of it is told about: the common fields of
// Claude Code's hook input and the tool's.
type Call struct {
	SessionID, TranscriptPath, PermissionMode string
	Tool                                      string
	Input                                     json.RawMessage
	// ID is the call's tool_use_id.
	ID string
}

// run runs every matching hook of event in parallel and returns their
// answers in listed order.
func (r *Runner) run(ctx context.Context, event string, c Call, extra func(*input)) []answer {
	hooks := r.hooksFor(event, c.Tool)
	if len(hooks) == 0 {
		return nil
	}
	in := r.input(event, c)
	if extra != nil {
		extra(&in)
	}
	body := in.encode()
	out := make([]answer, len(hooks))
	var wg sync.WaitGroup
	for i, h := range hooks {
		wg.Go(func() { out[i] = r.runOne(ctx, event, c.Tool, h, body) })
	}
	wg.Wait()
	return out
}
