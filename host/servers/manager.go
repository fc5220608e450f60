package servers

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host/settings"
	"github.com/mark3labs/mcp-go/server"
)

// Defaults of Options.
const (
	DefaultConnectTimeout = 30 * time.Second
	DefaultDebounce       = 100 * time.Millisecond
	DefaultBackoff        = time.Second
	DefaultMaxBackoff     = 30 * time.Second
	DefaultCrashLimit     = 5
	DefaultSlowRetry      = time.Minute
	DefaultPingInterval   = 30 * time.Second
)

// Options configure a Manager. The zero value (and nil) connects only
// configured servers, with the default timeouts, debounce and backoff,
// reading variables from the process environment, and tells nobody.
type Options struct {
	// InProcess are mcp-go servers in this process, by server name; they
	// take precedence over a configured server of the same name.
	InProcess map[string]*server.MCPServer
	// Cwd is the working directory of stdio servers that set none.
	Cwd string
	// Lookup reads the variables of ${VAR} expansion and of the timeouts
	// (MCP_TIMEOUT, MCP_TOOL_TIMEOUT); nil: os.LookupEnv.
	Lookup func(string) (string, bool)
	// ConnectTimeout bounds each server's start, handshake and first
	// tools/list; zero: MCP_TIMEOUT, else 30 s. A server entry's
	// "startupTimeout" wins.
	ConnectTimeout time.Duration
	// CallTimeout bounds each tool call, waiting for a restart included;
	// zero: MCP_TOOL_TIMEOUT, else no limit. A server entry's "timeout"
	// wins.
	CallTimeout time.Duration
	// Debounce is how long a tools/list_changed waits for more before the
	// list is read again (default 100 ms).
	Debounce time.Duration
	// Backoff is the wait before the second start after a failure; it
	// doubles with every further failure, up to MaxBackoff (defaults 1 s
	// and 30 s). The first start after a failure is at once.
	Backoff, MaxBackoff time.Duration
	// CrashLimit is how many failures in a row mark a server failed
	// (default 5); a failed server is tried again every SlowRetry
	// (default 1 min).
	CrashLimit int
	SlowRetry  time.Duration
	// PingInterval is how often a ready HTTP or SSE server is pinged, so
	// that one that stopped answering is found while idle (default 30 s;
	// negative: never).
	PingInterval time.Duration
	// OnChange is called when the tools of any server changed: a server
	// connected with other tools, a list change, a configuration change.
	// A restart with the same tools changes nothing. It must not block on
	// the Manager.
	OnChange func()
	// OnState is told of every change of a server's state.
	OnState func(Status)
	// OnReport is told of every server that failed or lost its
	// connection, and of every tool left out.
	OnReport func(Report)
}

// Report says what went wrong with a server.
type Report struct {
	Server string
	// Tool is set when one tool was left out (an invalid name or entry).
	Tool string
	Err  error
	// Stderr is the last lines a stdio server wrote to stderr.
	Stderr string
}

func (r Report) String() string {
	s := fmt.Sprintf("MCP server %s: %v", r.Server, r.Err)
	if r.Stderr != "" {
		s += "\nlast lines of its stderr:\n" + r.Stderr
	}
	return s
}

// Manager owns the connections to a host's MCP servers. Its methods are
// safe for concurrent use.
type Manager struct {
	opts     Options
	ctx      context.Context // lives as long as the Manager: streams and processes
	cancel   context.CancelFunc
	ids      atomic.Int64
	clock    clock
	timeouts timeouts

	mu     sync.Mutex
	conns  map[string]*conn
	closed bool
	bg     sync.WaitGroup
}

// New returns a Manager with no connections yet; Connect starts them.
func New(opts *Options) *Manager {
	return newManager(opts, realClock{})
}

func newManager(opts *Options, clk clock) *Manager {
	m := &Manager{conns: map[string]*conn{}, clock: clk}
	if opts != nil {
		m.opts = *opts
	}
	if m.opts.Lookup == nil {
		m.opts.Lookup = os.LookupEnv
	}
	setDefault(&m.opts.Debounce, DefaultDebounce)
	setDefault(&m.opts.Backoff, DefaultBackoff)
	setDefault(&m.opts.MaxBackoff, DefaultMaxBackoff)
	setDefault(&m.opts.SlowRetry, DefaultSlowRetry)
	if m.opts.PingInterval == 0 {
		m.opts.PingInterval = DefaultPingInterval
	}
	if m.opts.CrashLimit <= 0 {
		m.opts.CrashLimit = DefaultCrashLimit
	}
	m.timeouts = m.hostTimeouts()
	m.ctx, m.cancel = context.WithCancel(context.Background())
	return m
}

func setDefault(d *time.Duration, def time.Duration) {
	if *d <= 0 {
		*d = def
	}
}

