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

// Call performs one tool call, flat or nested, the one way the host has:
// permission check, PreToolUse hooks, execution (through Options.Execute),
// PostToolUse hooks. A refusal is an error whose text is what the model,
// or the script, reads (PERM-3, HOOK-2). The model's call of Exec itself
// goes through RunExec. A context from WithObserver is told of the call.
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
	if err := h.permit(ctx, pol, tool, call.Args, true); err != nil {
		return execlua.Output{}, err
	}
	pre := pol.hooks.Pre(ctx, tool.Name, call.Args)
	if pre.Blocked != nil {
		decide(ctx, Decision{By: "hook"})
		return execlua.Output{}, pre.Blocked
	}
	var err error
	if call.Args, err = rewrite(pol, tool, call.Args, pre); err != nil {
		decide(ctx, Decision{By: "rule"})
		return execlua.Output{}, err
	}
	performed(ctx, call.Args)
	if pre.Ask {
		if err := h.ask(ctx, tool, call.Args, "a PreToolUse hook asked for confirmation"); err != nil {
			return execlua.Output{}, err
		}
	}
	out, err := h.exec(ctx, tool, call)
	if err != nil {
		return execlua.Output{}, err
	}
	h.post(ctx, pol, tool.Name, call.Args, out)
	return out, nil
}

// rewrite gives the input a call goes on with: the one a PreToolUse hook
// put in its place (updatedInput), else its own. The deny rules apply to a
// replaced input again, so that a hook can change a call but never make
// it one a rule refuses.
func rewrite(pol *policy, tool execlua.Tool, args json.RawMessage, pre hooks.PreResult) (json.RawMessage, error) {
	if pre.Input == nil {
		return args, nil
	}
	if v := pol.checker.Check(tool.Name, pre.Input); v.Decision == permission.Deny {
		return nil, v.Refusal(tool.Name)
	}
	return pre.Input, nil
}

// post runs the PostToolUse hooks of a finished call and delivers their
// messages.
func (h *Host) post(ctx context.Context, pol *policy, name string, args json.RawMessage, out execlua.Output) {
	if !pol.hooks.Has(hooks.PostToolUse, name) {
		return
	}
	for _, msg := range pol.hooks.Post(ctx, name, args, toolResponse(out)) {
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

// permit applies the permission rules to a call of tool; rules name the
// tool the call reaches, never Exec. A tool that needs no permission of
// its own (Exec) is refused or asked about only when a rule names it.
func (h *Host) permit(ctx context.Context, pol *policy, tool execlua.Tool, args json.RawMessage, needsPermission bool) error {
	v := pol.checker.Check(tool.Name, args)
	if v.Rule == nil && !needsPermission {
		// Only a rule naming it refuses or asks; the mode (dontAsk
		// refusing what no rule allows) is for the calls it makes.
		decide(ctx, Decision{Allowed: true, By: "mode"})
		return nil
	}
	decided := Decision{Allowed: v.Decision == permission.Allow, By: "mode"}
	if v.Rule != nil {
		decided.By, decided.Rule = "rule", v.Rule.Text
	}
	decide(ctx, decided)
	switch v.Decision {
	case permission.Allow:
		return nil
	case permission.Deny:
		return v.Refusal(tool.Name)
	}
	why := "no permission rule allows it"
	if v.Rule != nil {
		why = fmt.Sprintf("the rule %q in the %s settings asks for confirmation", v.Rule.Text, v.Rule.Scope)
	}
	return h.ask(ctx, tool, args, why)
}

// ask puts a question to the Prompter, one at a time, and saves an
// "allow always" answer.
func (h *Host) ask(ctx context.Context, tool execlua.Tool, args json.RawMessage, why string) error {
	if h.opts.Prompter == nil {
		return &permission.DeniedError{Tool: tool.Name, Reason: fmt.Sprintf("Permission to use %s was not granted: it needs the user's approval (%s) and this host has no one to ask. Add an allow rule for %s to the settings.", tool.Name, why, tool.Name)}
	}
	h.askMu.Lock()
	defer h.askMu.Unlock()
	// A parallel call may have been allowed for good while this one waited.
	if v := h.pol.Load().checker.Check(tool.Name, args); v.Decision == permission.Allow && v.Rule != nil && v.Rule.Kind == settings.Allow {
		return nil
	}
	ans, err := h.opts.Prompter.Ask(ctx, PermissionQuestion{Tool: tool, Args: args, Why: why, Rule: tool.Name})
	decide(ctx, Decision{Allowed: err == nil && ans != Deny, By: "user"})
	switch {
	case err != nil:
		return &permission.DeniedError{Tool: tool.Name, Reason: fmt.Sprintf("Permission to use %s was not granted: %v", tool.Name, err)}
	case ans == AllowOnce:
		return nil
	case ans == AllowAlways:
		h.allowAlways(tool.Name)
		return nil
	}
	return &permission.DeniedError{Tool: tool.Name, Reason: fmt.Sprintf("The user refused permission to use %s.", tool.Name)}
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
