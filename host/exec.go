package host

import (
	"context"
	"encoding/json"

	"github.com/execlua/execlua"
)

// RunExec performs the model's call of Exec as a flat tool call: Exec's
// PreToolUse hooks (which may replace the input), the permission rules
// naming Exec (a deny rule refuses it, an ask rule asks; Exec needs no
// permission of its own, its nested calls do), the run, and Exec's
// PostToolUse hooks when the run succeeded (HOOK-6). A refusal or a
// blocking hook is a failed Result with the same text a flat tool's
// refusal has; no sandbox starts.
func (h *Host) RunExec(ctx context.Context, s *execlua.Session, input json.RawMessage, opts *execlua.RunOptions) execlua.Result {
	tool := execlua.Tool{Name: execlua.Name, Kind: execlua.Builtin}
	pol := h.pol.Load()
	hc := h.hookCall(ctx, pol, tool.Name, input)
	if err := h.gate(ctx, pol, tool, &hc, false); err != nil {
		return refused(err)
	}
	res := s.Run(ctx, hc.Input, opts)
	if !res.IsError {
		h.post(ctx, pol, hc, execlua.Output{Text: []string{res.Text}, Images: res.Images})
	}
	return res
}

// refused is the Result of an Exec call stopped before its run.
func refused(err error) execlua.Result {
	return execlua.Result{Text: err.Error(), IsError: true, Summary: "failed", Err: err}
}
