package servers

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// Progress is one notifications/progress a server sent about a call.
type Progress struct {
	Server string `json:"server"`
	// Tool is the server's own name of the tool called.
	Tool     string  `json:"tool"`
	Progress float64 `json:"progress"`
	// Total is 0 when the server did not say.
	Total   float64 `json:"total,omitempty"`
	Message string  `json:"message,omitempty"`
}

// String is one line for a live summary: "3/10 indexing".
func (p Progress) String() string {
	s := strconv.FormatFloat(p.Progress, 'g', -1, 64)
	if p.Total > 0 {
		s += "/" + strconv.FormatFloat(p.Total, 'g', -1, 64)
	}
	if p.Message != "" {
		s += " " + p.Message
	}
	return s
}

type progressKey struct{}

// WithProgress returns a context whose calls send their server a progress
// token and pass the server's progress notifications to fn, in the order
// the server sent them, on the transport's goroutine (fn must return
// quickly). A sink already in ctx is told too, after fn.
func WithProgress(ctx context.Context, fn func(Progress)) context.Context {
	if outer, ok := ctx.Value(progressKey{}).(func(Progress)); ok {
		inner := fn
		fn = func(p Progress) {
			inner(p)
			outer(p)
		}
	}
	return context.WithValue(ctx, progressKey{}, fn)
}

// watchProgress gives the call a progress token when ctx asks for
// progress, and returns the function that forgets it.
func (c *conn) watchProgress(ctx context.Context, tool string, req *mcp.CallToolRequest) func() {
	fn, ok := ctx.Value(progressKey{}).(func(Progress))
	if !ok {
		return func() {}
	}
	token := fmt.Sprintf("execlua-%d", c.m.ids.Add(1))
	req.Params.Meta = &mcp.Meta{ProgressToken: token}
	c.mu.Lock()
	if c.progress == nil {
		c.progress = map[string]*progressSink{}
	}
	c.progress[token] = &progressSink{server: c.name, tool: tool, fn: fn}
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		delete(c.progress, token)
		c.mu.Unlock()
	}
}

// onProgress passes a progress notification to the call whose token it
// carries; one for a call that has ended is dropped.
func (c *conn) onProgress(n mcp.JSONRPCNotification) {
	raw, err := json.Marshal(n.Params.AdditionalFields)
	if err != nil {
		return
	}
	var p struct {
		Token    any     `json:"progressToken"`
		Progress float64 `json:"progress"`
		Total    float64 `json:"total"`
		Message  string  `json:"message"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return // not a progress notification a call of ours asked for
	}
	c.mu.Lock()
	sink := c.progress[fmt.Sprint(p.Token)]
	c.mu.Unlock()
	if sink != nil {
		sink.deliver(Progress{Server: sink.server, Tool: sink.tool, Progress: p.Progress, Total: p.Total, Message: p.Message})
	}
}

// progressSink is one call's progress: its notifications may arrive on
// two streams at once (an HTTP server sends some on the call's response
// stream, some on its standing stream), so they are delivered one at a
// time, and one whose progress does not exceed the last delivered (the
// protocol has it increase) came late and is dropped: the sink sees them
// in order.
type progressSink struct {
	server, tool string
	fn           func(Progress)

	mu        sync.Mutex
	delivered bool
	last      float64
}

func (s *progressSink) deliver(p Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.delivered && p.Progress <= s.last {
		return
	}
	s.delivered, s.last = true, p.Progress
	s.fn(p)
}
