package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/execlua/execlua/host"
)

func serversCommand() *cli.Command {
	return &cli.Command{
		Name:  "servers",
		Usage: "show each MCP server's state, timeouts, last error and tools",
		Description: `Starts the configured MCP servers as run would and shows each one's state
(starting, ready, restarting, failed, disabled), transport, timeouts, last
error, the tail of its stderr, and its tools with their annotations
(read-only, destructive, idempotent, open-world: what --dry-run performs).
--json prints the same status a gateway's health endpoint serves.

Example:
   execlua servers --mcp-config .mcp.json
   execlua servers --demo --json`,
		Flags:  withCommon(jsonFlag),
		Action: serversAction,
	}
}

func serversAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageErr("servers takes no arguments: execlua servers --json", "unexpected argument %q", c.Args().First())
	}
	env, err := openHost(c, hostSetup{prompter: newPrompter(c)})
	if err != nil {
		return err
	}
	defer env.close()
	status := serverStatus(env.host)
	if c.Bool("json") {
		return writeJSON(c.App.Writer, status)
	}
	writeServers(c.App.Writer, status)
	return nil
}

// serverStatus is the host's server status, never null in JSON.
func serverStatus(h *host.Host) []host.ServerStatus {
	status := h.Servers()
	if status == nil {
		status = []host.ServerStatus{}
	}
	for i := range status {
		if status[i].Tools == nil {
			status[i].Tools = []host.ToolStatus{}
		}
	}
	return status
}

// writeServers prints the status for a person: a line per server, its last
// error and stderr when it has them, and a line per tool with its hints.
func writeServers(w io.Writer, status []host.ServerStatus) {
	if len(status) == 0 {
		fmt.Fprintln(w, "No MCP server is configured: add some with --mcp-config or --settings, or try --demo.")
		return
	}
	for _, st := range status {
		fmt.Fprintf(w, "%s  %s  %s  %d tools  start timeout %s, call timeout %s", st.Name, st.State, st.Transport, st.ToolCount,
			millis(st.StartTimeoutMs), millis(st.CallTimeoutMs))
		if st.Restarts > 0 {
			fmt.Fprintf(w, "  %d restarts", st.Restarts)
		}
		fmt.Fprintln(w)
		if st.LastError != "" {
			fmt.Fprintf(w, "  last error: %s\n", firstLine(st.LastError))
		}
		if st.StderrTail != "" {
			fmt.Fprintf(w, "  stderr:\n%s\n", indent(indent(st.StderrTail)))
		}
		for _, t := range st.Tools {
			fmt.Fprintf(w, "  %s%s\n", t.Name, hints(t))
		}
	}
}

func millis(ms int64) string {
	if ms == 0 {
		return "none"
	}
	return fmt.Sprintf("%dms", ms)
}

// hints lists the annotations a tool declared true: "  [read-only, idempotent]".
func hints(t host.ToolStatus) string {
	var on []string
	for _, h := range []struct {
		name string
		v    *bool
	}{{"read-only", t.ReadOnly}, {"destructive", t.Destructive}, {"idempotent", t.Idempotent}, {"open-world", t.OpenWorld}} {
		if h.v != nil && *h.v {
			on = append(on, h.name)
		}
	}
	if len(on) == 0 {
		return ""
	}
	return "  [" + strings.Join(on, ", ") + "]"
}
