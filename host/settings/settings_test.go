package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// layers writes one settings file per layer into a temporary directory.
func layers(t *testing.T, user, project, local, managed string) Paths {
	t.Helper()
	dir := t.TempDir()
	p := Paths{}
	for _, f := range []struct {
		path    *string
		name    string
		content string
	}{{&p.User, "user.json", user}, {&p.Project, "project.json", project}, {&p.Local, "local.json", local}, {&p.Managed, "managed.json", managed}} {
		*f.path = filepath.Join(dir, f.name)
		if f.content != "" {
			write(t, *f.path, f.content)
		}
	}
	return p
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func ptr(b bool) *bool { return &b }

// TestFLAG4_Precedence: for enableExec the highest layer that sets it wins
// (managed, the remote stand-in, over local, project, user, default);
// rules, hooks and non-deferred lists of all layers apply together.
func TestFLAG4_Precedence(t *testing.T) {
	p := layers(t,
		`{"enableExec": true, "permissions": {"allow": ["A"], "defaultMode": "acceptEdits"}, "nonDeferredTools": ["U"], "hooks": {"PreToolUse": [{"matcher": "u", "hooks": []}]}}`,
		`{"enableExec": false, "permissions": {"deny": ["D"]}, "nonDeferredTools": ["P"], "hooks": {"PreToolUse": [{"matcher": "p", "hooks": []}]}}`,
		`{"permissions": {"ask": ["Q"]}, "nonDeferredTools": ["L"]}`,
		`{"enableExec": true, "nonDeferredTools": ["M"], "permissions": {"defaultMode": "dontAsk"}}`)
	s := Open(p, nil).Current()
	if v := s.EnableExec(Managed); v == nil || !*v {
		t.Errorf("managed enableExec true must win, got %v", v)
	}
	if v := s.EnableExec(Local); v == nil || *v {
		t.Errorf("below managed, the project's false must win over the user's true, got %v", v)
	}
	if v := s.EnableExec(User); v == nil || !*v {
		t.Errorf("the user layer alone: %v", v)
	}
	if got := s.NonDeferred(User, Project, Local); !cmp.Equal(got, []string{"U", "P", "L"}) {
		t.Errorf("local non-deferred: %v", got)
	}
	if got := s.NonDeferred(Managed); !cmp.Equal(got, []string{"M"}) {
		t.Errorf("remote non-deferred: %v", got)
	}
	want := []Rule{{"A", Allow, User, p.User}, {"D", Deny, Project, p.Project}, {"Q", Ask, Local, p.Local}}
	if diff := cmp.Diff(want, s.Rules()); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	if m := s.DefaultMode(); m != "dontAsk" {
		t.Errorf("mode %q, want managed's", m)
	}
	if got := s.Hooks("PreToolUse"); len(got) != 2 || got[0].Matcher != "u" || got[1].Matcher != "p" {
		t.Errorf("hooks: %+v", got)
	}
	// Nothing set anywhere: no enableExec (the core's default, on).
	if v := Open(Paths{}, nil).Current().EnableExec(Managed); v != nil {
		t.Errorf("no layers: %v", *v)
	}
	// A remote layer from code replaces the managed file.
	st := Open(p, &Options{Managed: &File{EnableExec: ptr(false)}})
	if v := st.Current().EnableExec(Managed); *v {
		t.Error("the remote layer from code must replace the managed file")
	}
	changed := make(chan *Settings, 1)
	st = Open(p, &Options{OnChange: func(s *Settings) { changed <- s }})
	st.SetManaged(File{EnableExec: ptr(false)})
	if v := (<-changed).EnableExec(Managed); *v {
		t.Error("SetManaged must take effect")
	}
}

// TestServers: .mcp.json servers filtered by the enabled and disabled
// lists, overridden by settings files, higher layers last.
func TestServers(t *testing.T) {
	p := layers(t,
		`{"mcpServers": {"a": {"command": "user-a"}, "u": {"command": "u"}}}`,
		`{"disabledMcpjsonServers": ["off"]}`,
		`{"mcpServers": {"a": {"command": "local-a"}}}`, "")
	mcp := filepath.Join(filepath.Dir(p.User), ".mcp.json")
	write(t, mcp, `{"mcpServers": {"a": {"command": "json-a"}, "off": {"command": "x"}, "on": {"type": "http", "url": "http://h/${HOST:-x}"}}}`)
	got := Open(p, &Options{MCPConfig: mcp}).Current().Servers()
	want := map[string]ServerConfig{
		"a":  {Command: "local-a"},
		"u":  {Command: "u"},
		"on": {Type: "http", URL: "http://h/${HOST:-x}"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}
	write(t, p.Local, `{"enabledMcpjsonServers": ["a"]}`)
	got = Open(p, &Options{MCPConfig: mcp}).Current().Servers()
	if _, ok := got["on"]; ok || got["a"].Command != "user-a" {
		t.Errorf("with an enabled list: %+v", got)
	}
}

// TestInvalidFiles: a file that does not parse is reported with file,
// line and column, and reads as empty until fixed.
func TestInvalidFiles(t *testing.T) {
	for _, tc := range []struct {
		content   string
		line, col int
		want      string
	}{
		{"{\n  \"enableExec\": tru\n}", 2, 20, "invalid character '\\n' in literal true"},
		{"{\n  \"permissions\": {\"allow\": \"Bash\"}\n}", 2, 34, "permissions.allow must be an array, not a JSON string"},
		{`{"mcpServers": {"x": {"type": "http"}}}`, 0, 0, `mcpServers.x: an http server needs a "url"`},
		{`{"mcpServers": {"x": {}}}`, 0, 0, `mcpServers.x: a stdio server needs a "command"`},
		// A value of the wrong type is named by its whole path, map keys
		// and array indexes included.
		{`{"mcpServers": {"a": {"command": "ok"}, "x": {"command": 5}}}`, 1, 59, "mcpServers.x.command must be a string, not a JSON number"},
		{`{"mcpServers": {"x": {"command": "c", "args": ["a", 1]}}}`, 1, 54, "mcpServers.x.args[1] must be a string, not a JSON number"},
		{`{"mcpServers": {"x": {"command": "c", "env": {"A": true}}}}`, 1, 56, "mcpServers.x.env.A must be a string, not a JSON bool"},
		{`{"mcpServers": {"x": {"command": ["c"]}}}`, 1, 35, "mcpServers.x.command must be a string, not a JSON array"},
		{`{"mcpServers": {"x": 7}}`, 1, 23, "mcpServers.x must be an object, not a JSON number"},
		{`[1]`, 1, 2, "the file must be an object, not a JSON array"},
		// A name its tools could not carry is refused before the server
		// is started.
		{`{"mcpServers": {"claude.ai Slack": {"command": "c"}}}`, 0, 0, `mcpServers: "claude.ai Slack" is no server name: a name is 1 to 64 of A-Z, a-z, 0-9, _, . and -`},
		// A mistyped mode is refused, not taken for "default".
		{`{"permissions": {"defaultMode": "dontask"}}`, 0, 0, `permissions.defaultMode: "dontask" is no mode: expected one of default, acceptEdits, bypassPermissions, dontAsk, plan`},
	} {
		_, err := Parse("s.json", []byte(tc.content))
		var fe *FileError
		if !errors.As(err, &fe) || fe.Line != tc.line || fe.Column != tc.col || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v (line %d col %d), want %d:%d %q", tc.content, err, fe.Line, fe.Column, tc.line, tc.col, tc.want)
		}
	}
	if _, err := Parse("s.json", []byte("{\"enableExec\": tru")); !errors.Is(err, ErrSyntax) || !strings.HasPrefix(err.Error(), "s.json:1:") {
		t.Errorf("error text: %v", err)
	}
}

// TestFLAG5_Reload: a changed file is picked up while running; a file
// turned invalid keeps its last good contents and is reported.
func TestFLAG5_Reload(t *testing.T) {
	p := layers(t, "", "", `{"enableExec": true}`, "")
	changes := make(chan *Settings, 10)
	errs := make(chan error, 10)
	st := Open(p, &Options{OnChange: func(s *Settings) { changes <- s }, OnError: func(err error) { errs <- err }})
	defer st.Close()
	if err := st.Watch(); err != nil {
		t.Fatal(err)
	}
	on := func(s *Settings) bool { v := s.EnableExec(Local); return v != nil && *v }
	wait := func() *Settings {
		t.Helper()
		select {
		case s := <-changes:
			return s
		case <-time.After(10 * time.Second):
			t.Fatal("no reload")
		}
		return nil
	}
	write(t, p.Local, `{"enableExec": false}`)
	if s := wait(); on(s) {
		t.Fatal("the change was not read")
	}
	write(t, p.Local, `{"enableExec": tr`)
	select {
	case err := <-errs:
		if !strings.Contains(err.Error(), "local.json:1:") {
			t.Errorf("error: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the invalid file was not reported")
	}
	if v := st.Current().EnableExec(Local); v == nil || *v {
		t.Error("the last good settings must be kept")
	}
	if len(st.Errors()) != 1 {
		t.Errorf("Errors: %v", st.Errors())
	}
	// A file replaced by a rename, as editors and AllowAlways do.
	tmp := p.Local + ".new"
	write(t, tmp, `{"enableExec": true, "nonDeferredTools": ["X"]}`)
	if err := os.Rename(tmp, p.Local); err != nil {
		t.Fatal(err)
	}
	for s := wait(); !on(s); s = wait() {
	}
	if len(st.Errors()) != 0 {
		t.Errorf("the fixed file is still reported: %v", st.Errors())
	}
	// A file created after the start (the project file was missing).
	write(t, p.Project, `{"nonDeferredTools": ["P"]}`)
	for s := wait(); len(s.NonDeferred(Project)) == 0; s = wait() {
	}
}

// TestPERM1_AllowAlwaysPersists: "allow always" adds the rule to the
// local file, keeping every other key, value and the order of keys, and
// creates the file when it is missing.
func TestPERM1_AllowAlwaysPersists(t *testing.T) {
	p := layers(t, "", `{"permissions": {"allow": ["P"]}}`,
		`{
  "zeta": {"keep": [1, 2, {"deep": null}]},
  "permissions": {"deny": ["Bash(rm:*)"], "allow": ["Read"], "extra": "x"},
  "alpha": "kept",
  "enableExec": false
}`, "")
	st := Open(p, nil)
	path, err := st.AllowAlways("mcp__srv__get")
	if err != nil || path != p.Local {
		t.Fatalf("AllowAlways: %q, %v", path, err)
	}
	if _, err := st.AllowAlways("mcp__srv__get"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p.Local)
	want := `{
  "zeta": {
    "keep": [
      1,
      2,
      {
        "deep": null
      }
    ]
  },
  "permissions": {
    "deny": [
      "Bash(rm:*)"
    ],
    "allow": [
      "Read",
      "mcp__srv__get"
    ],
    "extra": "x"
  },
  "alpha": "kept",
  "enableExec": false
}
`
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("file (-want +got):\n%s", diff)
	}
	var allowed []string
	for _, r := range st.Current().Rules() {
		if r.Kind == Allow {
			allowed = append(allowed, r.Text)
		}
	}
	if !cmp.Equal(allowed, []string{"P", "Read", "mcp__srv__get"}) {
		t.Errorf("rules after the write: %v", allowed)
	}
	entries, _ := os.ReadDir(filepath.Dir(p.Local))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}

	// No local file yet: it is created.
	p2 := layers(t, "", "", "", "")
	if _, err := Open(p2, nil).AllowAlways("X"); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(p2.Local); string(data) != "{\n  \"permissions\": {\n    \"allow\": [\n      \"X\"\n    ]\n  }\n}\n" {
		t.Errorf("new file: %q", data)
	}
	// An invalid file is left alone.
	write(t, p2.Local, "{oops")
	if _, err := Open(p2, nil).AllowAlways("Y"); !errors.Is(err, ErrSyntax) {
		t.Errorf("invalid file: %v", err)
	}
	if data, _ := os.ReadFile(p2.Local); string(data) != "{oops" {
		t.Errorf("the invalid file was changed: %q", data)
	}
	if _, err := Open(Paths{}, nil).AllowAlways("Z"); !errors.Is(err, ErrNoFile) {
		t.Errorf("no file: %v", err)
	}
}