// Connect makes the set of connections match configs plus the in-process
// servers: new servers are started, servers whose configuration changed
// are restarted, servers no longer configured are closed; the others are
// left alone, calls in flight included. It starts them in parallel and
// returns when each has connected or failed; a failure is reported and
// leaves the others alone. ctx bounds the wait.
func (m *Manager) Connect(ctx context.Context, configs map[string]settings.ServerConfig) {
	want := maps.Clone(configs)
	if want == nil {
		want = map[string]settings.ServerConfig{}
	}
	for name := range m.opts.InProcess {
		want[name] = settings.ServerConfig{Type: inProcess}
	}
	var start, stop []*conn
	replaced := map[string]*conn{}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	for name, old := range m.conns {
		if cfg, ok := want[name]; !ok || !reflect.DeepEqual(cfg, old.cfg) {
			stop = append(stop, old)
			delete(m.conns, name)
			if ok {
				replaced[name] = old
			}
		}
	}
	for name, cfg := range want {
		if _, ok := m.conns[name]; !ok {
			c := m.newConn(name, cfg, replaced[name])
			m.conns[name] = c
			start = append(start, c)
		}
	}
	m.mu.Unlock()

	changed := false
	for _, c := range stop {
		had := c.shutdown()
		// A replaced server's tools stay with its new connection, unless
		// that one is disabled.
		changed = changed || had && (replaced[c.name] == nil || want[c.name].Disabled)
	}
	if changed {
		m.changed()
	}
	var wg sync.WaitGroup
	for _, c := range start {
		if c.state != Disabled {
			wg.Go(func() { c.start(ctx) })
		}
	}
	wg.Wait()
}

// newConn is the connection of a server entry. One that replaces the
// connection of the server's previous entry keeps its tools until it lists
// its own, so that a restart for a new entry does not empty the pool.
func (m *Manager) newConn(name string, cfg settings.ServerConfig, previous *conn) *conn {
	c := &conn{m: m, name: name, cfg: cfg, srv: m.opts.InProcess[name], to: m.timeouts.forServer(cfg), wake: make(chan struct{})}
	if cfg.Disabled {
		c.state = Disabled
		return c
	}
	if previous != nil {
		previous.mu.Lock()
		c.setTools(previous.tools)
		previous.mu.Unlock()
	}
	return c
}

// Tools returns the tools of every configured server, by server name, each
// server's tools in the order it listed them. A server that is down keeps
// the tools it last listed: the pool does not change with a restart.
func (m *Manager) Tools() []execlua.Tool {
	var out []execlua.Tool
	for _, c := range m.sorted() {
		c.mu.Lock()
		out = append(out, c.tools...)
		c.mu.Unlock()
	}
	return out
}

// Tool finds a tool of a configured server by its full name, whether or
// not the server is up.
func (m *Manager) Tool(name string) (execlua.Tool, bool) {
	c, _ := m.split(name)
	if c == nil {
		return execlua.Tool{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	i, ok := c.byName[name]
	if !ok {
		return execlua.Tool{}, false
	}
	return c.tools[i], true
}

// Split splits a tool's full name into a configured server and the tool's
// name on it, whether or not the server is connected.
func (m *Manager) Split(name string) (server, tool string, ok bool) {
	c, tool := m.split(name)
	if c == nil {
		return "", "", false
	}
	return c.name, tool, true
}

// split finds the server of mcp__<server>__<tool>. A server name may hold
// "__" itself, so the longest configured name that fits wins.
func (m *Manager) split(name string) (*conn, string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var best *conn
	var tool string
	for _, c := range m.conns {
		leaf, ok := strings.CutPrefix(name, execlua.MCPPrefix+c.name+"__")
		if ok && leaf != "" && (best == nil || len(c.name) > len(best.name)) {
			best, tool = c, leaf
		}
	}
	return best, tool
}

// Status returns every server's state, by server name.
func (m *Manager) Status() []Status {
	var out []Status
	for _, c := range m.sorted() {
		out = append(out, c.status())
	}
	return out
}

func (m *Manager) sorted() []*conn {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.SortedFunc(maps.Values(m.conns), func(a, b *conn) int { return cmp.Compare(a.name, b.name) })
}

// Revive starts at once, in the background, every server that is down
// (restarting or failed, its configuration aside), without waiting for its
// backoff: a user's "try again now".
func (m *Manager) Revive() {
	for _, c := range m.sorted() {
		c.mu.Lock()
		if !c.closed && c.starting == nil && (c.state == Restarting || c.state == Failed && !c.badConfig) {
			c.goBackground(func() { c.start(m.ctx) })
		}
		c.mu.Unlock()
	}
}

// Close closes every connection and stops every server process.
func (m *Manager) Close() error {
	m.cancel()
	m.mu.Lock()
	m.closed = true
	conns := slices.Collect(maps.Values(m.conns))
	m.conns = map[string]*conn{}
	m.mu.Unlock()
	for _, c := range conns {
		c.shutdown()
	}
	m.bg.Wait()
	return nil
}

func (m *Manager) changed() {
	if m.opts.OnChange != nil {
		m.opts.OnChange()
	}
}

func (m *Manager) report(r Report) {
	if m.opts.OnReport != nil {
		m.opts.OnReport(r)
	}
}

// backoff is the wait before the next start after failures failed ones in
// a row: none after the first, then Backoff, doubling up to MaxBackoff.
func (m *Manager) backoff(failures int) time.Duration {
	if failures <= 1 {
		return 0
	}
	d := m.opts.Backoff << (failures - 2)
	if d <= 0 || d > m.opts.MaxBackoff {
		return m.opts.MaxBackoff
	}
	return d
}

// ErrUnknownServer is a call for a server the Manager does not have.
var ErrUnknownServer = errors.New("no such MCP server")
