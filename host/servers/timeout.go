package servers

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/execlua/execlua/host/settings"
)

// The environment variables coding agents read for MCP timeouts, in
// milliseconds: a server's start, and each tool call.
const (
	EnvStartTimeout = "MCP_TIMEOUT"
	EnvCallTimeout  = "MCP_TOOL_TIMEOUT"
)

// Timeouts in force: where each comes from, for the hint of its message.
type timeouts struct {
	start, call         time.Duration
	startFrom, callFrom string
}

// TimeoutError is a start or a call stopped by its timeout. It matches
// context.DeadlineExceeded.
type TimeoutError struct {
	Server string
	// Tool is the tool called; "" for a start.
	Tool  string
	After time.Duration
	// From says where the timeout was set and how to raise it.
	From string
}

func (e *TimeoutError) Error() string {
	if e.Tool == "" {
		return fmt.Sprintf("MCP server %s did not start within %v (its start timeout, %s); the host stopped it", e.Server, e.After, e.From)
	}
	return fmt.Sprintf("the call of %s on MCP server %s did not finish within %v (its tool timeout, %s)", e.Tool, e.Server, e.After, e.From)
}

func (e *TimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// hintStart and hintCall say where a timeout came from and how to raise it.
const (
	hintStartEntry = `set by "startupTimeout" in its mcpServers entry: raise it there, in milliseconds`
	hintStartHost  = `raise it with "startupTimeout" (milliseconds) in its mcpServers entry, the --mcp-timeout flag or MCP_TIMEOUT (milliseconds)`
	hintCallEntry  = `set by "timeout" in its mcpServers entry: raise it there, in milliseconds`
	hintCallHost   = `raise it with "timeout" (milliseconds) in its mcpServers entry, the --mcp-tool-timeout flag or MCP_TOOL_TIMEOUT (milliseconds)`
)

// hostTimeouts resolves the timeouts of every server: an Options value,
// else the environment variable, else the default (30 s to start, no limit
// for a call). A variable that is not a positive number of milliseconds is
// reported and ignored.
func (m *Manager) hostTimeouts() timeouts {
	t := timeouts{start: m.opts.ConnectTimeout, call: m.opts.CallTimeout, startFrom: hintStartHost, callFrom: hintCallHost}
	if t.start <= 0 {
		t.start = m.envMillis(EnvStartTimeout, DefaultConnectTimeout)
	}
	if t.call <= 0 {
		t.call = m.envMillis(EnvCallTimeout, 0)
	}
	return t
}

func (m *Manager) envMillis(name string, def time.Duration) time.Duration {
	v, ok := m.opts.Lookup(name)
	if !ok || v == "" {
		return def
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil || ms <= 0 {
		m.report(Report{Err: fmt.Errorf("%s=%q is not a positive number of milliseconds; using %v", name, v, def)})
		return def
	}
	return time.Duration(ms) * time.Millisecond
}

// forServer applies a server entry's own timeouts on top.
func (t timeouts) forServer(cfg settings.ServerConfig) timeouts {
	if cfg.StartupTimeout > 0 {
		t.start, t.startFrom = time.Duration(cfg.StartupTimeout)*time.Millisecond, hintStartEntry
	}
	if cfg.Timeout > 0 {
		t.call, t.callFrom = time.Duration(cfg.Timeout)*time.Millisecond, hintCallEntry
	}
	return t
}