func TestExpand(t *testing.T) {
	env := map[string]string{"HOME": "/home/u", "EMPTY": "", "TOKEN": "s3cr3t"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	c := ServerConfig{
		Command: "${HOME}/bin/srv",
		Args:    []string{"--port=${PORT:-8080}", "$HOME", "${EMPTY:-fallback}", "${EMPTY}"},
		Env:     map[string]string{"T": "${TOKEN}"},
		URL:     "https://h/${TOKEN}",
		Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"},
	}
	got, err := c.Expand(lookup)
	want := ServerConfig{
		Command: "/home/u/bin/srv",
		Args:    []string{"--port=8080", "$HOME", "fallback", ""},
		Env:     map[string]string{"T": "s3cr3t"},
		URL:     "https://h/s3cr3t",
		Headers: map[string]string{"Authorization": "Bearer s3cr3t"},
	}
	if err != nil || !cmp.Equal(got, want) {
		t.Errorf("Expand: %v\n%s", err, cmp.Diff(want, got))
	}
	if c.Args[0] != "--port=${PORT:-8080}" {
		t.Error("Expand changed its receiver's slices")
	}
	_, err = ServerConfig{Command: "${A}", Args: []string{"${B}", "${A}"}}.Expand(lookup)
	if !errors.Is(err, ErrMissingVariable) || !strings.HasSuffix(err.Error(), ": A, B") {
		t.Errorf("missing: %v", err)
	}
}

// TestWatchMissingDirectory (FLAG-5): a settings file whose directory does
// not exist yet (~/.claude before its first use) is no error to watch, and
// is read once the directories and the file are created; removing the
// directory again empties the layer, and creating it anew is seen too.
func TestWatchMissingDirectory(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "a", ".claude")
	p := Paths{User: filepath.Join(dir, "settings.json")}
	changes := make(chan *Settings, 10)
	st := Open(p, &Options{OnChange: func(s *Settings) { changes <- s }})
	defer st.Close()
	if err := st.Watch(); err != nil {
		t.Fatalf("Watch with a missing directory: %v", err)
	}
	// until waits for a reload whose settings satisfy ok.
	until := func(what string, ok func(*Settings) bool) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case s := <-changes:
				if ok(s) {
					return
				}
			case <-deadline:
				t.Fatalf("%s was not read", what)
			}
		}
	}
	has := func(s *Settings) bool { return len(s.NonDeferred(User)) == 1 }
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, p.User, `{"nonDeferredTools": ["U"]}`)
	until("the file created with its directories", has)

	if err := os.RemoveAll(filepath.Join(home, "a")); err != nil {
		t.Fatal(err)
	}
	until("the removal", func(s *Settings) bool { return !has(s) })
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, p.User, `{"nonDeferredTools": ["V"]}`)
	until("the file created again", has)
}

