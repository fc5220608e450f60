package permission

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/execlua/execlua/host/settings"
)

// Decision is the outcome of a check.
type Decision int

// The outcomes.
const (
	// Allow: the call proceeds without asking.
	Allow Decision = iota
	// Ask: the user must be asked.
	Ask
	// Deny: the call is refused.
	Deny
)

func (d Decision) String() string { return [...]string{"allow", "ask", "deny"}[d] }

var decisionOf = [...]Decision{settings.Allow: Allow, settings.Ask: Ask, settings.Deny: Deny}

// Verdict is a decision and why.
type Verdict struct {
	Decision Decision
	// Rule is the rule that decided; nil when the mode did.
	Rule *Rule
	// Mode is the permission mode in force.
	Mode string
}

// Checker applies one set of rules. It is immutable.
type Checker struct {
	rules []Rule
	mode  string
	cwd   string
}

// New builds a checker from the settings' rules and mode; cwd resolves
// relative path patterns. Rules that do not parse are left out and
// returned as errors.
func New(s *settings.Settings, cwd string) (*Checker, []error) {
	c := &Checker{mode: s.DefaultMode(), cwd: cwd}
	var errs []error
	for _, sr := range s.Rules() {
		r, err := Parse(sr)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c.rules = append(c.rules, r)
	}
	return c, errs
}

// With returns a checker that also allows the given rules (ones granted
// this session and not yet read back from a file).
func (c *Checker) With(extra []Rule) *Checker {
	out := *c
	out.rules = append(append([]Rule(nil), c.rules...), extra...)
	return &out
}

// Check judges one call: deny beats ask beats allow; with no rule, the
// mode decides.
func (c *Checker) Check(name string, args json.RawMessage) Verdict {
	var found [3]*Rule
	for i := range c.rules {
		r := &c.rules[i]
		if found[r.Kind] == nil && r.Matches(name, args, c.cwd) {
			found[r.Kind] = r
		}
	}
	for _, kind := range []settings.RuleKind{settings.Deny, settings.Ask, settings.Allow} {
		if r := found[kind]; r != nil {
			return Verdict{Decision: decisionOf[kind], Rule: r, Mode: c.mode}
		}
	}
	switch c.mode {
	case "bypassPermissions":
		return Verdict{Decision: Allow, Mode: c.mode}
	case "dontAsk":
		return Verdict{Decision: Deny, Mode: c.mode}
	case "acceptEdits":
		switch name {
		case "Edit", "Write", "MultiEdit", "NotebookEdit":
			return Verdict{Decision: Allow, Mode: c.mode}
		}
	}
	return Verdict{Decision: Ask, Mode: c.mode}
}

// Denied reports whether a deny rule without an argument pattern names the
// tool: the tool is then kept out of tools[] and the pool alike.
func (c *Checker) Denied(name string) bool {
	return c.DeniedBy(name) != ""
}

// DeniedBy says which rule Denied holds for, as RefusedBy says it: "the
// deny rule \"X\" in the project settings (/path)"; "" when none does.
func (c *Checker) DeniedBy(name string) string {
	for i := range c.rules {
		if r := &c.rules[i]; r.wholeToolDeny() && r.MatchesName(name) {
			return (&DeniedError{Rule: r}).RefusedBy()
		}
	}
	return ""
}

// wholeToolDeny is a deny rule without an argument pattern.
func (r *Rule) wholeToolDeny() bool {
	return r.Kind == settings.Deny && (!r.HasPattern || r.Pattern == "" || r.Pattern == "*")
}

// ErrDenied is what every refusal matches.
var ErrDenied = errors.New("permission denied")

// DeniedError is a refused call; its text reaches the script as the call's
// error (PERM-3) and the model as a flat call's result.
type DeniedError struct {
	Tool   string
	Reason string
	// Rule is the deny rule that refused, nil when none did.
	Rule *Rule
	// By says who refused when no rule did: "the user", "the permission
	// mode dontAsk", ...
	By string
	// Err is the error that made the refusal (a prompter's), if any.
	Err error
}

func (e *DeniedError) Error() string { return e.Reason }

// RefusedBy says who refused: the rule and the file it is in, or By.
func (e *DeniedError) RefusedBy() string {
	if e.Rule != nil {
		return fmt.Sprintf("the %s rule %q in %s", e.Rule.Kind, e.Rule.Text, e.Rule.Source())
	}
	return e.By
}
func (e *DeniedError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrDenied}
	}
	return []error{ErrDenied, e.Err}
}

// Refusal is the error for a verdict of Deny.
func (v Verdict) Refusal(tool string) error {
	if v.Rule != nil {
		return &DeniedError{Tool: tool, Rule: v.Rule, Reason: fmt.Sprintf("Permission to use %s has been denied by the rule %q in %s.", tool, v.Rule.Text, v.Rule.Source())}
	}
	return &DeniedError{Tool: tool, By: fmt.Sprintf("the permission mode %s (permissions.defaultMode)", v.Mode),
		Reason: fmt.Sprintf("Permission to use %s has been denied: no rule allows it and the permission mode is %s (permissions.defaultMode).", tool, v.Mode)}
}
