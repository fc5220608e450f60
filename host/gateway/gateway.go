package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/execlua/execlua/host/serve"
)

// Options configure a Gateway. The zero value (and nil) accepts no token
// (so the gateway must listen on loopback only), allows no browser origin,
// and takes the default limits below.
type Options struct {
	// Tokens are the bearer tokens clients may send; with none, no
	// authentication is asked for. Each token names one client in logs,
	// metrics and the per-client run cap.
	Tokens []string
	// AllowedOrigins are the browser origins (scheme://host[:port]) a
	// request may come from; a request with any other Origin is refused.
	AllowedOrigins []string
	// MaxBody caps a request body in bytes (default DefaultMaxBody).
	MaxBody int64
	// ReadHeaderTimeout bounds the reading of a request's header, and
	// BodyTimeout that of its body; IdleTimeout closes a kept-alive
	// connection that carries no request. No write timeout is set: the
	// response of an Exec call streams for as long as the run lasts, and
	// the run has limits of its own; each write has a deadline of its own
	// instead (package serve).
	ReadHeaderTimeout, BodyTimeout, IdleTimeout time.Duration
	// ShutdownTimeout bounds how long Shutdown waits for responses being
	// written once the runs are over (default 5 s).
	ShutdownTimeout time.Duration
	// Metrics, when set, is served at /metrics.
	Metrics *Metrics
	// Status, when set, gives the server states /healthz reports (the
	// host's status of its MCP servers).
	Status func() any
	// Logger receives the gateway's logs; nil discards them.
	Logger *slog.Logger
}

// Defaults of Options.
const (
	DefaultMaxBody           = 4 << 20
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultBodyTimeout       = 30 * time.Second
	DefaultIdleTimeout       = 2 * time.Minute
	DefaultShutdownTimeout   = 5 * time.Second
)

// ErrNeedsToken refuses an address other machines can reach when no token
// is set.
var ErrNeedsToken = errors.New("serving beyond loopback needs a bearer token")

// Gateway serves an MCP server over HTTP: /mcp, /healthz and /metrics.
type Gateway struct {
	srv     *serve.Server
	opts    Options
	tokens  []token
	origins []string
	metrics *Metrics
	http    *http.Server

	mu      sync.Mutex
	streams map[*http.Request]context.CancelFunc // listening GET streams
	closing bool
}

// New returns a gateway for srv. An allowed origin that is not
// scheme://host[:port] is an error.
func New(srv *serve.Server, opts *Options) (*Gateway, error) {
	g := &Gateway{srv: srv, streams: map[*http.Request]context.CancelFunc{}}
	if opts != nil {
		g.opts = *opts
	}
	o := &g.opts
	setDefault(&o.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	setDefault(&o.BodyTimeout, DefaultBodyTimeout)
	setDefault(&o.IdleTimeout, DefaultIdleTimeout)
	setDefault(&o.ShutdownTimeout, DefaultShutdownTimeout)
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if err := checkOrigins(o.AllowedOrigins); err != nil {
		return nil, err
	}
	g.origins, g.metrics = o.AllowedOrigins, o.Metrics
	if g.metrics != nil {
		g.metrics.watch(srv)
	}
	for _, t := range o.Tokens {
		g.tokens = append(g.tokens, newToken(t))
	}
	g.http = &http.Server{
		Handler:           g.Handler(),
		ReadHeaderTimeout: o.ReadHeaderTimeout,
		IdleTimeout:       o.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(o.Logger.Handler(), slog.LevelDebug),
	}
	return g, nil
}

func setDefault(d *time.Duration, def time.Duration) {
	if *d <= 0 {
		*d = def
	}
}

// Handler is the gateway's routes behind its guard: /mcp (streamable
// HTTP), /healthz and /metrics.
func (g *Gateway) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/mcp", g.tracked(g.srv.Handler()))
	mux.HandleFunc("GET /healthz", g.health)
	if g.metrics != nil {
		mux.Handle("GET /metrics", g.metrics.handler())
	}
	return g.guard(mux)
}

// Serve serves on ln until Shutdown. A listener beyond loopback without
// a token is refused (ErrNeedsToken).
func (g *Gateway) Serve(ln net.Listener) error {
	if err := Check(ln.Addr(), &g.opts); err != nil {
		ln.Close()
		return err
	}
	if err := g.http.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Shutdown stops the gateway: Exec calls are answered that the server is
// shutting down, runs in flight may finish until ctx ends and are then
// cancelled, listening streams are ended, and the responses being written
// are given ShutdownTimeout before the connections are closed. It returns
// the number of runs it cancelled.
func (g *Gateway) Shutdown(ctx context.Context) (int, error) {
	cancelled := g.srv.Drain(ctx)
	g.mu.Lock()
	g.closing = true
	for _, end := range g.streams {
		end()
	}
	g.mu.Unlock()
	wait, stop := context.WithTimeout(context.WithoutCancel(ctx), g.opts.ShutdownTimeout)
	defer stop()
	if err := g.http.Shutdown(wait); err != nil {
		return cancelled, errors.Join(err, g.http.Close())
	}
	return cancelled, nil
}

// Check says whether a gateway with opts may serve on addr: the allowed
// origins must be origins, and an address other machines can reach needs
// a token (ErrNeedsToken). Serve checks it; a caller can check first,
// before it starts anything.
func Check(addr net.Addr, opts *Options) error {
	var o Options
	if opts != nil {
		o = *opts
	}
	if err := checkOrigins(o.AllowedOrigins); err != nil {
		return err
	}
	if !IsLoopback(addr) && len(o.Tokens) == 0 {
		return fmt.Errorf("%w: other machines can reach %s", ErrNeedsToken, addr)
	}
	return nil
}

// tracked lets Shutdown end the listening GET streams, which never end
// by themselves.
func (g *Gateway) tracked(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			next.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithCancel(r.Context())
		r = r.WithContext(ctx)
		g.mu.Lock()
		g.streams[r] = cancel
		if g.closing {
			cancel() // a stream opened once Shutdown has ended the others
		}
		g.mu.Unlock()
		defer func() {
			g.mu.Lock()
			delete(g.streams, r)
			g.mu.Unlock()
			cancel()
		}()
		next.ServeHTTP(w, r)
	})
}

// health answers /healthz: "ok", or "draining" once Shutdown began, the
// runs in flight, and the server states Options.Status gives.
func (g *Gateway) health(w http.ResponseWriter, _ *http.Request) {
	body := struct {
		Status  string `json:"status"`
		Running int    `json:"running"`
		Servers any    `json:"servers,omitempty"`
	}{Status: "ok", Running: g.srv.Running()}
	if g.srv.Draining() {
		body.Status = "draining"
	}
	if g.opts.Status != nil {
		body.Servers = g.opts.Status()
	}
	w.Header().Set("Content-Type", "application/json")
	if body.Status != "ok" {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	_ = json.NewEncoder(w).Encode(body)
}
