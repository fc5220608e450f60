package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"sync/atomic"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host/gateway"
	"github.com/execlua/execlua/host/serve"
)

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "serve Exec and the non-deferred tools to MCP clients",
		Description: `An MCP server fronting the configured servers: clients see Exec and the
non-deferred tools, nested calls go through the same permissions and hooks,
and each MCP session is its own conversation. Stdio by default; --http ADDR
serves streamable HTTP at /mcp (with /healthz and /metrics) to many clients
at once. With no terminal to ask on, calls that no permission rule covers
are denied unless --yes. Scripts run in worker processes by default.

Over HTTP: an address without a host binds loopback; one other machines can
reach needs a token (--token-file or --token-env), which clients send as
Authorization: Bearer TOKEN. Browser origins are refused unless allowed.
On SIGTERM or SIGINT, runs in flight get --grace to finish, then are
cancelled; every child process is ended.

Example:
   execlua serve --mcp-config .mcp.json
   execlua serve --demo --http 127.0.0.1:8080 --audit audit.jsonl
   execlua serve --http 0.0.0.0:8080 --token-file token.txt`,
		Flags: withCommon(
			&cli.StringFlag{Name: "http", Usage: "serve streamable HTTP on `ADDR` (host:port; :port is loopback) instead of stdio"},
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "allow calls that no permission rule covers"},
			&cli.StringFlag{Name: "isolation", Value: string(execlua.Process),
				Usage: "where scripts run: process (a worker process per run, with its own memory cap, killed past its budget), or inprocess"},
			budgetFlag,
			maxCallsFlag,
			maxWaitFlag,
			&cli.StringFlag{Name: "token-file", Usage: "accept the bearer tokens in `FILE` (one a line)", TakesFile: true},
			&cli.StringFlag{Name: "token-env", Usage: "accept the bearer token in the environment variable `VAR`"},
			&cli.StringSliceFlag{Name: "allow-origin", Usage: "allow browser requests from `ORIGIN` (scheme://host[:port]; repeatable)"},
			&cli.IntFlag{Name: "max-runs", Value: serve.DefaultMaxRuns, Usage: "most Exec runs in flight over all clients"},
			&cli.IntFlag{Name: "max-runs-per-client", Value: serve.DefaultMaxRunsPerClient, Usage: "most Exec runs in flight of one client (by token, else MCP session, else remote host)"},
			&cli.Int64Flag{Name: "max-body", Value: gateway.DefaultMaxBody, Usage: "largest HTTP request body, in bytes"},
			&cli.DurationFlag{Name: "read-header-timeout", Value: gateway.DefaultReadHeaderTimeout, Usage: "time a client has to send a request's header"},
			&cli.DurationFlag{Name: "body-timeout", Value: gateway.DefaultBodyTimeout, Usage: "time a client has to send a request's body"},
			&cli.DurationFlag{Name: "idle-timeout", Value: gateway.DefaultIdleTimeout, Usage: "close a kept-alive connection idle this long"},
			&cli.DurationFlag{Name: "write-stall", Value: serve.DefaultWriteStall, Usage: "end a connection whose client leaves one write of a response untaken this long"},
			&cli.DurationFlag{Name: "grace", Value: 30 * time.Second, Usage: "at shutdown, time runs in flight get to finish before they are cancelled"},
			&cli.StringFlag{Name: "audit", Usage: "append a JSON line for every Exec and every tool call to `FILE`", TakesFile: true},
			&cli.StringFlag{Name: "log-level", Value: "info", Usage: "log to stderr from `LEVEL` up: debug, info, warn or error"},
		),
		Action: serveAction,
	}
}

func serveAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageErr("serve takes no arguments: execlua serve --http 127.0.0.1:8080", "unexpected argument %q", c.Args().First())
	}
	logger, err := serveLogger(c)
	if err != nil {
		return err
	}
	addr := c.String("http")
	prompter := newPrompter(c)
	if addr == "" {
		// Stdin and stdout carry the protocol: nobody can be asked.
		prompter = noTerminal{}
		if c.Bool("yes") {
			prompter = yes{noTerminal{}}
		}
	}
	if c.Int("max-runs") < 0 || c.Int("max-runs-per-client") < 0 {
		return usageErr("give --max-runs and --max-runs-per-client a whole number, 0 for the default", "the caps on runs must not be negative")
	}
	var web *httpSetup
	if addr != "" {
		// Refused before any server starts.
		if web, err = listenHTTP(c); err != nil {
			return err
		}
		defer web.ln.Close()
	}
	observers, closeAudit, err := serveObservers(c, logger)
	if err != nil {
		return err
	}
	defer closeAudit()
	// The host reports changes from its first connection on; the server
	// exists a little later, and declares the list as it is then.
	var srv atomic.Pointer[serve.Server]
	env, err := openHost(c, hostSetup{prompter: prompter, onChange: func() {
		if s := srv.Load(); s != nil {
			s.Refresh()
		}
	}})
	if err != nil {
		return err
	}
	defer env.close()
	metrics := gateway.NewMetrics(&gateway.MetricsOptions{Servers: serverStates(env), Workers: env.workerStats()})
	server, err := serve.New(env.host, &serve.Options{Name: "execlua", Version: version,
		MaxRuns: c.Int("max-runs"), MaxRunsPerClient: c.Int("max-runs-per-client"), WriteStall: c.Duration("write-stall"),
		Observers: append(observers, metrics)})
	if err != nil {
		return usageErr("check the settings' enableExec and nonDeferredTools", "%v", err)
	}
	srv.Store(server)
	if web == nil {
		return serveStdio(c, server, logger)
	}
	web.opts.Metrics, web.opts.Logger = metrics, logger
	web.opts.Status = func() any { return serverStatus(env.host) }
	return serveGateway(c, server, web, logger)
}

// serveStdio serves one client on stdin and stdout until stdin ends or a
// signal comes; then the runs in flight get the grace period.
func serveStdio(c *cli.Context, server *serve.Server, logger *slog.Logger) error {
	ctx, stop := context.WithCancel(context.WithoutCancel(c.Context))
	defer stop()
	done := make(chan error, 1)
	go func() { done <- server.ServeStdio(ctx, c.App.Reader, c.App.Writer) }()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
			return &cliError{status: exitFailed, err: err}
		}
		return nil
	case <-c.Context.Done():
	}
	drain(c, logger, server.Drain)
	stop()
	<-done
	return nil
}

const originHint = "give --allow-origin as scheme://host[:port]"

// httpSetup is serve --http's listener and gateway options, checked
// before any server starts.
type httpSetup struct {
	ln   net.Listener
	opts gateway.Options
}

// listenHTTP reads the gateway's flags and listens: on loopback when the
// address names no host, and elsewhere only with a token.
func listenHTTP(c *cli.Context) (*httpSetup, error) {
	tokens, err := serveTokens(c)
	if err != nil {
		return nil, err
	}
	opts := gateway.Options{
		Tokens: tokens, AllowedOrigins: c.StringSlice("allow-origin"), MaxBody: c.Int64("max-body"),
		ReadHeaderTimeout: c.Duration("read-header-timeout"), BodyTimeout: c.Duration("body-timeout"), IdleTimeout: c.Duration("idle-timeout"),
	}
	addr := c.String("http")
	if host, port, err := net.SplitHostPort(addr); err == nil && host == "" {
		addr = net.JoinHostPort("127.0.0.1", port) // loopback unless told otherwise
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, usageErr("give --http a free host:port, e.g. 127.0.0.1:8080", "cannot listen: %v", err)
	}
	if err := gateway.Check(ln.Addr(), &opts); err != nil {
		ln.Close()
		if errors.Is(err, gateway.ErrNeedsToken) {
			return nil, usageErr("give --token-file or --token-env, or serve on 127.0.0.1", "%v", err)
		}
		return nil, usageErr(originHint, "%v", err)
	}
	return &httpSetup{ln: ln, opts: opts}, nil
}

