package serve

import (
	"bytes"
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// Why a result waits for its progress notifications: mcp-go's streamable
// HTTP transport hands a session's notifications to whichever of its
// streams takes them first (the POST of the call, or the client's
// listening GET), each on a goroutine of its own, and the POST's drops one
// it has taken when the call's answer is written at the same moment. So an
// Exec call answers only once every progress notification it sent has
// been written to one of the session's streams (or deliveryWait has
// passed).

// deliveryWait bounds how long a result waits for its notifications.
const deliveryWait = time.Second

// tally counts one MCP session's progress notifications: put in its queue,
// and written to one of its streams.
type tally struct {
	mu      sync.Mutex
	sent    int
	written int
	wrote   chan struct{} // closed, and replaced, at every write
}

// tallies are the tallies of the sessions that were sent progress ("" is
// every request without a session).
type tallies struct {
	mu sync.Mutex
	m  map[string]*tally
}

// get returns the session's tally, starting it.
func (ts *tallies) get(id string) *tally {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t := ts.m[id]
	if t == nil {
		t = &tally{wrote: make(chan struct{})}
		ts.m[id] = t
	}
	return t
}

// lookup returns the session's tally, or nil.
func (ts *tallies) lookup(id string) *tally {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.m[id]
}

func (ts *tallies) drop(id string) {
	ts.mu.Lock()
	delete(ts.m, id)
	ts.mu.Unlock()
}

// queued counts a notification put in the session's queue and returns
// the count so far.
func (t *tally) queued() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sent++
	return t.sent
}

func (t *tally) delivered() {
	t.mu.Lock()
	t.written++
	close(t.wrote)
	t.wrote = make(chan struct{})
	t.mu.Unlock()
}

// await waits until n notifications have been written, deliveryWait has
// passed or ctx ends.
func (t *tally) await(ctx context.Context, n int) {
	deadline := time.NewTimer(deliveryWait)
	defer deadline.Stop()
	for {
		t.mu.Lock()
		done, wrote := t.written >= n, t.wrote
		t.mu.Unlock()
		if done {
			return
		}
		select {
		case <-wrote:
		case <-deadline.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// progressEvent is how a progress notification starts in an SSE event.
var progressEvent = []byte(`"method":"notifications/progress"`)

// countingWriter counts the progress notifications written to one of a
// session's streams.
type countingWriter struct {
	http.ResponseWriter
	id string
	ts *tallies
}

func (w *countingWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	if err == nil && bytes.Contains(p, progressEvent) {
		if t := w.ts.lookup(w.id); t != nil {
			t.delivered()
		}
	}
	return n, err
}

// Flush keeps the stream a stream: mcp-go streams only to a Flusher.
func (w *countingWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *countingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// countedKey marks the context of a request whose streams are counted:
// one that came through Handler, not stdio.
type countedKey struct{}

// counting wraps h so that the progress notifications it writes are
// counted.
func (ts *tallies) counting(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = r.WithContext(context.WithValue(r.Context(), countedKey{}, ts))
		h.ServeHTTP(&countingWriter{ResponseWriter: w, id: r.Header.Get(server.HeaderKeySessionID), ts: ts}, r)
	})
}
