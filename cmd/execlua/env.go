package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/demo"
	"github.com/execlua/execlua/host/settings"
)

// commonFlags are accepted by every command.
func commonFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "settings", Usage: "read settings from `FILE` (may hold mcpServers) in place of the user and project files", TakesFile: true},
		&cli.StringFlag{Name: "mcp-config", Usage: "read MCP servers from `FILE`, an .mcp.json", TakesFile: true},
		&cli.StringFlag{Name: "managed-settings", Usage: "managed settings `FILE`, above every other layer", TakesFile: true},
		&cli.BoolFlag{Name: "demo", Usage: "add the built-in demo servers (demo, notes, weather)"},
		&cli.DurationFlag{Name: "mcp-timeout", DefaultText: "MCP_TIMEOUT (ms), else 30s", Usage: "how long each MCP server has to start, e.g. 2m"},
		&cli.DurationFlag{Name: "mcp-tool-timeout", DefaultText: "MCP_TOOL_TIMEOUT (ms), else no limit", Usage: "how long each MCP tool call may take, waiting for a restarting server included, e.g. 5m"},
	}
}

// jsonFlag is --json, for the commands whose output has a JSON form.
var jsonFlag = &cli.BoolFlag{Name: "json", Usage: "machine-readable output on stdout"}

func withCommon(flags ...cli.Flag) []cli.Flag {
	return append(commonFlags(), flags...)
}

// hostSetup is what a command adds to the host the common flags describe.
type hostSetup struct {
	prompter host.Prompter
	// execute wraps the real execution, innermost first.
	execute []func(executor) executor
	// replay answers every call from a recording, and its tools stand in
	// for the configured servers, none of which is started.
	replay *replayer
	// demo adds the demo servers whatever --demo says.
	demo bool
	// onChange is told when the host's tools or settings changed.
	onChange func()
}

// env is an open host and one conversation with it.
type env struct {
	host    *host.Host
	session *execlua.Session
	// reports passes the host's reports made after it started (a hook
	// that failed) to the running command.
	reports *reportSink
	// workers run the scripts under --isolation process; nil otherwise.
	workers *execlua.WorkerPool
}

// isolationFlag is --isolation, for the commands that run scripts.
var isolationFlag = &cli.StringFlag{Name: "isolation", Value: string(execlua.InProcess),
	Usage: "where scripts run: inprocess, or process (a worker process per run, with its own memory cap, killed past its budget)"}

// budgetFlag and maxCallsFlag are --budget and --max-calls, for the
// commands that run scripts; they bound every run of the session.
var (
	budgetFlag = &cli.DurationFlag{Name: "budget", DefaultText: "60s",
		Usage: "script time allowed (waiting for tools does not count), e.g. 2s"}
	maxCallsFlag = &cli.IntFlag{Name: "max-calls", DefaultText: "50", Usage: "most nested tool calls allowed"}
)

// maxWaitFlag is --max-wait, for the commands that run scripts: without
// it a server that never answers holds a run for good, as the budget does
// not count waiting for tools.
var maxWaitFlag = &cli.DurationFlag{Name: "max-wait", DefaultText: "no limit",
	Usage: "end a run once its waiting for tool calls adds up to more than this, e.g. 30s"}

