package host

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host/hooks"
	"github.com/execlua/execlua/host/permission"
	"github.com/execlua/execlua/host/servers"
	"github.com/execlua/execlua/host/settings"
	"github.com/mark3labs/mcp-go/server"
)

// ServerConfig is one MCP server entry (settings.ServerConfig).
type ServerConfig = settings.ServerConfig

// Options configure a Host. The zero value (and nil) is a host with no
// settings files, no MCP servers, no builtins, and no one to ask: calls no
// rule allows are refused.
type Options struct {
	// Settings are the settings files of each layer; "" for none.
	Settings settings.Paths
	// Managed, when set, is the managed layer given from code (rules,
	// hooks, switches) in place of Settings.Managed (see SetManaged).
	Managed *settings.File
	// Deprecated: Remote is the old name of Managed.
	Remote *settings.File
	// MCPConfig is an .mcp.json file; "" for none.
	MCPConfig string
	// Servers are MCP servers from code; they override servers of the
	// same name from the files.
	Servers map[string]ServerConfig
	// InProcess are mcp-go servers in this process, by server name.
	InProcess map[string]*server.MCPServer

	// Builtins are the host's own tools (see package host/preset), and
	// Builtin performs their calls; with Builtin nil a builtin call fails.
	Builtins []execlua.Tool
	Builtin  Executor
	// Execute, when set, wraps the execution of every call, after the
	// permission check and the PreToolUse hooks: dry runs, recording and
	// replay plug in here.
	Execute func(next Executor) Executor
	// Prompter asks the user when no rule decides; nil refuses.
	Prompter Prompter
	// Hooks are the host's Go PreToolUse and PostToolUse callbacks. They
	// run in the same chain as the command hooks, right after them, with
	// the same decisions: a Deny refuses, an Input replaces the arguments
	// before the rules read them, an Ask asks through the Prompter, and
	// the Post hooks' messages reach the model as a command hook's do.
	// Their own Ask and OnMessage are not used here.
	Hooks *execlua.Hooks

	// Cwd is the working directory of hooks and stdio servers, and the
	// base of relative path rules; "" is the process's.
	Cwd string
	// SessionID is the session_id hooks get (WithSession gives a call
	// another); "" is a random id made when the host starts.
	SessionID string
	// TranscriptPath is the transcript_path hooks get; "" when the host
	// keeps no transcript.
	TranscriptPath string
	// ConnectTimeout bounds each MCP server's start; zero: MCP_TIMEOUT
	// (milliseconds), else 30 s. CallTimeout bounds each MCP tool call,
	// waiting for a restarting server included; zero: MCP_TOOL_TIMEOUT
	// (milliseconds), else no limit. A server entry's "startupTimeout" and
	// "timeout" (milliseconds) win over both.
	ConnectTimeout time.Duration
	CallTimeout    time.Duration
	// HookTimeout bounds hooks that set no timeout (default 600 s).
	HookTimeout time.Duration
	// NoWatch turns off reloading settings files when they change.
	NoWatch bool
	// Session is what NewSession(nil) gives every session (Isolation,
	// Limits, ...); nil for execlua's defaults.
	Session *execlua.Options

	// OnChange is called after the tools or the settings changed (the
	// sessions are already updated).
	OnChange func()
	// OnReport is told of every Report as it happens.
	OnReport func(Report)
	// OnServerState is told of every change of an MCP server's state
	// (starting, ready, restarting, failed, disabled).
	OnServerState func(ServerStatus)
	// OnMessage receives the isMeta messages hooks produce (HOOK-3), unless
	// the call's context names its own (WithMessages).
	OnMessage func(text string)
}

// Report is a failure that is not a call's own: a server that did not
// start or lost its connection, a tool left out, a hook that failed open,
// a settings file or rule that could not be read.
type Report struct {
	// Source is "mcp", "settings", "permissions" or "hooks".
	Source string
	// Server and Tool name the MCP server and tool concerned, if any.
	Server, Tool string
	Err          error
	// Stderr is the last lines of a server's or hook's stderr.
	Stderr string
}

func (r Report) String() string {
	s := r.Source + ": "
	if r.Server != "" {
		s += "server " + r.Server + ": "
	}
	if r.Tool != "" {
		s += "tool " + r.Tool + ": "
	}
	s += r.Err.Error()
	if r.Stderr != "" {
		s += "\nlast lines of stderr:\n" + r.Stderr
	}
	return s
}

// maxReports bounds the reports a Host keeps.
const maxReports = 200

