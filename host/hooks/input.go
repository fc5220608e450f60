package hooks

import (
	"bytes"
	"encoding/json"
)

// input is a hook's input in the order Claude Code's hooks reference
// writes it: the common fields, then the event's. A struct, not a map, so
// that the keys keep that order (a shell hook may read them in order).
type input struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	PermissionMode string          `json:"permission_mode"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	// ToolResponse is PostToolUse's.
	ToolResponse json.RawMessage `json:"tool_response,omitempty"`
	ToolUseID    string          `json:"tool_use_id"`
	// Error and IsInterrupt are PostToolUseFailure's.
	Error       string `json:"error,omitempty"`
	IsInterrupt *bool  `json:"is_interrupt,omitempty"`
}

func (r *Runner) input(event string, c Call) input {
	mode := c.PermissionMode
	if mode == "" {
		mode = "default"
	}
	return input{
		SessionID:      c.SessionID,
		TranscriptPath: c.TranscriptPath,
		Cwd:            r.opts.Cwd,
		PermissionMode: mode,
		HookEventName:  event,
		ToolName:       c.Tool,
		ToolInput:      objectOrEmpty(c.Input),
		ToolUseID:      c.ID,
	}
}

// encode is the input as JSON; a tool input or response that is not JSON
// is sent as an empty object, never as broken JSON.
func (in input) encode() []byte {
	data, err := json.Marshal(in)
	if err == nil {
		return data
	}
	in.ToolInput = objectOrEmpty(nil)
	if in.ToolResponse != nil {
		in.ToolResponse = objectOrEmpty(nil)
	}
	data, _ = json.Marshal(in) // every field is now valid JSON
	return data
}

func objectOrEmpty(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 || !json.Valid(raw) {
		return json.RawMessage("{}")
	}
	return raw
}
