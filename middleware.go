package execlua

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Middleware wraps a funnel in one step of a host's chain: a permission
// check, hooks, logging. The step decides whether, and with which
// arguments, the call goes on to next.
type Middleware func(next Funnel) Funnel

// Chain returns f wrapped in steps, the first outermost: Chain(tools,
// permit, hooks) checks permission, then runs the hooks, then performs.
func Chain(f Funnel, steps ...Middleware) Funnel {
	for i := len(steps) - 1; i >= 0; i-- {
		f = steps[i](f)
	}
	return f
}

// ErrHookBlocked is what a call refused by a Go PreToolUse hook matches.
var ErrHookBlocked = errors.New("blocked by a hook")

// HookBlockedError is a call a PreToolUse hook refused; its text, which the
// script reads, is the one a command hook's refusal has.
type HookBlockedError struct {
	Tool, Reason string
}

func (e *HookBlockedError) Error() string {
	return fmt.Sprintf("PreToolUse:%s hook error: %s", e.Tool, e.Reason)
}

func (e *HookBlockedError) Unwrap() error { return ErrHookBlocked }

// PreDecision is what a Go PreToolUse hook says of a call, with the
// decisions a command hook has. The zero value lets the call go on as it
// is.
type PreDecision struct {
	// Deny, when not empty, refuses the call with this reason.
	Deny string
	// Ask has the user asked (Hooks.Ask) before the call goes on.
	Ask bool
	// Input, when not nil, replaces the call's arguments (a JSON object),
	// as a command hook's updatedInput does.
	Input json.RawMessage
}

// PostDecision is what a Go PostToolUse hook says of a finished call.
type PostDecision struct {
	// Block, when not empty, is a blocking message for the model about
	// the call's result; the call's output still stands.
	Block string
	// Context, when not empty, is more context for the model.
	Context string
}

// Hooks are a Go host's PreToolUse and PostToolUse callbacks. As with
// command hooks, every Pre hook runs, in order: the first Deny refuses,
// any Ask asks, the first Input replaces the arguments (unless the call is
// refused). Post hooks run after a call that succeeded; their messages go
// to OnMessage, in order.
//
// A replaced input goes on to the next step as it is: a host that checks
// permission before the hooks, and wants a hook's input checked again as
// the reference host does, puts the check after them too
// (Chain(tools, permit, hooks.Middleware(), permit)).
type Hooks struct {
	Pre  []func(ctx context.Context, call Call) PreDecision
	Post []func(ctx context.Context, call Call, out Output) PostDecision
	// Ask puts a hook's question to the user: nil lets the call go on,
	// an error refuses it with that error. A nil Ask refuses every call a
	// hook asks about.
	Ask func(ctx context.Context, call Call) error
	// OnMessage receives the Post hooks' messages; nil drops them.
	OnMessage func(text string)
}

// Middleware returns the hooks as a step of a chain.
func (h *Hooks) Middleware() Middleware {
	return func(next Funnel) Funnel {
		return FunnelFunc(func(ctx context.Context, call Call) (Output, error) {
			call, err := h.pre(ctx, call)
			if err != nil {
				return Output{}, err
			}
			out, err := next.Call(ctx, call)
			if err == nil {
				h.post(ctx, call, out)
			}
			return out, err
		})
	}
}

// Before runs the Pre hooks over call and combines their decisions as
// the chain does: the first Deny, any Ask, the first Input. A host that
// runs Go hooks in a chain of its own (the reference host, beside its
// command hooks) reads this and acts on it itself.
func (h *Hooks) Before(ctx context.Context, call Call) PreDecision {
	var d PreDecision
	for _, hook := range h.Pre {
		one := hook(ctx, call)
		if d.Deny == "" {
			d.Deny = one.Deny
		}
		d.Ask = d.Ask || one.Ask
		if d.Input == nil {
			d.Input = one.Input
		}
	}
	return d
}

// Refusal is the error a call refused by d has, or nil.
func (d PreDecision) Refusal(tool string) error {
	if d.Deny == "" {
		return nil
	}
	return &HookBlockedError{Tool: tool, Reason: d.Deny}
}

// Replace returns call with d's Input as its arguments, when d has one; an
// Input that is not a JSON object is refused.
func (d PreDecision) Replace(call Call) (Call, error) {
	if d.Input == nil {
		return call, nil
	}
	if !isObject(d.Input) {
		return call, fmt.Errorf("%w: a PreToolUse hook gave %s arguments that are not a JSON object", ErrInvalidArguments, call.Name)
	}
	call.Args = d.Input
	return call, nil
}

// pre runs the Pre hooks and returns the call as it goes on.
func (h *Hooks) pre(ctx context.Context, call Call) (Call, error) {
	d := h.Before(ctx, call)
	if err := d.Refusal(call.Name); err != nil {
		return call, err
	}
	call, err := d.Replace(call)
	if err != nil {
		return call, err
	}
	if d.Ask {
		if h.Ask == nil {
			return call, &HookBlockedError{Tool: call.Name, Reason: "a hook asked for the user's confirmation and this host has no one to ask"}
		}
		if err := h.Ask(ctx, call); err != nil {
			return call, err
		}
	}
	return call, nil
}

// After runs the Post hooks of a call that succeeded and returns their
// messages for the model, in order.
func (h *Hooks) After(ctx context.Context, call Call, out Output) []string {
	var msgs []string
	for _, hook := range h.Post {
		d := hook(ctx, call, out)
		if d.Block != "" {
			msgs = append(msgs, fmt.Sprintf("PostToolUse:%s hook blocking error: %s", call.Name, d.Block))
		}
		if d.Context != "" {
			msgs = append(msgs, d.Context)
		}
	}
	return msgs
}

func (h *Hooks) post(ctx context.Context, call Call, out Output) {
	for _, msg := range h.After(ctx, call, out) {
		if h.OnMessage != nil {
			h.OnMessage(msg)
		}
	}
}
