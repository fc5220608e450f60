package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host/hooks"
	"github.com/execlua/execlua/host/permission"
	"github.com/execlua/execlua/host/servers"
	"github.com/execlua/execlua/host/settings"
)

// ErrUnknownTool is a call of a name the host has not registered.
var ErrUnknownTool = errors.New("no such tool")

// ErrInvalidArguments is a call whose arguments are not a JSON object, as
// every tool's input is; it is refused before any rule, hook or tool. It
// is the servers package's sentinel, so one errors.Is serves both layers.
var ErrInvalidArguments = servers.ErrInvalidArguments

// isObject reports whether raw is one valid JSON object.
func isObject(raw json.RawMessage) bool {
	trimmed := bytes.TrimLeft(raw, " \t\r\n")
	return len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(raw)
}

// ErrNoBuiltins is a builtin call on a host without Options.Builtin.
var ErrNoBuiltins = errors.New("this host does not implement its builtins")

// Funnel returns the host's funnel for sessions: every nested call goes
// through Call.
func (h *Host) Funnel() execlua.Funnel { return execlua.FunnelFunc(h.Call) }

// Call performs one tool call, flat or nested, the one way the host has,
// in the order Claude Code documents: PreToolUse hooks, the permission
// rules (and, when the user is to be asked, the PermissionRequest hooks
// and the Prompter), execution (through Options.Execute), then
// PostToolUse or PostToolUseFailure hooks. A refusal is an error whose
// text is what the model, or the script, reads (PERM-3, HOOK-2). The
// model's call of Exec itself goes through RunExec. A context from
// WithObserver is told of the call.
func (h *Host) Call(ctx context.Context, call execlua.Call) (execlua.Output, error) {
	return observed(ctx, call.Name, call.Args, func(ctx context.Context) (execlua.Output, error) { return h.call(ctx, call) })
}

func (h *Host) call(ctx context.Context, call execlua.Call) (execlua.Output, error) {
	tool, ok := h.lookup(call.Name)
	if !ok {
		return execlua.Output{}, fmt.Errorf("%w: %s is not a tool of this host", ErrUnknownTool, call.Name)
	}
	if len(call.Args) == 0 || string(bytes.TrimSpace(call.Args)) == "null" {
		// No arguments, as an MCP client may send them (none, or null).
		call.Args = json.RawMessage("{}")
	}
	if !isObject(call.Args) {
		return execlua.Output{}, fmt.Errorf("%w: the arguments of %s must be a JSON object, got %.40s", ErrInvalidArguments, call.Name, call.Args)
	}
	pol := h.pol.Load()
	hc := h.hookCall(ctx, pol, tool.Name, call.Args)
	if err := h.gate(ctx, pol, tool, &hc, true); err != nil {
		return execlua.Output{}, err
	}
	call.Args = hc.Input
	performed(ctx, call.Args)
	out, err := h.exec(ctx, tool, call)
	if err != nil {
		if pol.hooks.Has(hooks.PostToolUseFailure, tool.Name) {
			h.deliver(ctx, pol.hooks.PostFailure(ctx, hc, err, ctx.Err() != nil))
		}
		return execlua.Output{}, err
	}
	h.post(ctx, pol, hc, out)
	return out, nil
}

// hookCall is what the hooks of a call are told: the conversation's
// session (WithSession, else Options.SessionID), the permission mode, the
// call's tool_use_id (WithToolUseID, else a new one).
func (h *Host) hookCall(ctx context.Context, pol *policy, name string, args json.RawMessage) hooks.Call {
	c := hooks.Call{SessionID: h.sessionID, TranscriptPath: h.opts.TranscriptPath,
		PermissionMode: pol.settings.DefaultMode(), Tool: name, Input: args}
	if s, ok := ctx.Value(sessionKey{}).(conversation); ok {
		c.SessionID, c.TranscriptPath = s.id, s.transcript
	}
	c.ID, _ = ctx.Value(toolUseKey{}).(string)
	if c.ID == "" {
		c.ID = newID("toolu_")
	}
	return c
}

