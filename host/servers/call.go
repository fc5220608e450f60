package servers

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/execlua/execlua"
	"github.com/mark3labs/mcp-go/client"
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

// ErrUnavailable is a call to a server that is not connected.
var ErrUnavailable = errors.New("MCP server unavailable")

// Call performs tools/call of tool on server with args (a JSON object,
// passed on byte for byte). A disconnected server is started again first
// when its backoff has passed.
func (m *Manager) Call(ctx context.Context, server, tool string, args json.RawMessage) (execlua.Output, error) {
	m.mu.Lock()
	c := m.conns[server]
	m.mu.Unlock()
	if c == nil {
		return execlua.Output{}, fmt.Errorf("%w: %q", ErrUnknownServer, server)
	}
	cl, p, gen, err := c.ready(ctx)
	if err != nil {
		return execlua.Output{}, err
	}
	if len(args) > 0 && !json.Valid(args) {
		// mcp-go would fail to encode the request and report it as a
		// transport error: a malformed argument must not cost the
		// connection.
		return execlua.Output{}, fmt.Errorf("%w: the arguments of %s are not valid JSON", ErrInvalidArguments, tool)
	}
	var req mcp.CallToolRequest
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := cl.CallTool(ctx, req)
	switch {
	case err != nil && ctx.Err() != nil:
		return execlua.Output{}, fmt.Errorf("the call of %s was cancelled: %w", tool, context.Cause(ctx))
	case err != nil && isTransport(err):
		why := p.exitStatus(time.Second)
		if why == nil {
			why = err
		}
		c.lost(gen, why)
		msg := fmt.Sprintf("MCP server %s disconnected during the call of %s (%v)", server, tool, why)
		if t := p.stderrTail(); t != "" {
			msg += "; the last lines of its stderr:\n" + t
		}
		return execlua.Output{}, fmt.Errorf("%w: %s", ErrUnavailable, msg)
	case err != nil:
		return execlua.Output{}, fmt.Errorf("MCP server %s refused the call of %s: %w", server, tool, err)
	}
	c.succeeded()
	return output(tool, res)
}

// ready returns the connected client, starting the server first if it is
// down and due.
func (c *conn) ready(ctx context.Context) (*client.Client, *process, int, error) {
	for attempt := 0; ; attempt++ {
		c.mu.Lock()
		state, cl, p, gen, err, wait := c.state, c.cl, c.proc, c.gen, c.err, c.retryAt.Sub(c.m.now())
		c.mu.Unlock()
		switch {
		case state == Connected:
			return cl, p, gen, nil
		case state == Failed:
			return nil, nil, 0, fmt.Errorf("%w: %s cannot start: %v", ErrUnavailable, c.name, err)
		case attempt > 0 && state == Connecting:
			return nil, nil, 0, fmt.Errorf("%w: %s is still starting", ErrUnavailable, c.name)
		case attempt > 0:
			return nil, nil, 0, fmt.Errorf("%w: %s could not be started again: %v", ErrUnavailable, c.name, err)
		case state == Disconnected && wait > 0:
			return nil, nil, 0, fmt.Errorf("%w: %s is disconnected (%v); it will be started again on a call made after %v", ErrUnavailable, c.name, err, wait.Round(time.Second))
		}
		c.start(ctx)
	}
}

// succeeded resets the backoff after a call that went through.
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
