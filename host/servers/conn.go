package servers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"sync"
	"time"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host/settings"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// inProcess is the transport type of an Options.InProcess server.
const inProcess = "in-process"

// quiet keeps mcp-go's transports from logging: what goes wrong with a
// server reaches the host as a Report, and a library does not print.
var quiet = slog.New(slog.DiscardHandler)

// conn is one server's connection, across restarts.
type conn struct {
	m    *Manager
	name string
	cfg  settings.ServerConfig
	srv  *server.MCPServer // in-process servers only
	to   timeouts

	mu    sync.Mutex
	state State
	gen   int // counts starts; events of an older start are ignored
	cl    *client.Client
	proc  *process
	// tools are the ones it last listed, kept while it is down.
	tools     []execlua.Tool
	byName    map[string]int // index into tools
	err       error
	badConfig bool   // err is a configuration that cannot work
	stderr    string // the stderr tail of its last process that ended
	failures  int    // failed starts and lost connections since it last worked
	starts    int
	readyAt   time.Time
	retryAt   time.Time
	retry     stopper       // the timer of the next start while it is down
	ping      stopper       // the timer of the next ping of an HTTP or SSE server
	starting  chan struct{} // closed when the start under way ends
	wake      chan struct{} // closed (and replaced) at every state change
	refresh   *time.Timer
	progress  map[string]*progressSink // by progress token, for calls in flight
	waiting   int                      // calls waiting for it to be ready
	closed    bool
}

// setState moves to s and wakes the calls waiting for a change; c.mu is
// held. The caller tells OnState (notify) once c.mu is released.
func (c *conn) setState(s State) {
	c.state = s
	close(c.wake)
	c.wake = make(chan struct{})
}

func (c *conn) notify() {
	if c.m.opts.OnState != nil {
		c.m.opts.OnState(c.status())
	}
}

// goBackground runs f on a goroutine that Manager.Close waits for; c.mu is
// held and c is not closed, so that Close cannot be waiting yet.
func (c *conn) goBackground(f func()) {
	c.m.bg.Add(1)
	go func() {
		defer c.m.bg.Done()
		f()
	}()
}

// start connects (or reconnects) the server, unless a start is under way,
// in which case it waits for that one. ctx bounds the wait.
func (c *conn) start(ctx context.Context) {
	c.mu.Lock()
	if c.closed || c.state == Ready || c.state == Disabled {
		c.mu.Unlock()
		return
	}
	if wait := c.starting; wait != nil {
		c.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
		}
		return
	}
	done := make(chan struct{})
	c.starting = done
	c.stopTimers()
	c.gen++
	gen := c.gen
	if c.starts++; c.starts == 1 {
		c.setState(Starting)
	} else {
		c.setState(Restarting)
	}
	c.mu.Unlock()
	c.notify()

	cl, p, tools, err := c.connect(ctx, gen)

	c.mu.Lock()
	c.starting = nil
	close(done)
	if c.closed || gen != c.gen {
		c.mu.Unlock()
		closeClient(cl, p)
		return
	}
	if err != nil {
		c.mu.Unlock()
		var timeout *TimeoutError
		stopped := errors.As(err, &timeout) && p.exitStatus(0) == nil
		closeClient(cl, p) // the process has exited: its stderr is complete
		if why := p.exitStatus(0); why != nil && !stopped {
			// "transport closed" says less than how the server ended; a
			// process the host stopped for its timeout did not crash.
			err = fmt.Errorf("%w (%v)", err, why)
		}
		c.failed(gen, err, p.stderrTail())
		return
	}
	same := c.tools != nil && reflect.DeepEqual(tools, c.tools)
	c.cl, c.proc, c.readyAt = cl, p, c.m.clock.Now()
	c.setTools(tools)
	c.setState(Ready)
	c.schedulePing(gen)
	c.mu.Unlock()
	c.notify()
	if !same {
		c.m.changed()
	}
}

// failed records a failed start or a lost connection of start gen and
// schedules the next start: after its backoff, or, past the crash limit,
// after the slow retry; a configuration that cannot work waits for a new
// one.
func (c *conn) failed(gen int, err error, stderr string) {
	c.mu.Lock()
	if c.closed || gen != c.gen {
		c.mu.Unlock()
		return
	}
	c.err, c.failures = err, c.failures+1
	if stderr != "" {
		c.stderr = stderr
	}
	var cfgErr *configError
	c.badConfig = errors.As(err, &cfgErr)
	switch {
	case c.badConfig:
		c.setState(Failed)
	case c.failures >= c.m.opts.CrashLimit:
		c.setState(Failed)
		c.schedule(gen, c.m.opts.SlowRetry)
	default:
		c.setState(Restarting)
		c.schedule(gen, c.m.backoff(c.failures))
	}
	c.mu.Unlock()
	c.notify()
	c.m.report(Report{Server: c.name, Err: err, Stderr: stderr})
}