// openHost starts the host the common flags describe: settings layers,
// MCP servers (connected before it returns), and one session. A settings
// file that does not parse is a configuration error; servers that failed
// are reported on stderr and left out.
func openHost(c *cli.Context, setup hostSetup) (_ *env, err error) {
	for _, flag := range []string{"settings", "mcp-config", "managed-settings"} {
		if path := c.String(flag); path != "" {
			if _, err := os.Stat(path); err != nil {
				return nil, usageErr("check the path given to --"+flag, "cannot read --%s: %v", flag, err)
			}
		}
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, usageErr("run execlua from a directory that exists", "%v", err)
	}
	session := &execlua.Options{}
	if name := c.String("isolation"); name != "" {
		if session.Isolation, err = execlua.ParseIsolation(name); err != nil {
			return nil, usageErr("give --isolation inprocess or --isolation process", "%v", err)
		}
	}
	wait := c.Duration("max-wait")
	if wait < 0 {
		return nil, usageErr("give a positive --max-wait, e.g. 30s", "--max-wait must be positive")
	}
	if c.Duration("mcp-timeout") < 0 || c.Duration("mcp-tool-timeout") < 0 {
		return nil, usageErr("give a positive --mcp-timeout and --mcp-tool-timeout, e.g. 2m", "--mcp-timeout and --mcp-tool-timeout must be positive")
	}
	if c.Int("max-calls") < 0 || c.Duration("budget") < 0 {
		return nil, usageErr("give a positive --budget (2s) and --max-calls (10)", "--budget and --max-calls must be positive")
	}
	session.Limits.MaxNestedWait = wait
	session.Limits.Budget = c.Duration("budget")
	session.Limits.MaxCalls = c.Int("max-calls")
	opts := &host.Options{
		Settings:  settingsPaths(c, cwd),
		MCPConfig: c.String("mcp-config"),
		Prompter:  setup.prompter,
		Cwd:       cwd,
		NoWatch:   c.Command.Name != "serve",
		Session:   session,
		OnChange:  setup.onChange,
		// Zero: MCP_TIMEOUT and MCP_TOOL_TIMEOUT, read by the host.
		ConnectTimeout: c.Duration("mcp-timeout"),
		CallTimeout:    c.Duration("mcp-tool-timeout"),
		// A hook's message for the model (HOOK-3) has no conversation to
		// join here; the person at the terminal reads it.
		OnMessage: func(text string) { fmt.Fprintf(c.App.ErrWriter, "hook message: %s\n", text) },
	}
	if opts.MCPConfig == "" {
		// The project's .mcp.json, as agents read it; a missing file is none.
		opts.MCPConfig = filepath.Join(cwd, ".mcp.json")
	}
	if c.Bool("demo") || setup.demo {
		opts.InProcess = demo.Servers()
	}
	chain := setup.execute
	if setup.replay != nil {
		opts.InProcess = standIns(setup.replay.tools, configuredServers(opts))
		chain = append([]func(executor) executor{setup.replay.wrap}, chain...)
	}
	if len(chain) > 0 {
		opts.Execute = func(next host.Executor) host.Executor {
			ex := executor(next)
			for _, wrap := range chain {
				ex = wrap(ex)
			}
			return host.Executor(ex)
		}
	}
	var workers *execlua.WorkerPool
	if session.Isolation == execlua.Process {
		// The CLI's own pool, closed with the host: the shared default
		// pool would leave its idle workers to the process's exit.
		workers = execlua.NewWorkerPool(nil)
		session.Workers = workers
		defer func() {
			if err != nil {
				workers.Close()
			}
		}()
	}
	sink := &reportSink{}
	opts.OnReport = sink.report
	h, err := host.New(c.Context, opts)
	if err != nil {
		return nil, usageErr("check the settings and the MCP configuration", "%v", err)
	}
	for _, r := range h.Reports() {
		var fileErr *settings.FileError
		if errors.As(r.Err, &fileErr) || r.Source == "permissions" {
			h.Close()
			return nil, usageErr("fix the file named above; see 'execlua --help' for the flags that name files", "%v", r.Err)
		}
		fmt.Fprintf(c.App.ErrWriter, "execlua: warning: %s\n", firstLine(r.String()))
		if r.Stderr != "" {
			fmt.Fprintf(c.App.ErrWriter, "%s\n", indent(r.Stderr))
		}
	}
	s, err := h.NewSession(nil)
	if err != nil {
		h.Close()
		return nil, usageErr("check the settings' enableExec and nonDeferredTools", "%v", err)
	}
	return &env{host: h, session: s, workers: workers, reports: sink}, nil
}