// gate decides whether a call may proceed: the PreToolUse hooks first,
// then the rules. A hook's deny refuses; a deny rule refuses whatever a
// hook said; an ask rule asks even when a hook allowed; a hook's ask
// asks; a hook's allow lets through a call no rule names; then the rules
// and the mode decide. A hook's updatedInput replaces the input before
// the rules read it, so a hook can change a call but never make it one
// a rule refuses. A tool that needs no permission of its own (Exec) is
// refused or asked about only when a rule or a hook says so.
func (h *Host) gate(ctx context.Context, pol *policy, tool execlua.Tool, hc *hooks.Call, needsPermission bool) error {
	pre := pol.hooks.Pre(ctx, *hc)
	if pre.Blocked != nil {
		decide(ctx, Decision{By: "hook"})
		return pre.Blocked
	}
	h.deliver(ctx, pre.Context)
	if pre.Input != nil {
		hc.Input = pre.Input
	}
	goAsks, err := h.goPre(ctx, hc)
	if err != nil {
		return err
	}
	v := pol.checker.Check(tool.Name, hc.Input)
	byRule := Decision{Allowed: v.Decision == permission.Allow, By: "mode"}
	if v.Rule != nil {
		byRule.By, byRule.Rule = "rule", v.Rule.Text
	}
	switch {
	case v.Decision == permission.Deny && v.Rule != nil:
		decide(ctx, byRule)
		return v.Refusal(tool.Name)
	case v.Decision == permission.Ask && v.Rule != nil:
		return h.ask(ctx, pol, tool, hc, AskRuleMatched, fmt.Sprintf("the rule %q in %s asks for confirmation", v.Rule.Text, v.Rule.Source()))
	case pre.Decision == hooks.Ask:
		return h.ask(ctx, pol, tool, hc, HookAsked, hookWhy(pre))
	case goAsks:
		return h.ask(ctx, pol, tool, hc, HookAsked, "a Go PreToolUse hook asks for confirmation")
	case pre.Decision == hooks.Allow:
		decide(ctx, Decision{Allowed: true, By: "hook"})
		return nil
	case v.Rule == nil && !needsPermission, v.Decision == permission.Allow:
		byRule.Allowed = true
		decide(ctx, byRule)
		return nil
	case v.Decision == permission.Deny:
		decide(ctx, byRule)
		return v.Refusal(tool.Name) // the mode refuses what no rule allows
	}
	return h.ask(ctx, pol, tool, hc, NoRuleMatched, "no permission rule allows it")
}

// goPre runs the host's Go PreToolUse hooks (Options.Hooks) after the
// command hooks: a refusal is the call's error, a replaced input is the
// call's input from then on, and whether one asks is returned.
func (h *Host) goPre(ctx context.Context, hc *hooks.Call) (asks bool, err error) {
	if h.opts.Hooks == nil {
		return false, nil
	}
	d := h.opts.Hooks.Before(ctx, execlua.Call{Name: hc.Tool, Args: hc.Input})
	if err := d.Refusal(hc.Tool); err != nil {
		decide(ctx, Decision{By: "hook"})
		return false, err
	}
	call, err := d.Replace(execlua.Call{Name: hc.Tool, Args: hc.Input})
	if err != nil {
		decide(ctx, Decision{By: "hook"})
		return false, err
	}
	hc.Input = call.Args
	return d.Ask, nil
}

func hookWhy(pre hooks.PreResult) string {
	why := fmt.Sprintf("the PreToolUse hook %q asks for confirmation", pre.Hook)
	if pre.Reason != "" {
		why += ": " + pre.Reason
	}
	return why
}

// post runs the PostToolUse hooks of a finished call and delivers their
// messages.
func (h *Host) post(ctx context.Context, pol *policy, hc hooks.Call, out execlua.Output) {
	if pol.hooks.Has(hooks.PostToolUse, hc.Tool) {
		h.deliver(ctx, pol.hooks.Post(ctx, hc, toolResponse(out)))
	}
	if h.opts.Hooks != nil {
		h.deliver(ctx, h.opts.Hooks.After(ctx, execlua.Call{Name: hc.Tool, Args: hc.Input}, out))
	}
}

// deliver hands hooks' messages for the model to the call's context's
// sink, else to Options.OnMessage.
func (h *Host) deliver(ctx context.Context, msgs []string) {
	for _, msg := range msgs {
		if add, ok := ctx.Value(messageSink{}).(func(string)); ok {
			add(msg)
		} else if h.opts.OnMessage != nil {
			h.opts.OnMessage(msg)
		}
	}
}

// toolResponse is an output as PostToolUse hooks read it: the MCP result
// shape, content blocks and structuredContent.
func toolResponse(out execlua.Output) json.RawMessage {
	type block struct {
		Type     string `json:"type"`
		Text     string `json:"text,omitempty"`
		Data     string `json:"data,omitempty"`
		MIMEType string `json:"mimeType,omitempty"`
	}
	resp := struct {
		Content    []block         `json:"content"`
		Structured json.RawMessage `json:"structuredContent,omitempty"`
	}{Content: []block{}, Structured: out.Structured}
	for _, t := range out.Text {
		resp.Content = append(resp.Content, block{Type: "text", Text: t})
	}
	for _, img := range out.Images {
		resp.Content = append(resp.Content, block{Type: "image", Data: img.Data, MIMEType: img.MIMEType})
	}
	raw, err := json.Marshal(resp)
	if err != nil { // structured content that is not JSON
		resp.Structured = nil
		raw, _ = json.Marshal(resp)
	}
	return raw
}

