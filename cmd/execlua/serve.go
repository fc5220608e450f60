package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"

	"github.com/urfave/cli/v2"

	"github.com/execlua/execlua/host/serve"
)

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "serve Exec and the non-deferred tools to MCP clients",
		Description: `An MCP server fronting the configured servers: clients see Exec and the
non-deferred tools, nested calls go through the same permissions and hooks,
and each MCP session is its own conversation. Stdio by default; --http ADDR
serves streamable HTTP at /mcp to many clients at once. With no terminal to
ask on, calls that no permission rule covers are denied unless --yes.

Example:
   execlua serve --mcp-config .mcp.json
   execlua serve --demo --http 127.0.0.1:8080`,
		Flags: withCommon(
			&cli.StringFlag{Name: "http", Usage: "serve streamable HTTP on `ADDR` (host:port) instead of stdio"},
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "allow calls that no permission rule covers"},
			isolationFlag,
			budgetFlag,
			maxCallsFlag,
			maxWaitFlag,
		),
		Action: serveAction,
	}
}

func serveAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageErr("serve takes no arguments: execlua serve --http 127.0.0.1:8080", "unexpected argument %q", c.Args().First())
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
	server, err := serve.New(env.host, &serve.Options{Name: "execlua", Version: version})
	if err != nil {
		return usageErr("check the settings' enableExec and nonDeferredTools", "%v", err)
	}
	srv.Store(server)
	if addr == "" {
		if err := server.ServeStdio(c.Context, c.App.Reader, c.App.Writer); err != nil && !errors.Is(err, context.Canceled) {
			return &cliError{status: exitFailed, err: err}
		}
		return nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return usageErr("give --http a free host:port, e.g. 127.0.0.1:8080", "cannot listen: %v", err)
	}
	hs := &http.Server{Handler: server.Handler()}
	fmt.Fprintf(c.App.ErrWriter, "execlua: serving MCP at http://%s/mcp\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return &cliError{status: exitFailed, err: err}
	case <-c.Context.Done():
		return hs.Shutdown(context.WithoutCancel(c.Context))
	}
}