// Host is the reference host. Its methods are safe for concurrent use.
type Host struct {
	opts     Options
	builtins map[string]int // index into opts.Builtins
	store    *settings.Store
	mgr      *servers.Manager
	exec     Executor
	closed   atomic.Bool

	pol     atomic.Pointer[policy]
	granted []permission.Rule // allow-always rules of this process; guarded by syncMu

	askMu    sync.Mutex // one prompt at a time
	syncMu   sync.Mutex // serialises policy rebuilds and session updates
	sessions []weak.Pointer[execlua.Session]
	// synced is the policy the last sync handed to the sessions; guarded
	// by syncMu.
	synced *policy

	repMu   sync.Mutex
	reports []Report

	bg sync.WaitGroup

	// sessionID is Options.SessionID, or the one made for this host.
	sessionID string
}

// policy is what the settings say, compiled. It is never changed after it
// is built.
type policy struct {
	settings *settings.Settings
	checker  *permission.Checker
	hooks    *hooks.Runner
}

// New starts a host: it reads the settings, connects every MCP server in
// parallel (ctx bounds that wait; each server has its own timeout, and a
// server that fails is reported and left out), and starts watching the
// settings files. Close releases it all.
func New(ctx context.Context, opts *Options) (*Host, error) {
	h := &Host{}
	if opts != nil {
		h.opts = *opts
	}
	h.builtins = map[string]int{}
	for i, t := range h.opts.Builtins {
		if t.Kind != execlua.Builtin {
			return nil, fmt.Errorf("host: Options.Builtins holds %s, which is not a builtin; MCP tools come from servers", t.Name)
		}
		h.builtins[t.Name] = i
	}
	base := Executor(h.execute)
	if h.opts.Execute != nil {
		base = h.opts.Execute(base)
	}
	h.exec = base
	h.sessionID = h.opts.SessionID
	if h.sessionID == "" {
		h.sessionID = newID("execlua-")
	}
	if h.opts.Managed == nil {
		h.opts.Managed = h.opts.Remote
	}
	h.store = settings.Open(h.opts.Settings, &settings.Options{
		MCPConfig: h.opts.MCPConfig,
		Managed:   h.opts.Managed,
		OnChange:  h.settingsChanged,
		OnError:   func(err error) { h.report(Report{Source: "settings", Err: err}) },
		OnWarning: func(err error) { h.report(Report{Source: "settings", Err: err}) },
	})
	h.rebuild(h.store.Current())
	h.mgr = servers.New(&servers.Options{
		InProcess:      h.opts.InProcess,
		Cwd:            h.opts.Cwd,
		ConnectTimeout: h.opts.ConnectTimeout,
		CallTimeout:    h.opts.CallTimeout,
		OnChange:       h.sync,
		OnState:        h.opts.OnServerState,
		OnReport: func(r servers.Report) {
			h.report(Report{Source: "mcp", Server: r.Server, Tool: r.Tool, Err: r.Err, Stderr: r.Stderr})
		},
	})
	h.mgr.Connect(ctx, h.serverConfigs(h.store.Current()))
	if !h.opts.NoWatch {
		if err := h.store.Watch(); err != nil {
			h.report(Report{Source: "settings", Err: fmt.Errorf("settings files will not be reloaded when they change: %w", err)})
		}
	}
	return h, nil
}

// Close disconnects every server, stops watching the settings and waits
// for the host's background work.
func (h *Host) Close() error {
	h.closed.Store(true)
	err := errors.Join(h.store.Close(), h.mgr.Close())
	h.bg.Wait()
	return err
}

// Tools returns the registry: the builtins, then the tools of every
// configured MCP server, the last ones it listed while it is down.
func (h *Host) Tools() []execlua.Tool {
	return append(slices.Clone(h.opts.Builtins), h.mgr.Tools()...)
}

// ServerStatus is one MCP server's state, transport, timeouts, last error,
// stderr tail and tools with their annotations; its JSON form is stable
// (see servers.Status).
type ServerStatus = servers.Status

// ToolStatus is one tool of a ServerStatus, with its annotations.
type ToolStatus = servers.ToolStatus

// ServerState is where an MCP server is in its lifecycle.
type ServerState = servers.State

// Servers returns the status of every configured MCP server, by name.
func (h *Host) Servers() []ServerStatus { return h.mgr.Status() }

// Revive starts at once every MCP server that is down (restarting or
// failed), without waiting for its backoff or slow retry. Servers restart
// on their own; this is the user's "try again now".
func (h *Host) Revive() { h.mgr.Revive() }

// Settings returns the current settings as the core reads them: enableExec
// and the non-deferred lists per layer (the managed layer is the remote
// one), and the deny filter of the permission rules.
func (h *Host) Settings() execlua.Settings { return h.pol.Load().execSettings() }

// SettingsFiles returns the settings layers as last read.
func (h *Host) SettingsFiles() *settings.Settings { return h.pol.Load().settings }

// SetManaged replaces the managed layer with settings given from code.
func (h *Host) SetManaged(f settings.File) { h.store.SetManaged(f) }