// lookup finds a registered tool: a builtin, a tool of a connected server,
// or a tool named after a configured server that is down (its call starts
// the server again, POOL-11).
func (h *Host) lookup(name string) (execlua.Tool, bool) {
	if i, ok := h.builtins[name]; ok {
		return h.opts.Builtins[i], true
	}
	if t, ok := h.mgr.Tool(name); ok {
		return t, true
	}
	if server, leaf, ok := h.mgr.Split(name); ok {
		return execlua.Tool{Name: name, Kind: execlua.MCP, Server: server, ServerTool: leaf}, true
	}
	return execlua.Tool{}, false
}

// execute is the base Executor: the MCP client or the builtins.
func (h *Host) execute(ctx context.Context, tool execlua.Tool, call execlua.Call) (execlua.Output, error) {
	if tool.Kind == execlua.MCP {
		return h.mgr.Call(ctx, tool.Server, tool.ServerTool, call.Args)
	}
	if h.opts.Builtin == nil {
		return execlua.Output{}, fmt.Errorf("%w: %s cannot be performed", ErrNoBuiltins, tool.Name)
	}
	return h.opts.Builtin(ctx, tool, call)
}

// ask has the user asked about a call: the PermissionRequest hooks may
// answer first, then the Prompter, one question at a time. An "allow
// always" answer is saved.
func (h *Host) ask(ctx context.Context, pol *policy, tool execlua.Tool, hc *hooks.Call, cause AskCause, why string) error {
	perm := pol.hooks.Permission(ctx, *hc)
	switch perm.Decision {
	case hooks.Deny:
		decide(ctx, Decision{By: "hook"})
		return perm.Blocked
	case hooks.Allow:
		if perm.Input == nil {
			decide(ctx, Decision{Allowed: true, By: "hook"})
			return nil
		}
		if v := pol.checker.Check(tool.Name, perm.Input); v.Decision == permission.Deny && v.Rule != nil {
			decide(ctx, Decision{By: "rule", Rule: v.Rule.Text})
			return v.Refusal(tool.Name)
		}
		decide(ctx, Decision{Allowed: true, By: "hook"})
		hc.Input = perm.Input
		return nil
	}
	if h.opts.Prompter == nil {
		decide(ctx, Decision{By: "host"})
		return &permission.DeniedError{Tool: tool.Name, By: "the host, which has no one to ask (" + why + ")",
			Reason: fmt.Sprintf("Permission to use %s was not granted: it needs the user's approval (%s) and this host has no one to ask.%s", tool.Name, why, howToAllow(cause, tool.Name))}
	}
	h.askMu.Lock()
	defer h.askMu.Unlock()
	// A parallel call may have been allowed for good while this one waited.
	if v := h.pol.Load().checker.Check(tool.Name, hc.Input); cause == NoRuleMatched && v.Decision == permission.Allow && v.Rule != nil && v.Rule.Kind == settings.Allow {
		return nil
	}
	ans, err := h.opts.Prompter.Ask(ctx, PermissionQuestion{Tool: tool, Args: hc.Input, Why: why, Rule: tool.Name, Cause: cause})
	decide(ctx, Decision{Allowed: err == nil && ans != Deny, By: "user"})
	switch {
	case err != nil:
		return &permission.DeniedError{Tool: tool.Name, By: fmt.Sprintf("the prompter: %v", err), Err: err, Reason: fmt.Sprintf("Permission to use %s was not granted: %v", tool.Name, err)}
	case ans == AllowOnce:
		return nil
	case ans == AllowAlways:
		h.allowAlways(tool.Name)
		return nil
	}
	return &permission.DeniedError{Tool: tool.Name, By: fmt.Sprintf("the user (asked because %s)", why), Reason: fmt.Sprintf("The user refused permission to use %s.", tool.Name)}
}

// howToAllow says how to let a call through without a prompt.
func howToAllow(cause AskCause, tool string) string {
	switch cause {
	case AskRuleMatched:
		return " Remove that ask rule, or run where someone can answer."
	case HookAsked:
		return " Change that hook, or run where someone can answer."
	}
	return fmt.Sprintf(" Add an allow rule for %s to the settings.", tool)
}

// allowAlways saves an allow rule for name in the local settings file and
// grants it to this process at once, so that it holds even before the
// file is read back, or when no file is configured.
func (h *Host) allowAlways(name string) {
	h.syncMu.Lock()
	r, _ := permission.Parse(settings.Rule{Text: name, Kind: settings.Allow, Scope: settings.Local}) // a tool name always parses
	h.granted = append(h.granted, r)
	pol := *h.pol.Load()
	pol.checker = pol.checker.With([]permission.Rule{r})
	h.pol.Store(&pol)
	h.syncMu.Unlock()
	if _, err := h.store.AllowAlways(name); err != nil {
		h.report(Report{Source: "permissions", Tool: name, Err: fmt.Errorf("the rule allowing %s holds for this process only: %w", name, err)})
	}
}
