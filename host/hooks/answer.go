package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
)

// output is the JSON a hook may print on exit 0 (or an HTTP hook answer
// with 2xx), as Claude Code's hooks reference gives it.
type output struct {
	Continue   *bool  `json:"continue"`
	StopReason string `json:"stopReason"`
	// Decision "block" (PreToolUse, PostToolUse) or "approve".
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
	Specific struct {
		PermissionDecision       string          `json:"permissionDecision"`
		PermissionDecisionReason string          `json:"permissionDecisionReason"`
		AdditionalContext        string          `json:"additionalContext"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
		// Decision is PermissionRequest's.
		Decision struct {
			Behavior     string          `json:"behavior"`
			Message      string          `json:"message"`
			UpdatedInput json.RawMessage `json:"updatedInput"`
		} `json:"decision"`
	} `json:"hookSpecificOutput"`
}

// parseOutput reads a hook's stdout; anything but a JSON object says
// nothing.
func parseOutput(stdout []byte) output {
	var out output
	stdout = bytes.TrimSpace(stdout)
	if len(stdout) == 0 || stdout[0] != '{' || json.Unmarshal(stdout, &out) != nil {
		return output{}
	}
	return out
}

// stopped is the reason of a "continue": false answer, "" when none.
func (o output) stopped() string {
	if o.Continue == nil || *o.Continue {
		return ""
	}
	return or(o.StopReason, "the hook stopped the call (continue: false)")
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// object is raw when it is a JSON object, else nil.
func object(raw json.RawMessage) json.RawMessage {
	if raw = bytes.TrimSpace(raw); len(raw) > 0 && raw[0] == '{' {
		return raw
	}
	return nil
}

// Decision is what PreToolUse or PermissionRequest hooks decided.
type Decision int

// The decisions, weakest first: of several hooks, the strongest wins.
const (
	// NoDecision leaves the call to the permission rules.
	NoDecision Decision = iota
	// Allow lets the call through without asking, unless a deny or ask
	// rule names it.
	Allow
	// Ask has the user asked.
	Ask
	// Deny refuses the call.
	Deny
)

func (d Decision) String() string { return [...]string{"none", "allow", "ask", "deny"}[d] }

// PreResult is what the PreToolUse hooks said.
type PreResult struct {
	Decision Decision
	// Reason is the deciding hook's permissionDecisionReason (or the
	// like); Hook is its command or URL.
	Reason, Hook string
	// Blocked is a *BlockedError when Decision is Deny.
	Blocked error
	// Input is the input a hook gave the call in place of its own
	// (hookSpecificOutput.updatedInput, a JSON object); nil when none
	// did. Of several, the first hook in listed order wins.
	Input json.RawMessage
	// Context are the hooks' additionalContext texts for the model.
	Context []string
}

// Pre runs the PreToolUse hooks for a call.
func (r *Runner) Pre(ctx context.Context, c Call) PreResult {
	var res PreResult
	for _, a := range r.run(ctx, PreToolUse, c, nil) {
		d, reason := a.preDecision()
		if d > res.Decision {
			res.Decision, res.Reason, res.Hook = d, reason, a.hook
		}
		if in := object(a.out.Specific.UpdatedInput); in != nil && res.Input == nil {
			res.Input = in
		}
		if c := a.out.Specific.AdditionalContext; c != "" {
			res.Context = append(res.Context, c)
		}
	}
	if res.Decision == Deny {
		res.Blocked = &BlockedError{Event: PreToolUse, Tool: c.Tool, Command: res.Hook, Reason: res.Reason}
		res.Input = nil
	}
	return res
}

// preDecision reads one PreToolUse hook's answer.
func (a answer) preDecision() (Decision, string) {
	o := a.out
	spec := o.Specific
	switch {
	case a.failed != nil:
		return Deny, a.failed.Error()
	case a.blocking != "":
		return Deny, a.blocking
	case o.stopped() != "":
		return Deny, o.stopped()
	case spec.PermissionDecision == "deny":
		return Deny, or(spec.PermissionDecisionReason, or(o.Reason, "denied by the hook"))
	case o.Decision == "block":
		return Deny, or(o.Reason, "blocked by the hook")
	case spec.PermissionDecision == "ask":
		return Ask, or(spec.PermissionDecisionReason, o.Reason)
	case spec.PermissionDecision == "allow", o.Decision == "approve":
		return Allow, or(spec.PermissionDecisionReason, o.Reason)
	}
	return NoDecision, ""
}

// PermissionResult is what the PermissionRequest hooks said about a call
// the user was about to be asked about.
type PermissionResult struct {
	// Decision is Allow, Deny or NoDecision (ask the user).
	Decision Decision
	Hook     string
	// Blocked is a *BlockedError when Decision is Deny.
	Blocked error
	// Input replaces the call's input when a hook that allowed it gave
	// one (decision.updatedInput).
	Input json.RawMessage
}

// Permission runs the PermissionRequest hooks for a call the user is
// about to be asked about: a hook may answer for the user.
func (r *Runner) Permission(ctx context.Context, c Call) PermissionResult {
	var res PermissionResult
	for _, a := range r.run(ctx, PermissionRequest, c, nil) {
		d, reason := a.permissionDecision()
		if d <= res.Decision {
			continue
		}
		res.Decision, res.Hook = d, a.hook
		if d == Deny {
			res.Blocked = &BlockedError{Event: PermissionRequest, Tool: c.Tool, Command: a.hook, Reason: reason}
			res.Input = nil
		} else {
			res.Input = object(a.out.Specific.Decision.UpdatedInput)
		}
	}
	return res
}

func (a answer) permissionDecision() (Decision, string) {
	dec := a.out.Specific.Decision
	switch {
	case a.failed != nil:
		return Deny, a.failed.Error()
	case a.blocking != "":
		return Deny, a.blocking
	case a.out.stopped() != "":
		return Deny, a.out.stopped()
	case dec.Behavior == "deny":
		return Deny, or(dec.Message, "denied by the hook")
	case dec.Behavior == "allow":
		return Allow, ""
	}
	return NoDecision, ""
}

// Post runs the PostToolUse hooks for a finished call and returns the
// isMeta messages they produced (HOOK-3), in the order the hooks are
// listed.
func (r *Runner) Post(ctx context.Context, c Call, response json.RawMessage) []string {
	answers := r.run(ctx, PostToolUse, c, func(in *input) { in.ToolResponse = objectOrEmpty(response) })
	return messages(PostToolUse, c.Tool, answers)
}

// PostFailure runs the PostToolUseFailure hooks for a call that failed
// and returns their messages for the model.
func (r *Runner) PostFailure(ctx context.Context, c Call, callErr error, interrupted bool) []string {
	answers := r.run(ctx, PostToolUseFailure, c, func(in *input) {
		in.Error = callErr.Error()
		in.IsInterrupt = &interrupted
	})
	return messages(PostToolUseFailure, c.Tool, answers)
}

// messages are the texts after-the-call hooks give the model: a blocking
// answer (exit 2, decision "block") and additionalContext.
func messages(event, tool string, answers []answer) []string {
	var msgs []string
	for _, a := range answers {
		reason := a.blocking
		if reason == "" && a.out.Decision == "block" {
			reason = or(a.out.Reason, "blocked by the hook")
		}
		if reason != "" {
			msgs = append(msgs, fmt.Sprintf("%s:%s hook blocking error from command: \"%s\": %s", event, tool, a.hook, reason))
		}
		if a.out.Specific.AdditionalContext != "" {
			msgs = append(msgs, a.out.Specific.AdditionalContext)
		}
	}
	return msgs
}
