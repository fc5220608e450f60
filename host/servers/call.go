package servers

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"time"

	"github.com/execlua/execlua"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// ErrToolError is what a tool's own isError result matches.
var ErrToolError = errors.New("the tool reported an error")

// ToolError is an isError result; its text is the tool's own words, which
// the script receives as the call's error.
type ToolError struct {
	Tool, Text string
}

func (e *ToolError) Error() string { return e.Text }
func (e *ToolError) Unwrap() error { return ErrToolError }

// ErrInvalidArguments is a call whose arguments are not JSON; nothing is
// sent.
var ErrInvalidArguments = errors.New("invalid tool arguments")

// ErrUnavailable is a call to a server that is down: failed, disabled,
// removed, or restarting for longer than the call could wait.
var ErrUnavailable = errors.New("MCP server unavailable")

// Call performs tools/call of tool on server with args (a JSON object,
// passed on byte for byte). A call to a server that is starting or
// restarting waits for it, within the call's timeout and ctx. A call the
// server never received (a restarted HTTP server that forgot the session,
// a refused connection) is made again once the server is back; one it may
// have received is not.
func (m *Manager) Call(ctx context.Context, server, tool string, args json.RawMessage) (execlua.Output, error) {
	m.mu.Lock()
	c := m.conns[server]
	m.mu.Unlock()
	if c == nil {
		return execlua.Output{}, fmt.Errorf("%w: %q", ErrUnknownServer, server)
	}
	if len(args) > 0 && !json.Valid(args) {
		// mcp-go would fail to encode the request and report it as a
		// transport error: a malformed argument must not cost the
		// connection.
		return execlua.Output{}, fmt.Errorf("%w: the arguments of %s are not valid JSON", ErrInvalidArguments, tool)
	}
	if c.to.call > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, c.to.call, &TimeoutError{Server: server, Tool: tool, After: c.to.call, From: c.to.callFrom})
		defer cancel()
	}
	for attempt := 0; ; attempt++ {
		cl, p, gen, err := c.await(ctx, tool)
		if err != nil {
			return execlua.Output{}, err
		}
		var req mcp.CallToolRequest
		req.Params.Name = tool
		req.Params.Arguments = args
		forget := c.watchProgress(ctx, tool, &req)
		res, err := cl.CallTool(ctx, req)
		forget()
		switch {
		case err != nil && ctx.Err() != nil:
			return execlua.Output{}, callEnded(ctx, tool)
		case err != nil && attempt == 0 && notDelivered(err):
			c.lost(gen, err)
			continue
		case err != nil && isTransport(err):
			return execlua.Output{}, c.lostDuring(gen, p, tool, err)
		case err != nil:
			return execlua.Output{}, fmt.Errorf("MCP server %s refused the call of %s: %w", server, tool, err)
		}
		c.succeeded()
		return output(tool, res)
	}
}

// callEnded is the error of a call whose context ended: its own timeout
// (a *TimeoutError), or the caller's cancellation.
func callEnded(ctx context.Context, tool string) error {
	var timeout *TimeoutError
	if cause := context.Cause(ctx); errors.As(cause, &timeout) {
		return timeout
	}
	return fmt.Errorf("the call of %s was cancelled: %w", tool, context.Cause(ctx))
}

// lostDuring marks the connection lost during a call and says so, with
// how the server ended and its stderr.
func (c *conn) lostDuring(gen int, p *process, tool string, err error) error {
	why := p.exitStatus(time.Second)
	if why == nil {
		why = err
	}
	c.lost(gen, why)
	msg := fmt.Sprintf("MCP server %s disconnected during the call of %s (%v); it is being restarted", c.name, tool, why)
	if t := p.stderrTail(); t != "" {
		msg += "; the last lines of its stderr:\n" + t
	}
	return fmt.Errorf("%w: %s", ErrUnavailable, msg)
}

// notDelivered reports a call the server cannot have received: an HTTP
// server that forgot the session (it restarted), or a connection refused.
func notDelivered(err error) bool {
	return errors.Is(err, transport.ErrSessionTerminated) || errors.Is(err, syscall.ECONNREFUSED)
}

