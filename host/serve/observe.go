package serve

import (
	"context"
	"encoding/json"
	"net"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
)

// Observer is told of what clients do: audit logs, metrics and logs plug
// in here. Its methods are called from many goroutines at once and must
// return quickly.
type Observer interface {
	// Run is told of each Exec call when it ends: one that ran, one the
	// host refused, and one the server turned away (busy, shutting down).
	Run(RunRecord)
	// Call is told of each call a client's request made through the host's
	// funnel when it ends: the nested calls of a run, and flat calls.
	Call(Client, host.CallRecord)
}

// Client says who made a request.
type Client struct {
	// ID is the name the transport authenticated the client by (see
	// WithClient); "" when it did not.
	ID string
	// Session is the MCP session; "" for stdio and sessionless requests.
	Session string
	// Remote is the address the request came from; "" for stdio.
	Remote string
}

// key is what the per-client run limit counts by: the authenticated
// client, else its MCP session, else its remote host.
func (c Client) key() string {
	switch {
	case c.ID != "":
		return "id:" + c.ID
	case c.Session != "":
		return "session:" + c.Session
	}
	host, _, err := net.SplitHostPort(c.Remote)
	if err != nil {
		host = c.Remote
	}
	return "remote:" + host
}

// RunRecord is one Exec call as an Observer sees it.
type RunRecord struct {
	Client Client
	// Input is the call's input as the client sent it.
	Input json.RawMessage
	// Decision is who let the run start or refused it (host.Decision);
	// zero when the server turned the call away before the host saw it.
	Decision host.Decision
	// Result is what the client was answered; Result.Err says why a run
	// failed (ErrBusy, ErrShuttingDown, or the host's and run's errors).
	Result   execlua.Result
	Duration time.Duration
}

type clientKey struct{}
type remoteKey struct{}

// WithClient returns a context whose requests come from the client named
// id: an HTTP middleware that authenticated the request sets it, and the
// per-client run limit then counts by it.
func WithClient(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, clientKey{}, id)
}

// client says who made the request ctx belongs to.
func client(ctx context.Context) Client {
	var c Client
	c.ID, _ = ctx.Value(clientKey{}).(string)
	c.Remote, _ = ctx.Value(remoteKey{}).(string)
	if cs := server.ClientSessionFromContext(ctx); cs != nil {
		c.Session = cs.SessionID()
	}
	return c
}

// observe returns a context of ctx whose calls through the host's funnel
// are told to the observers, and a function that returns the decision
// about Exec itself once RunExec has returned.
func (s *Server) observe(ctx context.Context, c Client) (context.Context, func() host.Decision) {
	if len(s.opts.Observers) == 0 {
		return ctx, func() host.Decision { return host.Decision{} }
	}
	var exec host.Decision
	ctx = host.WithObserver(ctx, func(rec host.CallRecord) {
		if rec.Name == execlua.Name {
			exec = rec.Decision // RunExec's own record, told last
			return
		}
		for _, o := range s.opts.Observers {
			o.Call(c, rec)
		}
	})
	return ctx, func() host.Decision { return exec }
}

// ran tells the observers of an Exec call.
func (s *Server) ran(rec RunRecord) {
	for _, o := range s.opts.Observers {
		o.Run(rec)
	}
}
