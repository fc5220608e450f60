package host_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/internal/fixture"
	"github.com/execlua/execlua/host/servers"
	"github.com/execlua/execlua/host/settings"
	"github.com/execlua/execlua/internal/leaktest"
	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/server"
)

// TestNoFlappingSingleServer: with one server and no builtins, a crash
// leaves tools[] (Exec), the announcement and the pool as they were,
// through the restart and after it; closing the host leaves no goroutine
// or child process behind.
func TestNoFlappingSingleServer(t *testing.T) {
	check := leaktest.Check(t)
	states := make(chan host.ServerStatus, 100)
	h, err := host.New(context.Background(), &host.Options{
		Servers:       map[string]host.ServerConfig{"fx": stdioConfig(t)},
		Settings:      settingsWith(t, `{"permissions": {"allow": ["mcp__fx"]}}`),
		NoWatch:       true,
		OnServerState: func(st host.ServerStatus) { states <- st },
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := h.NewSession(nil)
	if err != nil {
		t.Fatal(err)
	}
	before := s.Request(nil)
	if !slices.ContainsFunc(before.Tools, func(d execlua.ToolDeclaration) bool { return d.Name == execlua.Name }) || before.Announcement == nil {
		t.Fatalf("before the crash: tools %v, announcement %v", before.Tools, before.Announcement)
	}
	input, _ := json.Marshal(map[string]string{"code": `local ok, err = pcall(tools.mcp__fx__crash); return err`})
	if res := h.RunExec(context.Background(), s, input, nil); res.IsError {
		t.Fatalf("crash: %+v", res)
	}
	same := func(when string) {
		t.Helper()
		now := s.Request(nil)
		if !cmp.Equal(now.Tools, before.Tools) || now.Announcement == nil || now.Announcement.Text != before.Announcement.Text {
			t.Errorf("%s: tools %v, announcement %v; want them as before", when, now.Tools, now.Announcement)
		}
	}
	for st := range states {
		if st.State == servers.Restarting {
			same("while it restarts")
			break
		}
	}
	for st := range states {
		if st.State == servers.Ready {
			same("once it is back")
			break
		}
	}
	input, _ = json.Marshal(map[string]string{"code": `return tools.mcp__fx__text()`})
	if res := h.RunExec(context.Background(), s, input, nil); res.IsError {
		t.Errorf("after the restart: %+v", res)
	}
	h.Close()
	check()
}

// settingsWith writes a settings file and returns the paths naming it as
// the user layer.
func settingsWith(t *testing.T, content string) (p settings.Paths) {
	t.Helper()
	p.User = filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(p.User, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProgressInLiveSummary: a nested call's server progress reaches
// RunOptions.Progress as part of the live summary, in order, after the
// summary of the call itself, whether the script runs in process or in a
// worker process.
func TestProgressInLiveSummary(t *testing.T) {
	for _, isolation := range []execlua.Isolation{execlua.InProcess, execlua.Process} {
		t.Run(string(isolation), func(t *testing.T) {
			e := setup(t, map[string]string{"local": `{"permissions": {"allow": ["mcp__fx"]}}`}, nil)
			workers := execlua.NewWorkerPool(&execlua.WorkerOptions{Idle: 1})
			t.Cleanup(func() { workers.Close() })
			s, err := e.h.NewSession(&execlua.Options{Isolation: isolation, Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			watch := fixture.WatchProgress(4, func() error {
				_, err := e.h.Call(context.Background(), execlua.Call{Name: "mcp__fx__release"})
				return err
			})
			input, _ := json.Marshal(map[string]string{"code": `return tools.mcp__fx__progress{n = 4}`})
			res := e.h.RunExec(context.Background(), s, input, &execlua.RunOptions{Progress: watch.See})
			if res.IsError || !strings.Contains(res.Text, "done, token execlua-") {
				t.Fatalf("run: %+v", res)
			}
			watch.Check(t)
		})
	}
}

// TestReloadOnlyChanged: a changed .mcp.json, while a run is in flight,
// starts the added server, stops the removed one and restarts the one
// whose entry changed; the unchanged server keeps its process and the
// run's call to it finishes.
func TestReloadOnlyChanged(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	entry := func(extra string) string {
		return `{"command": ` + jsonString(exe) + `, "env": {"` + fixture.Env + `": "stdio"` + extra + `}}`
	}
	dir := t.TempDir()
	mcpJSON := filepath.Join(dir, ".mcp.json")
	writeFile(t, mcpJSON, `{"mcpServers": {"a": `+entry("")+`, "b": `+entry("")+`, "c": `+entry("")+`}}`)
	e := setup(t, map[string]string{"local": `{"permissions": {"allow": ["mcp__a", "mcp__b", "mcp__c", "mcp__d"]}}`},
		&host.Options{MCPConfig: mcpJSON, InProcess: map[string]*server.MCPServer{} /* no fx */})
	pid := func(server string) string {
		t.Helper()
		out, err := e.h.Call(context.Background(), execlua.Call{Name: "mcp__" + server + "__pid"})
		if err != nil {
			t.Fatalf("pid of %s: %v", server, err)
		}
		return out.Text[0]
	}
	pidA, pidC := pid("a"), pid("c")

	inFlight := make(chan struct{})
	var once sync.Once
	progress := func(summary string) {
		if strings.HasSuffix(summary, "1/1 step 1") {
			once.Do(func() { close(inFlight) })
		}
	}
	done := make(chan execlua.Result, 1)
	go func() {
		input, _ := json.Marshal(map[string]string{"code": `tools.mcp__a__progress{n = 1}; return tools.mcp__a__pid()`})
		done <- e.h.RunExec(context.Background(), e.s, input, &execlua.RunOptions{Progress: progress})
	}()
	<-inFlight
	writeFile(t, mcpJSON, `{"mcpServers": {"a": `+entry("")+`, "c": `+entry(`, "CHANGED": "1"`)+`, "d": `+entry("")+`}}`)
	e.until("the reload", func() bool {
		names := []string{}
		for _, st := range e.h.Servers() {
			if st.State == servers.Ready {
				names = append(names, st.Name)
			}
		}
		return slices.Equal(names, []string{"a", "c", "d"}) && slices.Contains(e.pooled(), "mcp__d__text") && !slices.Contains(e.pooled(), "mcp__b__text")
	})
	if _, err := e.h.Call(context.Background(), execlua.Call{Name: "mcp__a__release"}); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.IsError || strings.TrimSpace(res.Text) != pidA {
		t.Errorf("the run in flight: %+v; want it to finish on a's process %s", res, pidA)
	}
	if got := pid("a"); got != pidA {
		t.Errorf("a was restarted: pid %s, was %s", got, pidA)
	}
	if got := pid("c"); got == pidC {
		t.Errorf("c was not restarted: pid %s", got)
	}
	if _, err := e.h.Call(context.Background(), execlua.Call{Name: "mcp__b__text"}); err == nil {
		t.Error("b still answers")
	}
	pid("d")
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path+".tmp", []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		t.Fatal(err)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestToolChangesFollowWhatChanged: a server that restarts with the same
// tools leaves the session's assembly as it was, and a server that lists a
// new tool changes the pool and the announcement through the session's
// SetTools, not a rebuild: tools[] stays the very list it was. (The
// server's one flat tool, alwaysLoad, is denied, so that its server's
// change leaves tools[] alone.)
func TestToolChangesFollowWhatChanged(t *testing.T) {
	e := setup(t, map[string]string{"local": `{"permissions": {"allow": ["mcp__fx"], "deny": ["mcp__fx__meta"]}}`}, nil)
	before := e.s.Request(nil)
	if res := e.run(`local ok, err = pcall(tools.mcp__fx__crash); return err`); res.IsError {
		t.Fatalf("crash: %+v", res)
	}
	e.until("the restart", func() bool {
		st := e.h.Servers()[0]
		return st.State == servers.Ready && st.Restarts == 1
	})
	if e.s.Request(nil).Assembly != before.Assembly {
		t.Error("a server restarting with the same tools reassembled the session")
	}
	if res := e.run(`return tools.mcp__fx__add_tool()`); res.IsError {
		t.Fatal(res.Text)
	}
	e.until("the new tool", func() bool { return slices.Contains(e.pooled(), "mcp__fx__late") })
	now := e.s.Request(nil)
	if &now.Tools[0] != &before.Tools[0] {
		t.Error("a pool tool joining declared tools[] again: the session was rebuilt")
	}
	if now.Announcement == nil || now.Announcement.Text == before.Announcement.Text {
		t.Errorf("announcement %v after a tool joined", now.Announcement)
	}
}