// reportSink hands reports to the function a command set, and drops
// them when none is set (the reports of the start are read from
// Host.Reports instead).
type reportSink struct {
	mu sync.Mutex
	fn func(host.Report)
}

func (s *reportSink) to(fn func(host.Report)) {
	s.mu.Lock()
	s.fn = fn
	s.mu.Unlock()
}

func (s *reportSink) report(r host.Report) {
	s.mu.Lock()
	fn := s.fn
	s.mu.Unlock()
	if fn != nil {
		fn(r)
	}
}

// settingsPaths are the layers to read: --settings in place of the user
// and project files, else the usual files (~/.claude/settings.json,
// .claude/settings.json, .claude/settings.local.json; a missing file is an
// empty layer), and --managed-settings on top.
func settingsPaths(c *cli.Context, cwd string) settings.Paths {
	var p settings.Paths
	if path := c.String("settings"); path != "" {
		p.User = path
	} else {
		if home, err := os.UserHomeDir(); err == nil {
			p.User = filepath.Join(home, ".claude", "settings.json")
		}
		p.Project = filepath.Join(cwd, ".claude", "settings.json")
		p.Local = filepath.Join(cwd, ".claude", "settings.local.json")
	}
	p.Managed = c.String("managed-settings")
	return p
}

// configuredServers are the names of the servers the settings files and
// the .mcp.json would start.
func configuredServers(opts *host.Options) []string {
	store := settings.Open(opts.Settings, &settings.Options{MCPConfig: opts.MCPConfig})
	defer store.Close()
	return slices.Collect(maps.Keys(store.Current().Servers()))
}

func (e *env) runExec(ctx context.Context, input json.RawMessage, opts *execlua.RunOptions) execlua.Result {
	return e.host.RunExec(ctx, e.session, input, opts)
}

// execAvailable says, as a configuration error, why Exec cannot run: no
// server gave a tool, or the settings switch Exec off or deny it.
func (e *env) execAvailable() error {
	req := e.session.Request(nil)
	if slices.ContainsFunc(req.Tools, func(d execlua.ToolDeclaration) bool { return d.Name == execlua.Name }) {
		return nil
	}
	switch req.Assembly.Exec {
	case execlua.ExecDisabled:
		return usageErr(`remove "enableExec": false from the settings (a managed layer's wins)`, "Exec is not available: the settings switch it off (enableExec is false)")
	case execlua.ExecDenied:
		return usageErr("remove the permission rule that denies Exec (or the allowed-tools list that leaves it out)", "Exec is not available: a permission rule denies it")
	}
	return usageErr("add servers with --mcp-config or --settings, or try --demo", "Exec is not available: no tool is left for scripts to call (no server gave one, or every one is denied or declared flat)")
}

// tools are every tool the host has: builtins and connected MCP tools.
func (e *env) tools() []execlua.Tool { return e.host.Tools() }

func (e *env) close() {
	e.host.Close()
	if e.workers != nil {
		e.workers.Close()
	}
}

// standIns are in-process servers that list the recorded tools, so that a
// replay builds the same pool with no real server running; the configured
// servers the recording does not name are replaced by servers with no
// tools. Their handlers are never reached: the replayer answers every call
// before execution.
func standIns(tools []recordedTool, configured []string) map[string]*server.MCPServer {
	out := map[string]*server.MCPServer{}
	for _, name := range configured {
		out[name] = server.NewMCPServer(name, version)
	}
	for _, rt := range tools {
		srv := out[rt.Server]
		if srv == nil {
			srv = server.NewMCPServer(rt.Server, version)
			out[rt.Server] = srv
		}
		var tool mcp.Tool
		if json.Unmarshal(rt.Tool, &tool) != nil {
			continue // loadRecording has checked every entry
		}
		srv.AddTool(tool, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError("replay: this call was not recorded"), nil
		})
	}
	return out
}

func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}

func decodeBase64(s string) ([]byte, error) { return base64.StdEncoding.DecodeString(s) }
