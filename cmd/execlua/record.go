package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/execlua/execlua"
)

// recording is the file run --record writes and run --replay reads: the MCP
// tools the run could reach, as their servers listed them, and every call
// that was performed with its output or error.
type recording struct {
	Tools []recordedTool `json:"tools"`
	Calls []recordedCall `json:"calls"`
}

// recordedTool is one MCP tool: its server and its tools/list entry, enough
// to build the same pool again with no server running.
type recordedTool struct {
	Server string          `json:"server"`
	Tool   json.RawMessage `json:"tool"`
}

type recordedCall struct {
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args"`
	Output *recordedOutput `json:"output,omitempty"`
	Error  string          `json:"error,omitempty"`
}

type recordedOutput struct {
	Structured json.RawMessage `json:"structured,omitempty"`
	Text       []string        `json:"text,omitempty"`
	Images     []execlua.Image `json:"images,omitempty"`
}

// listedEntry is t as its server's tools/list would have sent it: the
// inverse of execlua.NewMCPTool.
func listedEntry(t execlua.Tool) (json.RawMessage, error) {
	entry := map[string]any{
		"name":        t.ServerTool,
		"description": t.Description,
		"inputSchema": t.InputSchema,
	}
	if len(t.InputSchema) == 0 {
		entry["inputSchema"] = json.RawMessage(`{"type":"object"}`)
	}
	if len(t.OutputSchema) > 0 {
		entry["outputSchema"] = t.OutputSchema
	}
	a := t.Annotations
	ann := map[string]any{}
	for key, hint := range map[string]*bool{"readOnlyHint": a.ReadOnlyHint, "destructiveHint": a.DestructiveHint, "idempotentHint": a.IdempotentHint, "openWorldHint": a.OpenWorldHint} {
		if hint != nil {
			ann[key] = *hint
		}
	}
	if a.Title != "" {
		ann["title"] = a.Title
	}
	if len(ann) > 0 {
		entry["annotations"] = ann
	}
	meta := map[string]any{}
	if t.AlwaysLoad {
		meta["anthropic/alwaysLoad"] = true
	}
	if t.SearchHint != "" {
		meta["anthropic/searchHint"] = t.SearchHint
	}
	if len(meta) > 0 {
		entry["_meta"] = meta
	}
	return json.Marshal(entry)
}

// recorder keeps every performed call and its outcome.
type recorder struct {
	mu    sync.Mutex
	calls []recordedCall
}

func (r *recorder) wrap(next executor) executor {
	return func(ctx context.Context, tool execlua.Tool, call execlua.Call) (execlua.Output, error) {
		out, err := next(ctx, tool, call)
		rc := recordedCall{Name: call.Name, Args: canonical(call.Args)}
		if err != nil {
			rc.Error = err.Error()
		} else {
			rc.Output = &recordedOutput{Structured: out.Structured, Text: out.Text, Images: out.Images}
		}
		r.mu.Lock()
		r.calls = append(r.calls, rc)
		r.mu.Unlock()
		return out, err
	}
}

// save writes the recording of tools and the calls made so far to path.
func (r *recorder) save(path string, tools []execlua.Tool) error {
	rec := recording{Tools: []recordedTool{}, Calls: []recordedCall{}}
	for _, t := range tools {
		if t.Kind != execlua.MCP {
			continue
		}
		entry, err := listedEntry(t)
		if err != nil {
			return err
		}
		rec.Tools = append(rec.Tools, recordedTool{Server: t.Server, Tool: entry})
	}
	r.mu.Lock()
	rec.Calls = append(rec.Calls, r.calls...)
	r.mu.Unlock()
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// canonical re-encodes a JSON value with object keys sorted and numbers
// kept as written, so that the same arguments always read the same.
func canonical(raw json.RawMessage) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return raw
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}

// errNoRecording is a replayed call that the recording does not hold.
var errNoRecording = errors.New("no recording of this call")

// replayer answers calls from a recording. Calls with the same name and
// arguments are answered in the order they were recorded.
type replayer struct {
	tools []recordedTool

	mu      sync.Mutex
	queue   map[string][]recordedCall
	missing []execlua.Call
}

// loadRecording reads a file written by run --record.
func loadRecording(path string) (*replayer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rec recording
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("%s is not a recording made by run --record: %w", path, err)
	}
	r := &replayer{queue: map[string][]recordedCall{}}
	for _, rt := range rec.Tools {
		if _, err := execlua.NewMCPTool(rt.Server, rt.Tool); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	r.tools = rec.Tools
	for _, c := range rec.Calls {
		key := c.Name + "\x00" + string(canonical(c.Args))
		r.queue[key] = append(r.queue[key], c)
	}
	return r, nil
}

func (r *replayer) wrap(executor) executor {
	return func(_ context.Context, _ execlua.Tool, call execlua.Call) (execlua.Output, error) {
		key := call.Name + "\x00" + string(canonical(call.Args))
		r.mu.Lock()
		defer r.mu.Unlock()
		q := r.queue[key]
		if len(q) == 0 {
			r.missing = append(r.missing, call)
			return execlua.Output{}, fmt.Errorf("%w: %s %s", errNoRecording, call.Name, canonical(call.Args))
		}
		c := q[0]
		r.queue[key] = q[1:]
		if c.Output == nil {
			return execlua.Output{}, errors.New(c.Error)
		}
		return execlua.Output{Structured: c.Output.Structured, Text: c.Output.Text, Images: c.Output.Images}, nil
	}
}

// unmatched are the calls the recording had no answer for, in order.
func (r *replayer) unmatched() []execlua.Call {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.missing
}