// serveGateway serves HTTP until a signal, then shuts the gateway down.
func serveGateway(c *cli.Context, server *serve.Server, web *httpSetup, logger *slog.Logger) error {
	gw, err := gateway.New(server, &web.opts)
	if err != nil {
		return usageErr(originHint, "%v", err)
	}
	ln := web.ln
	fmt.Fprintf(c.App.ErrWriter, "execlua: serving MCP at http://%s/mcp\n", ln.Addr())
	logger.Info("serving", "addr", ln.Addr().String(), "auth", len(web.opts.Tokens) > 0, "isolation", c.String("isolation"))
	done := make(chan error, 1)
	go func() { done <- gw.Serve(ln) }()
	select {
	case err := <-done:
		return &cliError{status: exitFailed, err: err}
	case <-c.Context.Done():
	}
	var shutErr error
	drain(c, logger, func(ctx context.Context) int {
		n, err := gw.Shutdown(ctx)
		shutErr = err
		return n
	})
	<-done
	if shutErr != nil {
		logger.Warn("connections closed before their responses were written", "error", shutErr)
	}
	return nil
}

// drain gives the runs in flight the grace period, and logs the outcome.
func drain(c *cli.Context, logger *slog.Logger, shutdown func(context.Context) int) {
	grace := c.Duration("grace")
	logger.Info("shutting down", "grace", grace)
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if n := shutdown(ctx); n > 0 {
		logger.Warn("runs cancelled at shutdown", "runs", n)
	}
}

// serveTokens reads the bearer tokens --token-file and --token-env name.
func serveTokens(c *cli.Context) ([]string, error) {
	var tokens []string
	if path := c.String("token-file"); path != "" {
		t, err := gateway.ReadTokens(path)
		if err != nil {
			return nil, usageErr("give --token-file a file with one token a line", "--token-file: %v", err)
		}
		tokens = t
	}
	if name := c.String("token-env"); name != "" {
		t := os.Getenv(name)
		if t == "" {
			return nil, usageErr("export the variable before starting serve, or use --token-file", "--token-env: the variable %s is empty or not set", name)
		}
		tokens = append(tokens, t)
	}
	return tokens, nil
}

// serveLogger logs to stderr as text, from --log-level up.
func serveLogger(c *cli.Context) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.String("log-level"))); err != nil {
		return nil, usageErr("give --log-level debug, info, warn or error", "unknown log level %q", c.String("log-level"))
	}
	return slog.New(slog.NewTextHandler(c.App.ErrWriter, &slog.HandlerOptions{Level: level})), nil
}

// serveObservers are the logs, and the audit log when --audit names one.
func serveObservers(c *cli.Context, logger *slog.Logger) ([]serve.Observer, func(), error) {
	observers := []serve.Observer{gateway.Log{Logger: logger}}
	path := c.String("audit")
	if path == "" {
		return observers, func() {}, nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, usageErr("give --audit a file that can be written", "--audit: %v", err)
	}
	audit := gateway.NewAudit(f, &gateway.AuditOptions{OnError: func(err error) { logger.Error("audit log", "error", err) }})
	return append(observers, audit), func() { f.Close() }, nil
}

// serverStates are the host's MCP servers as the metrics count them.
func serverStates(e *env) func() []gateway.ServerState {
	return func() []gateway.ServerState {
		var out []gateway.ServerState
		for _, st := range e.host.Servers() {
			out = append(out, gateway.ServerState{Name: st.Name, State: st.State.String(), Restarts: st.Restarts})
		}
		return out
	}
}

// workerStats counts the worker processes under --isolation process.
func (e *env) workerStats() func() (int, int) {
	if e.workers == nil {
		return nil
	}
	return e.workers.Stats
}
