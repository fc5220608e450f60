package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
)

// Options configure a Server. The zero value (and nil) names the server
// "execlua" with version "dev", takes at most DefaultMaxRuns runs at once
// and DefaultMaxRunsPerClient of one client, gives a client
// DefaultWriteStall to take each write, and tells nobody of them.
type Options struct {
	// Name and Version are what the server reports in initialize.
	Name, Version string
	// MaxRuns caps the Exec runs in flight over all clients, and
	// MaxRunsPerClient those of one client (counted by the name WithClient
	// gave, else by MCP session, else by remote host). Past either cap an
	// Exec call is answered at once with an error result saying so
	// (ErrBusy). 0 takes the default; a negative value sets no cap.
	MaxRuns, MaxRunsPerClient int
	// Observers are told of every Exec call and every call through the
	// host's funnel that clients' requests make.
	Observers []Observer
	// WriteStall bounds how long one write of an HTTP response may wait
	// for the client to take it (default DefaultWriteStall): a client that
	// stops reading loses its connection, and so its run, rather than hold
	// them for good. It bounds each write, not the response, which streams
	// for as long as its run lasts.
	WriteStall time.Duration
}

// Defaults of Options.
const (
	DefaultMaxRuns          = 32
	DefaultMaxRunsPerClient = 4
	DefaultWriteStall       = 30 * time.Second
)

// Server is the MCP server. Its methods are safe for concurrent use.
type Server struct {
	host *host.Host
	opts Options
	mcp  *server.MCPServer
	runs *runs
	// intro is the announcement given as instructions; every conversation
	// starts having heard it.
	intro *execlua.Message
	// shared follows the host; it answers what tools[] is and runs every
	// conversation's Exec calls. A session keeps nothing of a conversation
	// (what was announced is read off the history given to it), so one
	// session, one assembled pool and one search index serve every client.
	shared *execlua.Session

	mu       sync.Mutex
	convs    map[string]*conversation
	declared []execlua.ToolDeclaration
}

// conversation is one MCP session's Exec state: what it was told.
type conversation struct {
	mu      sync.Mutex
	history []execlua.Message // the announcements this client was given
}

// New returns a server fronting h. The host stays the caller's to close.
func New(h *host.Host, opts *Options) (*Server, error) {
	o := withDefaults(opts)
	shared, err := h.NewSession(nil)
	if err != nil {
		return nil, err
	}
	s := &Server{host: h, opts: o, shared: shared, convs: map[string]*conversation{}, runs: newRuns(o.MaxRuns, o.MaxRunsPerClient)}
	hooks := &server.Hooks{}
	hooks.AddOnUnregisterSession(func(_ context.Context, cs server.ClientSession) {
		s.mu.Lock()
		delete(s.convs, cs.SessionID())
		s.mu.Unlock()
	})
	hooks.AddBeforeListTools(func(ctx context.Context, _ any, _ *mcp.ListToolsRequest) { s.sync() })
	serverOpts := []server.ServerOption{server.WithHooks(hooks), server.WithToolCapabilities(true), server.WithRecovery()}
	if a := shared.Request(nil).Announcement; a != nil {
		s.intro = &execlua.Message{IsMeta: true, Text: a.Text}
		serverOpts = append(serverOpts, server.WithInstructions(a.Text))
	}
	s.mcp = server.NewMCPServer(o.Name, o.Version, serverOpts...)
	s.sync()
	return s, nil
}

func withDefaults(opts *Options) Options {
	o := Options{}
	if opts != nil {
		o = *opts
	}
	if o.Name == "" {
		o.Name = "execlua"
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	if o.MaxRuns == 0 {
		o.MaxRuns = DefaultMaxRuns
	}
	if o.MaxRunsPerClient == 0 {
		o.MaxRunsPerClient = DefaultMaxRunsPerClient
	}
	if o.WriteStall <= 0 {
		o.WriteStall = DefaultWriteStall
	}
	return o
}

// MCPServer is the underlying mcp-go server, for other transports.
func (s *Server) MCPServer() *server.MCPServer { return s.mcp }

// ServeStdio serves one client over in and out until in ends or ctx is
// cancelled.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	std := server.NewStdioServer(s.mcp)
	std.SetErrorLogger(log.New(io.Discard, "", 0)) // library code does not print
	return std.Listen(ctx, in, out)
}

