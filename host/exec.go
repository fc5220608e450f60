package host

import (
	"context"
	"encoding/json"

	"github.com/execlua/execlua"
)

// RunExec performs the model's call of Exec as a flat tool call: the
// permission rules naming Exec (a deny rule refuses it, an ask rule asks;
// Exec needs no permission of its own, its nested calls do), Exec's
// PreToolUse hooks (which may replace the input), the run, and Exec's
// PostToolUse hooks when the run succeeded (HOOK-6). A refusal or a
// blocking hook is a failed Result with the same text a flat tool's
// refusal has; no sandbox starts. A context from WithObserver is told of
// the run and of its nested calls.
func (h *Host) RunExec(ctx context.Context, s *execlua.Session, input json.RawMessage, opts *execlua.RunOptions) execlua.Result {
	res, _ := observed(ctx, execlua.Name, input, func(ctx context.Context) (execlua.Result, error) {
		res := h.runExec(ctx, s, input, opts)
		return res, res.Err
	})
	return res
}

func (h *Host) runExec(ctx context.Context, s *execlua.Session, input json.RawMessage, opts *execlua.RunOptions) execlua.Result {
	tool := execlua.Tool{Name: execlua.Name, Kind: execlua.Builtin}
	pol := h.pol.Load()
	if err := h.permit(ctx, pol, tool, input, false); err != nil {
		return refused(err)
	}
	pre := pol.hooks.Pre(ctx, tool.Name, input)
	if pre.Blocked != nil {
		decide(ctx, Decision{By: "hook"})
		return refused(pre.Blocked)
	}
	input, err := rewrite(pol, tool, input, pre)
	if err != nil {
		decide(ctx, Decision{By: "rule"})
		return refused(err)
	}
	performed(ctx, input)
	if pre.Ask {
		if err := h.ask(ctx, tool, input, "a PreToolUse hook asked for confirmation"); err != nil {
			return refused(err)
		}
	}
	res := s.Run(ctx, input, opts)
	if !res.IsError {
		h.post(ctx, pol, tool.Name, input, execlua.Output{Text: []string{res.Text}, Images: res.Images})
	}
	return res
}

// refused is the Result of an Exec call stopped before its run.
func refused(err error) execlua.Result {
	return execlua.Result{Text: err.Error(), IsError: true, Summary: "failed", Err: err}
}