// schedule starts the server again after d, unless something else
// started it meanwhile; c.mu is held.
func (c *conn) schedule(gen int, d time.Duration) {
	c.retryAt = c.m.clock.Now().Add(d)
	c.retry = c.m.clock.AfterFunc(d, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if !c.closed && gen == c.gen && c.starting == nil {
			c.retry = nil
			c.goBackground(func() { c.start(c.m.ctx) })
		}
	})
}

// schedulePing pings a ready HTTP or SSE server of start gen every
// PingInterval: nothing else finds one that stopped answering while no
// call is made (a stdio server's exit is seen at once). A ping that fails
// or times out is a lost connection. c.mu is held.
func (c *conn) schedulePing(gen int) {
	if t := c.cfg.Transport(); t == "stdio" || t == inProcess || c.m.opts.PingInterval < 0 {
		return
	}
	c.ping = c.m.clock.AfterFunc(c.m.opts.PingInterval, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.closed || gen != c.gen || c.state != Ready {
			return
		}
		cl := c.cl
		c.goBackground(func() {
			ctx, cancel := context.WithTimeoutCause(c.m.ctx, c.to.start, fmt.Errorf("the server did not answer a ping within %v (its start timeout)", c.to.start))
			defer cancel()
			if err := cl.Ping(ctx); err != nil && c.m.ctx.Err() == nil {
				c.lost(gen, fmt.Errorf("ping failed: %w", cause(ctx, err)))
				return
			}
			c.mu.Lock()
			defer c.mu.Unlock()
			if !c.closed && gen == c.gen && c.state == Ready {
				c.schedulePing(gen)
			}
		})
	})
}

// stopTimers stops the timers of the next start and the next ping; c.mu
// is held.
func (c *conn) stopTimers() {
	for _, t := range []*stopper{&c.retry, &c.ping} {
		if *t != nil {
			(*t).Stop()
			*t = nil
		}
	}
}

// status is the server's Status now.
func (c *conn) status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := Status{
		Name: c.name, State: c.state, Transport: c.cfg.Transport(), ToolCount: len(c.tools),
		Err: c.err, StderrTail: c.stderr, Restarts: max(0, c.starts-1), Failures: c.failures, WaitingCalls: c.waiting,
		StartTimeoutMs: c.to.start.Milliseconds(), CallTimeoutMs: c.to.call.Milliseconds(),
		Tools: toolStatuses(c.tools),
	}
	if c.err != nil {
		st.LastError = c.err.Error()
	}
	if live := c.proc.liveStderr(); live != "" {
		st.StderrTail = live
	}
	if c.retry != nil {
		at := c.retryAt
		st.NextStart = &at
	}
	return st
}

// configError is a configuration that cannot work until it is changed.
type configError struct{ err error }

func (e *configError) Error() string { return e.err.Error() }
func (e *configError) Unwrap() error { return e.err }

