package host_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/internal/fixture"
	"github.com/execlua/execlua/host/settings"
)

func TestMain(m *testing.M) {
	if execlua.IsWorker() { // the worker processes of Process isolation
		os.Exit(execlua.ServeWorker())
	}
	if fixture.Main() {
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// env is a host over real parts: settings files in a temporary directory,
// the fixture as a stdio subprocess named fx, a deferred builtin TaskList.
type env struct {
	t       *testing.T
	dir     string
	paths   settings.Paths
	h       *host.Host
	s       *execlua.Session
	prompts *prompter
	changes chan struct{}

	mu       sync.Mutex
	messages []string
}

// setup writes the settings files (by layer: "user", "project", "local",
// "managed") and starts the host; opts may add to the options.
func setup(t *testing.T, files map[string]string, opts *host.Options) *env {
	t.Helper()
	dir := t.TempDir()
	e := &env{t: t, dir: dir, changes: make(chan struct{}, 1000)}
	e.paths = settings.Paths{
		User:    filepath.Join(dir, "user", "settings.json"),
		Project: filepath.Join(dir, ".claude", "settings.json"),
		Local:   filepath.Join(dir, ".claude", "settings.local.json"),
		Managed: filepath.Join(dir, "managed", "managed-settings.json"),
	}
	for _, d := range []string{"user", ".claude", "managed"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for layer, content := range files {
		e.write(layer, content)
	}
	o := host.Options{}
	if opts != nil {
		o = *opts
	}
	o.Settings = e.paths
	o.Cwd = dir
	o.SessionID = "sess-1"
	if o.Servers == nil && o.InProcess == nil {
		o.Servers = map[string]host.ServerConfig{"fx": stdioConfig(t)}
	}
	o.Builtins = append(o.Builtins, taskList())
	o.Builtin = func(_ context.Context, tool execlua.Tool, _ execlua.Call) (execlua.Output, error) {
		return execlua.Output{Text: []string{"no tasks"}}, nil
	}
	if o.Prompter == nil {
		e.prompts = &prompter{answer: host.Deny}
		o.Prompter = e.prompts
	}
	o.OnChange = e.signal
	o.OnReport = func(host.Report) { e.signal() }
	o.OnServerState = func(host.ServerStatus) { e.signal() }
	o.OnMessage = func(text string) {
		e.mu.Lock()
		e.messages = append(e.messages, text)
		e.mu.Unlock()
	}
	h, err := host.New(context.Background(), &o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	e.h = h
	e.s, err = h.NewSession(nil)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func stdioConfig(t testing.TB) host.ServerConfig {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return host.ServerConfig{Command: exe, Env: map[string]string{fixture.Env: fixture.Stdio}}
}

func taskList() execlua.Tool {
	t := execlua.NewBuiltinTool("TaskList", "Lists the tasks.", json.RawMessage(`{"type":"object","properties":{}}`))
	t.ShouldDefer = true
	return t
}

func (e *env) path(layer string) string {
	return map[string]string{"user": e.paths.User, "project": e.paths.Project, "local": e.paths.Local, "managed": e.paths.Managed}[layer]
}

// signal wakes until without ever blocking the host.
func (e *env) signal() {
	select {
	case e.changes <- struct{}{}:
	default:
	}
}

// write replaces a layer's file the way editors do: a new file renamed
// over the old one.
func (e *env) write(layer, content string) {
	e.t.Helper()
	p := e.path(layer)
	if err := os.WriteFile(p+".tmp", []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
	if err := os.Rename(p+".tmp", p); err != nil {
		e.t.Fatal(err)
	}
}

// run calls Exec as the model would.
func (e *env) run(code string) execlua.Result {
	e.t.Helper()
	input, _ := json.Marshal(map[string]string{"code": code})
	return e.h.RunExec(context.Background(), e.s, input, nil)
}

// until waits for host changes and reports until cond holds.
func (e *env) until(what string, cond func() bool) {
	e.t.Helper()
	deadline := time.After(15 * time.Second)
	for !cond() {
		select {
		case <-e.changes:
		case <-deadline:
			e.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func (e *env) messagesSoFar() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.messages)
}

// declared are the names in tools[].
func (e *env) declared() []string {
	var out []string
	for _, d := range e.s.Request(nil).Tools {
		out = append(out, d.Name)
	}
	return out
}

// pooled are the pool's names.
func (e *env) pooled() []string {
	var out []string
	for _, t := range e.s.Request(nil).Assembly.Pool() {
		out = append(out, t.Name)
	}
	return out
}

// prompter records the questions and gives one answer.
type prompter struct {
	mu        sync.Mutex
	answer    host.PermissionAnswer
	questions []host.PermissionQuestion
}

func (p *prompter) Ask(_ context.Context, q host.PermissionQuestion) (host.PermissionAnswer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.questions = append(p.questions, q)
	return p.answer, nil
}

func (p *prompter) asked() []host.PermissionQuestion {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.questions)
}

// hookScript writes an executable sh script into the test's directory.
func (e *env) hookScript(name, body string) string {
	e.t.Helper()
	p := filepath.Join(e.dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		e.t.Fatal(err)
	}
	return p
}
