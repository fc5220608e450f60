package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Why an Exec call's progress is written to its own response here: mcp-go
// puts a session's notifications in one queue that every open stream of
// the session (the POST of each call, the client's listening GET) takes
// from, so the notifications of one call were spread over several
// connections and reached the client out of order, some after the result.
// Over HTTP the notifications of a call therefore go on that call's own
// response stream, written by one goroutine in the order the run made
// them, and all of them before the result.

// maxQueued bounds the notifications waiting to be written for one call;
// past it the newest are dropped (the order stays) rather than make the
// script wait for a slow client.
const maxQueued = 256

// postStream is one HTTP request's response writer, shared by mcp-go and
// the progress of the call the request carries. Writes are serialised,
// so that an event is never cut by another, the header is written once,
// whoever writes first, and each write has writeStall to be taken (see
// Options.WriteStall).
type postStream struct {
	mu          sync.Mutex
	w           http.ResponseWriter
	rc          *http.ResponseController
	writeStall  time.Duration
	wroteHeader bool
}

func newPostStream(w http.ResponseWriter, writeStall time.Duration) *postStream {
	return &postStream{w: w, rc: http.NewResponseController(w), writeStall: writeStall}
}

// stall sets the deadline of the next write; a writer without a
// connection (a test's recorder) has none.
func (p *postStream) stall() { _ = p.rc.SetWriteDeadline(time.Now().Add(p.writeStall)) }

func (p *postStream) Header() http.Header { return p.w.Header() }

func (p *postStream) WriteHeader(code int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.wroteHeader {
		p.wroteHeader = true
		p.w.WriteHeader(code)
	}
}

func (p *postStream) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.wroteHeader = true
	p.stall()
	return p.w.Write(b)
}

// Flush keeps the stream a stream: mcp-go streams only to a Flusher.
func (p *postStream) Flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if f, ok := p.w.(http.Flusher); ok {
		p.stall()
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (p *postStream) Unwrap() http.ResponseWriter { return p.w }

// event writes one JSON-RPC message as a server-sent event, turning the
// response into an event stream if nothing was written yet.
func (p *postStream) event(msg any) error {
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.wroteHeader {
		h := p.w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		p.w.WriteHeader(http.StatusOK)
		p.wroteHeader = true
	}
	p.stall()
	if _, err := fmt.Fprintf(p.w, "event: message\ndata: %s\n\n", data); err != nil {
		return err
	}
	if f, ok := p.w.(http.Flusher); ok {
		f.Flush()
	}
	return nil
}

type streamKey struct{}

// progress sends the live summary as progress notifications when the
// client asked for them with a progress token (report is nil otherwise);
// delivered returns once they have all been written, or ctx ended.
func progress(ctx context.Context, req mcp.CallToolRequest) (report func(string), delivered func()) {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return nil, func() {}
	}
	token := req.Params.Meta.ProgressToken
	stream, _ := ctx.Value(streamKey{}).(*postStream)
	if stream == nil {
		return stdioProgress(ctx, token), func() {}
	}
	return streamProgress(ctx, stream, token)
}

// stdioProgress sends notifications through the session's one queue,
// which one writer empties in order.
func stdioProgress(ctx context.Context, token mcp.ProgressToken) func(string) {
	srv := server.ServerFromContext(ctx)
	n := 0
	return func(summary string) {
		n++
		// A full queue drops the notification: the summary is a courtesy,
		// and the script must not wait for the client.
		_ = srv.SendNotificationToClient(ctx, "notifications/progress", progressParams(token, n, summary))
	}
}

// streamProgress writes notifications to the call's own response, from
// one goroutine, in order.
func streamProgress(ctx context.Context, stream *postStream, token mcp.ProgressToken) (report func(string), delivered func()) {
	queue := make(chan mcp.JSONRPCNotification, maxQueued)
	written := make(chan struct{})
	go func() {
		defer close(written)
		upgraded := false
		for note := range queue {
			if ctx.Err() != nil {
				continue // the client is gone; let the queue empty
			}
			if !upgraded {
				// mcp-go then writes the result as an event of this stream too.
				if cs, ok := server.ClientSessionFromContext(ctx).(server.SessionWithStreamableHTTPConfig); ok {
					cs.UpgradeToSSEWhenReceiveNotification()
				}
				upgraded = true
			}
			_ = stream.event(note) // a broken connection ends the request too
		}
	}()
	n := 0
	report = func(summary string) {
		n++
		note := mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION, Notification: mcp.Notification{
			Method: "notifications/progress",
			Params: mcp.NotificationParams{AdditionalFields: progressParams(token, n, summary)},
		}}
		select {
		case queue <- note:
		default:
		}
	}
	delivered = func() {
		close(queue)
		<-written
	}
	return report, delivered
}

func progressParams(token mcp.ProgressToken, n int, summary string) map[string]any {
	return map[string]any{"progressToken": token, "progress": n, "message": summary}
}