// connect starts the transport, performs the handshake and reads the tools.
func (c *conn) connect(ctx context.Context, gen int) (*client.Client, *process, []execlua.Tool, error) {
	if c.srv == nil {
		if err := c.cfg.Check(); err != nil {
			return nil, nil, nil, &configError{err}
		}
	}
	cfg, err := c.cfg.Expand(c.m.opts.Lookup)
	if err != nil {
		return nil, nil, nil, &configError{err}
	}
	ctx, cancel := context.WithTimeoutCause(ctx, c.to.start,
		&TimeoutError{Server: c.name, After: c.to.start, From: c.to.startFrom})
	defer cancel()

	// Every transport speaks the protocol revisions with the initialize
	// handshake: the ones servers in use speak, and the ones whose
	// requests need no per-request _meta (which tools/list, sent raw,
	// does without).
	var tr transport.Interface
	var p *process
	switch cfg.Transport() {
	case inProcess:
		tr = inProcessTransport{transport.NewInProcessTransport(c.srv)}
	case "stdio":
		p, tr, err = startProcess(cfg, c.m.opts.Cwd, func(err error) { c.lost(gen, err) })
	case "http", "streamable-http":
		tr, err = transport.NewStreamableHTTP(cfg.URL, transport.WithHTTPHeaders(cfg.Headers),
			transport.WithContinuousListening(), transport.WithHTTPLogger(quiet))
	case "sse":
		var sse *transport.SSE
		sse, err = transport.NewSSE(cfg.URL, transport.WithHeaders(cfg.Headers), transport.WithSSELogger(quiet))
		tr = sseCancels{sse, sse}
	}
	if err != nil {
		return nil, p, nil, err
	}
	cl := client.NewClient(tr, client.WithLegacyProtocolOnly())
	cl.OnNotification(func(n mcp.JSONRPCNotification) {
		switch n.Method {
		case string(mcp.MethodNotificationToolsListChanged):
			c.listChanged(gen)
		case string(mcp.MethodNotificationProgress):
			c.onProgress(n)
		}
	})
	cl.OnConnectionLost(func(err error) { c.lost(gen, err) })
	if err := cl.Start(c.m.ctx); err != nil {
		return cl, p, nil, fmt.Errorf("could not start: %w", err)
	}
	var init mcp.InitializeRequest
	init.Params.ClientInfo = mcp.Implementation{Name: "execlua", Version: "1"}
	if _, err := cl.Initialize(ctx, init); err != nil {
		return cl, p, nil, fmt.Errorf("the initialize handshake failed: %w", cause(ctx, err))
	}
	tools, err := c.list(ctx, cl)
	if err != nil {
		return cl, p, nil, fmt.Errorf("tools/list failed: %w", cause(ctx, err))
	}
	return cl, p, tools, nil
}

// sseCancels hides that an SSE transport runs over HTTP, so that the
// client sends notifications/cancelled for a cancelled call: on the old
// SSE transport the answer comes on the event stream, and ending the POST
// does not reach the server's handler. What it hides (the protocol
// version header) the initialize handshake's revisions do without.
type sseCancels struct {
	transport.Interface
	sse *transport.SSE
}

// SetConnectionLostHandler passes the handler on, so that a lost stream
// marks the server disconnected.
func (s sseCancels) SetConnectionLostHandler(h func(error)) { s.sse.SetConnectionLostHandler(h) }

// inProcessTransport hands an in-process server contexts that carry none
// of the caller's values, only its cancellation: mcp-go reads a request's
// transport data from the context (the HTTP headers of a request the host
// is serving, its session), and an in-process server would take them for
// its own and refuse the call ("header mismatch").
type inProcessTransport struct {
	*transport.InProcessTransport
}

func (t inProcessTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	return t.InProcessTransport.SendRequest(valueless{ctx}, req)
}

func (t inProcessTransport) SendNotification(ctx context.Context, n mcp.JSONRPCNotification) error {
	return t.InProcessTransport.SendNotification(valueless{ctx}, n)
}

// valueless is a context with the deadline and cancellation of the one it
// wraps and none of its values.
type valueless struct{ context.Context }

func (valueless) Value(any) any { return nil }

// AfterFunc lets contexts derived from v follow its cancellation without a
// goroutine each (context's propagation looks for this method).
func (v valueless) AfterFunc(f func()) func() bool { return context.AfterFunc(v.Context, f) }

// cause prefers the reason a context ended over the error it caused.
func cause(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return err
}

// maxPages bounds a tools/list that never ends.
const maxPages = 1000

// list reads tools/list page by page, each entry as the server sent it,
// and maps the entries to pool tools. Entries that do not map are left out
// and reported.
func (c *conn) list(ctx context.Context, cl *client.Client) ([]execlua.Tool, error) {
	var tools []execlua.Tool
	seen := map[string]bool{}
	cursor := ""
	for range maxPages {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		resp, err := cl.GetTransport().SendRequest(ctx, transport.JSONRPCRequest{
			JSONRPC: mcp.JSONRPC_VERSION,
			ID:      mcp.NewRequestId(fmt.Sprintf("execlua-list-%d", c.m.ids.Add(1))),
			Method:  string(mcp.MethodToolsList),
			Params:  params,
		})
		if err != nil {
			return nil, err
		}
		if resp.Error != nil {
			return nil, resp.Error.AsError()
		}
		var page struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(resp.Result, &page); err != nil {
			return nil, fmt.Errorf("the result is not a tools/list result: %w", err)
		}
		for _, raw := range page.Tools {
			t, err := execlua.NewMCPTool(c.name, raw)
			var nameErr *execlua.NameError
			if errors.As(err, &nameErr) && nameErr.What == "server" {
				return nil, &configError{err}
			}
			if err != nil {
				c.m.report(Report{Server: c.name, Tool: listedName(raw), Err: fmt.Errorf("tool left out: %w", err)})
				continue
			}
			if seen[t.Name] {
				c.m.report(Report{Server: c.name, Tool: t.ServerTool, Err: errors.New("tool left out: the server lists it more than once")})
				continue
			}
			seen[t.Name] = true
			t.AlwaysLoad = t.AlwaysLoad || c.cfg.AlwaysLoad
			tools = append(tools, t)
		}
		if page.NextCursor == "" {
			return tools, nil
		}
		cursor = page.NextCursor
	}
	return nil, fmt.Errorf("tools/list did not end after %d pages", maxPages)
}