// An entry with a URL and no command or type is a remote server spoken to
// over streamable HTTP, as other clients' configuration files write it; a
// command without a type is a stdio server, and a type always wins.
func TestServerTransport(t *testing.T) {
	f, err := Parse(".mcp.json", []byte(`{"mcpServers": {
		"remote": {"url": "https://mcp.example.com/mcp"},
		"local": {"command": "srv"},
		"both": {"command": "srv", "url": "https://x"},
		"events": {"type": "sse", "url": "https://x/sse"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"remote": "http", "local": "stdio", "both": "stdio", "events": "sse"} {
		if got := f.MCPServers[name].Transport(); got != want {
			t.Errorf("%s: transport %q, want %q", name, got, want)
		}
	}
}

// TestUnknownKeys: a misspelt key is named with the key it resembles;
// Claude Code's own keys, which execlua does not read, draw no warning;
// the Store reports them through OnWarning, naming the file.
func TestUnknownKeys(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	write(t, path, `{"permisions": {"allow": ["X"]}, "model": "opus", "env": {}, "statusLine": {},
		"permissions": {"alow": [], "additionalDirectories": []}, "frobnicate": 1,
		"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x", "timout": 5}]}],
		          "PostToolUsee": [{"matcher": "x", "hooks": []}], "Stop": [{"hooks": []}]}}`)
	var got []string
	st := Open(Paths{User: path}, &Options{OnWarning: func(err error) {
		var uk *UnknownKeyError
		if !errors.As(err, &uk) || uk.Path != path {
			t.Errorf("warning %v", err)
		}
		got = append(got, strings.TrimPrefix(err.Error(), path+": "))
	}})
	defer st.Close()
	want := []string{
		`unknown key "frobnicate" is ignored (it is neither an execlua nor a Claude Code settings key)`,
		`unknown key "permisions" is ignored; did you mean "permissions"?`,
		`unknown key "permissions.alow" is ignored; did you mean "allow"?`,
		`unknown key "hooks.PostToolUsee" is ignored; did you mean "PostToolUse"?`,
		`unknown key "hooks.PreToolUse[0].hooks[0].timout" is ignored; did you mean "timeout"?`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}