// Handler serves streamable HTTP; each client's MCP session is its own
// conversation. An Exec call's progress notifications go on its own
// response, in order, ahead of its result.
func (s *Server) Handler() http.Handler {
	h := server.NewStreamableHTTPServer(s.mcp, server.WithStreamableHTTPLogger(slog.New(slog.DiscardHandler)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		stream := newPostStream(w, s.opts.WriteStall)
		ctx := context.WithValue(r.Context(), streamKey{}, stream)
		ctx = context.WithValue(ctx, remoteKey{}, r.RemoteAddr)
		h.ServeHTTP(stream, r.WithContext(ctx))
	})
}

// Drain shuts the server's runs down: from now on an Exec call is
// answered with ErrShuttingDown; the runs in flight may finish until ctx
// ends, and are then cancelled (their result says the server is shutting
// down). It returns once no run is left, with the number it cancelled.
// The transports stay the caller's to close.
func (s *Server) Drain(ctx context.Context) int { return s.runs.drain(ctx) }

// Draining reports whether Drain has begun.
func (s *Server) Draining() bool { return s.runs.isDraining() }

// Running counts the Exec runs in flight.
func (s *Server) Running() int { return s.runs.inFlight() }

// Refresh declares tools[] again as the host assembles it now; connected
// clients are told when it changed. Call it from host.Options.OnChange:
// tools[] changes only when the settings or the flat tools do. Clients
// asking for the list get it fresh in any case.
func (s *Server) Refresh() { s.sync() }

// sync declares tools[] as the host assembles it now: Exec and the flat
// tools. Exec is declared while servers are configured even if none has
// given a tool yet (offersExec).
func (s *Server) sync() {
	req := s.shared.Request(nil)
	decls := req.Tools
	if s.offersExec(req) {
		decls = append([]execlua.ToolDeclaration{execlua.Declaration()}, decls...)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if slices.EqualFunc(decls, s.declared, sameDeclaration) {
		return
	}
	s.declared = decls
	tools := make([]server.ServerTool, len(decls))
	for i, d := range decls {
		tool := mcp.NewToolWithRawSchema(d.Name, d.Description, d.InputSchema)
		handler := s.flat(d.Name)
		if d.Name == execlua.Name {
			handler = s.exec
		}
		tools[i] = server.ServerTool{Tool: tool, Handler: handler}
	}
	s.mcp.SetTools(tools...)
}

func sameDeclaration(a, b execlua.ToolDeclaration) bool {
	return a.Name == b.Name && a.Description == b.Description && string(a.InputSchema) == string(b.InputSchema)
}

// conversation returns the calling session's conversation, starting it at
// the session's first call. A request with no session (protocol versions
// from 2026-07-28 on are sessionless) is a conversation of its own that has
// heard only the instructions: it is told of the pool whenever the pool
// differs from them.
func (s *Server) conversation(ctx context.Context) *conversation {
	id := ""
	if cs := server.ClientSessionFromContext(ctx); cs != nil {
		id = cs.SessionID()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.convs[id]; ok {
		return c
	}
	c := &conversation{}
	if s.intro != nil {
		c.history = []execlua.Message{*s.intro}
	}
	if id != "" {
		s.convs[id] = c
	}
	return c
}

// exec runs one Exec call in the caller's conversation, within the caps
// on runs in flight.
func (s *Server) exec(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	start := time.Now()
	who := client(ctx)
	input, err := json.Marshal(req.GetRawArguments())
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	rec := RunRecord{Client: who, Input: input}
	run, end, err := s.runs.start(ctx, who.key())
	if err != nil {
		rec.Result = turnedAway(err)
		rec.Duration = time.Since(start)
		s.ran(rec)
		return mcp.NewToolResultError(rec.Result.Text), nil
	}
	defer end()
	content, empty := s.announce(s.conversation(ctx))
	if empty != nil {
		// Declared while no server has given a tool (offersExec): say
		// where each server is instead of running a script with nothing
		// to call.
		rec.Result, rec.Duration = noToolsYet(s.host.Servers(), registered(empty), time.Now()), time.Since(start)
		s.ran(rec)
		return mcp.NewToolResultError(rec.Result.Text), nil
	}
	run, messages := collect(inSession(run))
	run, decision := s.observe(run, who)
	report, delivered := progress(ctx, req)
	res := s.host.RunExec(run, s.shared, input, &execlua.RunOptions{Progress: report})
	delivered()
	if res.IsError && errors.Is(context.Cause(run), ErrShuttingDown) {
		res = cancelledAtShutdown(res)
	}
	rec.Decision, rec.Result, rec.Duration = decision(), res, time.Since(start)
	s.ran(rec)
	content = append(content, mcp.NewTextContent(res.Text))
	for _, img := range res.Images {
		content = append(content, mcp.NewImageContent(img.Data, img.MIMEType))
	}
	return &mcp.CallToolResult{Content: append(content, messages()...), IsError: res.IsError}, nil
}

// announce returns the announcement conv has yet to hear, recording it as
// heard. The announcement is decided and recorded before the run, so that
// two Exec calls of one conversation at once deliver it once. When the
// pool is empty it announces nothing and returns the assembly as empty.
func (s *Server) announce(conv *conversation) (content []mcp.Content, empty *execlua.Assembly) {
	conv.mu.Lock()
	defer conv.mu.Unlock()
	now := s.shared.Request(conv.history)
	if now.Assembly.Exec == execlua.ExecEmptyPool {
		return nil, now.Assembly
	}
	if a := now.Announcement; a != nil {
		conv.history = append(conv.history, execlua.Message{IsMeta: true, Text: a.Text})
		content = []mcp.Content{mcp.NewTextContent(a.Text)}
	}
	return content, nil
}

// turnedAway is the result of an Exec call the server did not run.
func turnedAway(err error) execlua.Result {
	text := err.Error()
	if errors.Is(err, ErrShuttingDown) {
		text = "Exec did not run: the server is shutting down and takes no new runs."
	}
	return execlua.Result{Text: text, IsError: true, Summary: "failed", Err: err}
}

// cancelledAtShutdown says why a run the shutdown cancelled ended.
func cancelledAtShutdown(res execlua.Result) execlua.Result {
	res.Text = "The server is shutting down and cancelled this run after its grace period. " + res.Text
	res.Err = fmt.Errorf("%w: %w", ErrShuttingDown, res.Err)
	return res
}

// flat performs a direct call of a non-deferred tool through the host's
// funnel, as a nested call would be performed.
func (s *Server) flat(name string) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := json.Marshal(req.GetRawArguments())
		if err != nil || string(args) == "null" {
			args = json.RawMessage(`{}`)
		}
		call, messages := collect(inSession(ctx))
		call, _ = s.observe(call, client(ctx))
		out, err := s.host.Funnel().Call(call, execlua.Call{Name: name, Args: args})
		res := toResult(out)
		if err != nil {
			res = mcp.NewToolResultError(err.Error())
		}
		res.Content = append(res.Content, messages()...)
		return res, nil
	}
}