// Deprecated: SetRemote is the old name of SetManaged.
func (h *Host) SetRemote(f settings.File) { h.store.SetManaged(f) }

// Reports returns the reports so far, oldest first (at most the last 200).
func (h *Host) Reports() []Report {
	h.repMu.Lock()
	defer h.repMu.Unlock()
	return slices.Clone(h.reports)
}

func (h *Host) reportAll(reports []Report) {
	for _, r := range reports {
		h.report(r)
	}
}

func (h *Host) report(r Report) {
	h.repMu.Lock()
	h.reports = append(h.reports, r)
	if over := len(h.reports) - maxReports; over > 0 {
		h.reports = slices.Delete(h.reports, 0, over)
	}
	h.repMu.Unlock()
	if h.opts.OnReport != nil {
		h.opts.OnReport(r)
	}
}

func (p *policy) execSettings() execlua.Settings {
	s := p.settings
	return execlua.Settings{
		Remote:   execlua.Layer{EnableExec: s.Layer(settings.Managed).EnableExec, NonDeferred: s.NonDeferred(settings.Managed)},
		Local:    execlua.Layer{EnableExec: s.EnableExec(settings.Local), NonDeferred: s.NonDeferred(settings.User, settings.Project, settings.Local)},
		Denied:   p.checker.Denied,
		DeniedBy: p.checker.DeniedBy,
	}
}

// serverConfigs are the servers the settings name, with those of
// Options.Servers on top.
func (h *Host) serverConfigs(s *settings.Settings) map[string]ServerConfig {
	out := s.Servers()
	maps.Copy(out, h.opts.Servers)
	return out
}

// settingsChanged follows a reload: a new policy for the next call, the
// sessions' settings, and the servers the files now name.
func (h *Host) settingsChanged(s *settings.Settings) {
	if h.closed.Load() {
		return
	}
	h.rebuild(s)
	h.sync()
	h.bg.Go(func() { h.mgr.Connect(context.Background(), h.serverConfigs(s)) })
}

// rebuild compiles the policy of s.
func (h *Host) rebuild(s *settings.Settings) {
	var reports []Report
	h.syncMu.Lock()
	checker, errs := permission.New(s, h.opts.Cwd)
	for _, err := range errs {
		reports = append(reports, Report{Source: "permissions", Err: err})
	}
	runner, errs := hooks.New(s, &hooks.Options{
		Cwd:     h.opts.Cwd,
		Timeout: h.opts.HookTimeout,
		OnFailure: func(f hooks.Failure) {
			h.report(Report{Source: "hooks", Tool: f.Tool, Err: f, Stderr: f.Stderr})
		},
	})
	for _, err := range errs {
		reports = append(reports, Report{Source: "hooks", Err: err})
	}
	h.pol.Store(&policy{settings: s, checker: checker.With(h.granted), hooks: runner})
	h.syncMu.Unlock()
	h.reportAll(reports) // outside the lock: OnReport may call back
}

// NewSession returns an execlua Session whose nested calls go through this
// host's funnel and whose registry and settings follow the host's. opts
// gives the rest (Guidance, Limits, ...), nil Options.Session; its Tools
// and Settings are replaced.
func (h *Host) NewSession(opts *execlua.Options) (*execlua.Session, error) {
	var o execlua.Options
	if opts == nil {
		opts = h.opts.Session
	}
	if opts != nil {
		o = *opts
	}
	h.syncMu.Lock()
	defer h.syncMu.Unlock()
	o.Tools = h.Tools()
	o.Settings = h.pol.Load().execSettings()
	s, err := execlua.New(h.Funnel(), &o)
	if err != nil {
		return nil, err
	}
	h.sessions = append(h.sessions, weak.Make(s))
	return s, nil
}

// sync hands the current tools and settings to every live session. When
// only the tools changed (the policy is the one the sessions hold: a new
// session takes the newest) it hands over the tools alone, which costs the
// servers that changed; new settings reassemble everything.
func (h *Host) sync() {
	var reports []Report
	h.syncMu.Lock()
	tools := h.Tools()
	pol := h.pol.Load()
	st := pol.execSettings()
	live := h.sessions[:0]
	for _, wp := range h.sessions {
		s := wp.Value()
		if s == nil {
			continue
		}
		live = append(live, wp)
		var err error
		if pol == h.synced {
			err = s.SetTools(tools)
		} else {
			err = s.Update(tools, st)
		}
		if err != nil {
			reports = append(reports, Report{Source: "mcp", Err: err})
		}
	}
	h.synced = pol
	clear(h.sessions[len(live):])
	h.sessions = live
	h.syncMu.Unlock()
	h.reportAll(reports)
	if h.opts.OnChange != nil {
		h.opts.OnChange()
	}
}
