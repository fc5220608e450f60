package serve

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/servers"
)

// ErrNoToolsYet is an Exec call answered without a run because the pool
// is empty while servers are configured: none of them has given a tool
// yet (they are starting, restarting or failed).
var ErrNoToolsYet = errors.New("no MCP server has given Exec any tools yet")

// offersExec reports whether tools[] gets Exec although the pool is empty
// (POOL-3 leaves it out): a gateway with servers configured offers Exec
// all along, so that a server that connects late, or comes back, needs no
// client to reconnect or list the tools again.
func (s *Server) offersExec(req *execlua.Request) bool {
	if req.Assembly.Exec != execlua.ExecEmptyPool {
		return false
	}
	for _, st := range s.host.Servers() {
		if st.State != servers.Disabled {
			return true
		}
	}
	return false
}

// registered reports whether the session's assembly has a tool, in the
// pool or not.
func registered(asm *execlua.Assembly) func(name string) bool {
	names := map[string]bool{}
	for _, t := range asm.Registered() {
		names[t.Name] = true
	}
	return func(name string) bool { return names[name] }
}

// noToolsYet is the result of an Exec call made while the pool is empty:
// each configured server's state, its last error, and whether it is tried
// again. known says which tools the session has: a ready server whose
// tools it has not yet has just connected.
func noToolsYet(configured []host.ServerStatus, known func(string) bool, now time.Time) execlua.Result {
	var b strings.Builder
	b.WriteString("Exec did not run: no MCP server has given Exec any tools yet, so a script has nothing to call. ")
	b.WriteString("Call Exec again once a server is ready; its tools are then callable without reconnecting.")
	if len(configured) == 0 {
		b.WriteString("\nNo MCP server is configured.")
	}
	for _, st := range configured {
		fmt.Fprintf(&b, "\n- %s (%s): %s", st.Name, st.Transport, serverLine(st, known, now))
		if st.StderrTail != "" {
			fmt.Fprintf(&b, "\n  last lines of its stderr: %s", strings.ReplaceAll(strings.TrimSpace(st.StderrTail), "\n", " | "))
		}
	}
	return execlua.Result{Text: b.String(), IsError: true, Summary: "failed", Err: ErrNoToolsYet}
}

// serverLine says where one server is, why, and whether it is retried.
func serverLine(st host.ServerStatus, known func(string) bool, now time.Time) string {
	why := ""
	if st.LastError != "" {
		why = " (last error: " + st.LastError + ")"
	}
	switch {
	case st.State == servers.Ready:
		switch {
		case len(st.Tools) == 0:
			return "ready; it has no tools"
		case !known(st.Tools[0].Name):
			return fmt.Sprintf("ready; its tools (%d) are joining the pool now: call Exec again", len(st.Tools))
		}
		return fmt.Sprintf("ready; every tool it has (%d) is outside Exec's pool (declared flat, or denied)", st.ToolCount)
	case st.State == servers.Disabled:
		return `disabled ("disabled": true in its entry), never started`
	case st.State == servers.Starting:
		return "starting: its first start is under way"
	case st.NextStart == nil && st.State == servers.Failed:
		return "failed" + why + "; not retried until its entry changes"
	}
	failures := fmt.Sprintf("%d failures in a row", st.Failures)
	if st.Failures == 1 {
		failures = "1 failure"
	}
	line := fmt.Sprintf("%v after %s%s; retried ", st.State, failures, why)
	if st.NextStart == nil {
		return line + "now" // a start is under way
	}
	return line + "in " + max(0, st.NextStart.Sub(now)).Round(time.Second).String()
}