// inSession returns ctx with the calling MCP session's id as the session
// id its hooks read (HOOK-8), so that each client's conversation has one of
// its own, stable across its calls; a request with no session keeps the
// host's.
func inSession(ctx context.Context) context.Context {
	if cs := server.ClientSessionFromContext(ctx); cs != nil && cs.SessionID() != "" {
		return host.WithSession(ctx, cs.SessionID(), "")
	}
	return ctx
}

// collect returns a context of ctx that collects the messages PostToolUse
// hooks add to the conversation (HOOK-3); an MCP result has no place for
// isMeta messages, so messages returns them as text blocks to follow the
// result. (The host keeps this request's transport values away from
// in-process servers itself.)
func collect(ctx context.Context) (run context.Context, messages func() []mcp.Content) {
	var mu sync.Mutex
	var texts []mcp.Content
	run = host.WithMessages(ctx, func(text string) {
		mu.Lock()
		texts = append(texts, mcp.NewTextContent(text))
		mu.Unlock()
	})
	messages = func() []mcp.Content {
		mu.Lock()
		defer mu.Unlock()
		return texts
	}
	return run, messages
}

// toResult is a tool's output as an MCP tool result.
func toResult(out execlua.Output) *mcp.CallToolResult {
	res := &mcp.CallToolResult{}
	for _, t := range out.Text {
		res.Content = append(res.Content, mcp.NewTextContent(t))
	}
	for _, img := range out.Images {
		res.Content = append(res.Content, mcp.NewImageContent(img.Data, img.MIMEType))
	}
	if len(out.Structured) > 0 {
		res.StructuredContent = out.Structured
		if len(out.Text) == 0 {
			res.Content = append(res.Content, mcp.NewTextContent(string(out.Structured)))
		}
	}
	if res.Content == nil {
		res.Content = []mcp.Content{}
	}
	return res
}