// listedName is an entry's name for a report, whatever the entry is.
func listedName(raw json.RawMessage) string {
	var e struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(raw, &e) // a broken entry has no name to report
	return e.Name
}

// listChanged schedules a new tools/list, coalescing notifications that
// come in a burst.
func (c *conn) listChanged(gen int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen || c.closed {
		return
	}
	if c.refresh != nil {
		c.refresh.Reset(c.m.opts.Debounce)
		return
	}
	c.refresh = time.AfterFunc(c.m.opts.Debounce, func() { c.relist(gen) })
}

// relist reads the tools again after a list_changed.
func (c *conn) relist(gen int) {
	c.mu.Lock()
	cl := c.cl
	ok := gen == c.gen && c.state == Ready && !c.closed
	c.refresh = nil
	c.mu.Unlock()
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(c.m.ctx, c.to.start)
	defer cancel()
	tools, err := c.list(ctx, cl)
	if err != nil {
		if isTransport(err) {
			c.lost(gen, err)
			return
		}
		c.m.report(Report{Server: c.name, Err: fmt.Errorf("tools/list after a list change failed: %w", err)})
		return
	}
	c.mu.Lock()
	if gen != c.gen || c.state != Ready {
		c.mu.Unlock()
		return
	}
	same := reflect.DeepEqual(tools, c.tools)
	c.setTools(tools)
	c.mu.Unlock()
	if !same {
		c.m.changed()
	}
}

// setTools replaces the tools and their index; c.mu is held.
func (c *conn) setTools(tools []execlua.Tool) {
	c.tools = tools
	c.byName = make(map[string]int, len(tools))
	for i, t := range tools {
		c.byName[t.Name] = i
	}
}

// lost marks the connection of start gen as gone: the server is started
// again after its backoff, and keeps its tools meanwhile. A server that
// was up for longer than the longest backoff starts its count of failures
// afresh: it is not crash-looping.
func (c *conn) lost(gen int, err error) {
	c.mu.Lock()
	if gen != c.gen || c.state != Ready || c.closed {
		c.mu.Unlock()
		return
	}
	cl, p := c.cl, c.proc
	c.cl, c.proc = nil, nil
	if c.m.clock.Now().Sub(c.readyAt) >= c.m.opts.MaxBackoff {
		c.failures = 0
	}
	c.stopTimers()
	c.setState(Restarting)
	c.goBackground(func() {
		closeClient(cl, p)
		c.failed(gen, fmt.Errorf("disconnected: %w", err), p.stderrTail())
	})
	c.mu.Unlock()
	c.notify()
}

// shutdown closes the connection for good and reports whether the server
// had tools in the pool.
func (c *conn) shutdown() bool {
	c.mu.Lock()
	c.closed = true
	c.gen++
	cl, p := c.cl, c.proc
	c.cl, c.proc = nil, nil
	had := len(c.tools) > 0
	c.setTools(nil)
	if c.refresh != nil {
		c.refresh.Stop()
	}
	c.stopTimers()
	c.setState(c.state) // wakes the calls waiting for it
	c.mu.Unlock()
	closeClient(cl, p)
	return had
}

// closeClient closes a client and stops its process; both may be nil.
func closeClient(cl *client.Client, p *process) {
	if cl != nil {
		_ = cl.Close() // the connection is being dropped; a failure to close it changes nothing
	}
	p.stop()
}

// isTransport reports an error of the connection rather than of the
// request.
func isTransport(err error) bool {
	var te *transport.Error
	return errors.As(err, &te) || errors.Is(err, transport.ErrTransportClosed)
}
