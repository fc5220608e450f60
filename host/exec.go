package host

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host/hooks"
)

// RunExec performs the model's call of Exec as a flat tool call: Exec's
// PreToolUse hooks (which may replace the input), the permission rules
// naming Exec (a deny rule refuses it, an ask rule asks; Exec needs no
// permission of its own, its nested calls do), the run, and Exec's
// PostToolUse hooks when the run succeeded, its PostToolUseFailure hooks
// when it failed (HOOK-6). A refusal or a blocking hook is a failed
// Result with the same text a flat tool's refusal has; no sandbox starts.
// A context from WithObserver is told of the run and of its nested calls.
// With opts.Progress set, the MCP servers' progress on the run's calls
// joins the live summary it is given.
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
	hc := h.hookCall(ctx, pol, tool.Name, input)
	if err := h.gate(ctx, pol, tool, &hc, false); err != nil {
		return refused(err)
	}
	performed(ctx, hc.Input)
	ctx, opts = liveProgress(ctx, opts)
	// The nested calls get ids of their own, not Exec's (WithToolUseID).
	res := s.Run(context.WithValue(ctx, toolUseKey{}, ""), hc.Input, opts)
	switch {
	case !res.IsError:
		h.post(ctx, pol, hc, execlua.Output{Text: []string{res.Text}, Images: res.Images})
	case pol.hooks.Has(hooks.PostToolUseFailure, tool.Name):
		h.deliver(ctx, pol.hooks.PostFailure(ctx, hc, errors.New(res.Text), errors.Is(res.Err, execlua.ErrCanceled)))
	}
	return res
}

// refused is the Result of an Exec call stopped before its run.
func refused(err error) execlua.Result {
	return execlua.Result{Text: err.Error(), IsError: true, Summary: "failed", Err: err}
}