// await returns the connected client, waiting while the server starts or
// restarts; a server that failed, is disabled or was removed fails the
// call at once.
func (c *conn) await(ctx context.Context, tool string) (*client.Client, *process, int, error) {
	for {
		c.mu.Lock()
		state, cl, p, gen, lastErr, wake, closed, badConfig := c.state, c.cl, c.proc, c.gen, c.err, c.wake, c.closed, c.badConfig
		retryAt, failures := c.retryAt, c.failures
		c.mu.Unlock()
		switch {
		case closed:
			return nil, nil, 0, fmt.Errorf("%w: MCP server %s was removed from the configuration", ErrUnavailable, c.name)
		case state == Ready:
			return cl, p, gen, nil
		case state == Disabled:
			return nil, nil, 0, fmt.Errorf(`%w: MCP server %s is disabled ("disabled": true in its entry)`, ErrUnavailable, c.name)
		case state == Failed && badConfig:
			return nil, nil, 0, fmt.Errorf("%w: MCP server %s cannot start: %v", ErrUnavailable, c.name, lastErr)
		case state == Failed:
			return nil, nil, 0, fmt.Errorf("%w: MCP server %s has failed %d times in a row (last error: %v); it is tried again in %v",
				ErrUnavailable, c.name, failures, lastErr, retryAt.Sub(c.m.clock.Now()).Round(time.Second))
		}
		if !c.wait(ctx, wake) {
			return nil, nil, 0, fmt.Errorf("%w: MCP server %s is %v (last error: %v); the call of %s stopped waiting for it: %w",
				ErrUnavailable, c.name, state, lastErr, tool, callEnded(ctx, tool))
		}
	}
}

// wait waits for the state change wake announces and reports whether it
// came before ctx ended.
func (c *conn) wait(ctx context.Context, wake chan struct{}) bool {
	c.mu.Lock()
	c.waiting++
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.waiting--
		c.mu.Unlock()
	}()
	select {
	case <-wake:
		return true
	case <-ctx.Done():
		return false
	}
}

// succeeded resets the count of failures after a call that went through.
func (c *conn) succeeded() {
	c.mu.Lock()
	c.failures = 0
	c.mu.Unlock()
}

// output maps a tools/call result (ORCH-2): the structuredContent as
// received, the text blocks, the image blocks. The other blocks are not
// dropped without a word: an embedded text resource is text, an embedded
// image is an image, and audio, other binary resources and resource links
// each leave a line saying what was there. An isError result is a
// *ToolError with the text blocks joined.
func output(tool string, res *mcp.CallToolResult) (execlua.Output, error) {
	var out execlua.Output
	for _, block := range res.Content {
		switch b := block.(type) {
		case mcp.TextContent:
			out.Text = append(out.Text, b.Text)
		case mcp.ImageContent:
			out.Images = append(out.Images, execlua.Image{MIMEType: b.MIMEType, Data: b.Data})
		case mcp.AudioContent:
			out.Text = append(out.Text, fmt.Sprintf("[audio (%s, %d bytes) not shown]", b.MIMEType, decodedSize(b.Data)))
		case mcp.ResourceLink:
			out.Text = append(out.Text, linkLine(b))
		case mcp.EmbeddedResource:
			switch r := b.Resource.(type) {
			case mcp.TextResourceContents:
				out.Text = append(out.Text, r.Text)
			case mcp.BlobResourceContents:
				if strings.HasPrefix(r.MIMEType, "image/") {
					out.Images = append(out.Images, execlua.Image{MIMEType: r.MIMEType, Data: r.Blob})
				} else {
					out.Text = append(out.Text, fmt.Sprintf("[resource %s (%s, %d bytes) not shown]", r.URI, cmp.Or(r.MIMEType, "binary"), decodedSize(r.Blob)))
				}
			}
		}
	}
	if res.IsError {
		text := strings.Join(out.Text, "\n")
		if strings.TrimSpace(text) == "" {
			text = tool + " reported an error without a message"
		}
		return execlua.Output{}, &ToolError{Tool: tool, Text: text}
	}
	switch {
	case len(res.RawStructuredContent) > 0 && string(res.RawStructuredContent) != "null":
		out.Structured = res.RawStructuredContent
	case res.StructuredContent != nil:
		// A result that arrived as a value only (no transport encoded
		// it): this is its one encoding, for hooks and recordings; the
		// script's table is built from the value itself.
		raw, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return execlua.Output{}, fmt.Errorf("%s returned structured content that cannot be encoded as JSON: %w", tool, err)
		}
		out.Structured, out.Decoded = raw, res.StructuredContent
	}
	return out, nil
}

// decodedSize is how many bytes base64 text stands for.
func decodedSize(b64 string) int { return len(strings.TrimRight(b64, "=")) * 3 / 4 }

// linkLine says what a resource_link block points to, for the script to
// read or hand to a resource-reading tool.
func linkLine(l mcp.ResourceLink) string {
	line := "[resource link: " + cmp.Or(l.Title, l.Name) + " <" + l.URI + ">"
	if l.MIMEType != "" {
		line += " (" + l.MIMEType + ")"
	}
	if l.Description != "" {
		line += ": " + l.Description
	}
	return line + "]"
}
