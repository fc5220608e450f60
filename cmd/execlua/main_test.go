package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/yuin/gopher-lua/parse"

	"github.com/execlua/execlua/sandbox"
	"github.com/execlua/execlua/search"
)

// binary is the execlua binary TestMain builds once for every test.
var binary string

// fixtureEnv makes the test binary serve the fixture server over stdio
// instead of running tests: the stdio fixture is a real subprocess.
const fixtureEnv = "EXECLUA_TEST_FIXTURE"

func TestMain(m *testing.M) {
	if os.Getenv(fixtureEnv) == "stdio" {
		if err := server.ServeStdio(fixtureServer()); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "execlua-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "execlua")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building execlua: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fixtureServer is the server tests reach over stdio and HTTP: a read-only
// tool whose name is not a Lua identifier, and one that changes something.
func fixtureServer() *server.MCPServer {
	s := server.NewMCPServer("fixture", "1")
	s.AddTool(mcp.NewTool("get-item",
		mcp.WithDescription("Fetch an item by id."),
		mcp.WithInteger("id", mcp.Required()),
		mcp.WithReadOnlyHintAnnotation(true),
	), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		id := req.GetInt("id", 0)
		return mcp.NewToolResultStructuredOnly(map[string]any{"id": id, "name": fmt.Sprintf("item-%d", id), "pid": os.Getpid()}), nil
	})
	s.AddTool(mcp.NewTool("put.item",
		mcp.WithDescription("Store an item."),
		mcp.WithString("name", mcp.Required()),
		mcp.WithRawOutputSchema([]byte(`{"type":"object","properties":{"ok":{"type":"boolean"},"id":{"type":"integer"}},"required":["ok","id"]}`)),
		mcp.WithReadOnlyHintAnnotation(false),
		mcp.WithDestructiveHintAnnotation(false),
	), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultStructuredOnly(map[string]any{"ok": true, "id": 42}), nil
	})
	return s
}

// result is one run of the binary.
type result struct {
	stdout, stderr string
	status         int
}

// runCLI runs the binary in dir (a fresh directory when ""), with HOME
// pointing there too so that no user settings are read.
func runCLI(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	cmd := exec.CommandContext(t.Context(), binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	status := 0
	if ee, ok := err.(*exec.ExitError); ok {
		status = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("execlua %v: %v", args, err)
	}
	return result{stdout.String(), stderr.String(), status}
}

// want checks the exit status and reports the run's output if it differs.
func (r result) want(t *testing.T, status int) result {
	t.Helper()
	if r.status != status {
		t.Fatalf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", r.status, status, r.stdout, r.stderr)
	}
	return r
}

// write creates a file under dir and returns its path.
func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// keys are a JSON object's keys, sorted.
func keys(t *testing.T, raw string) []string {
	t.Helper()
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &obj); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, raw)
	}
	var out []string
	for k := range obj {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// mcpConfig writes an .mcp.json naming the stdio fixture (this test binary)
// as server "fix" and, when url is set, the HTTP fixture as server "web".
func mcpConfig(t *testing.T, dir, url string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	servers := map[string]any{
		"fix": map[string]any{"command": self, "env": map[string]string{fixtureEnv: "stdio"}},
	}
	if url != "" {
		servers["web"] = map[string]any{"type": "http", "url": url}
	}
	data, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	return write(t, dir, "fleet.mcp.json", string(data))
}

// httpFixture serves the fixture server over streamable HTTP on loopback.
func httpFixture(t *testing.T) string {
	t.Helper()
	ts := httptest.NewServer(server.NewStreamableHTTPServer(fixtureServer()))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// ORCH-2: structured content comes back as a table; SUM-4: the live summary.
func TestRunEchoAgainstTheDemoServer(t *testing.T) {
	r := runCLI(t, "", "", "run", "--demo", "--yes", "-", "x").want(t, exitUsage)
	if !strings.Contains(r.stderr, "exactly one SCRIPT") {
		t.Errorf("stderr = %q", r.stderr)
	}
	r = runCLI(t, "", `return tools.mcp__demo__echo{ a = 1, list = { "x", true } }`, "run", "--demo", "--yes", "-").want(t, exitOK)
	if got, want := r.stdout, `{"a":1,"list":["x",true]}`+"\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
	// Not a terminal: the live summary comes as plain lines (SUM-4).
	if !strings.Contains(r.stderr, "1 tool call: mcp__demo__echo\n") {
		t.Errorf("stderr has no summary line:\n%s", r.stderr)
	}
}

func TestRunSleepAnswersSlept(t *testing.T) {
	r := runCLI(t, "", `local r = tools.mcp__demo__sleep{ ms = 20 } return r.slept`, "run", "--demo", "--yes", "-").want(t, exitOK)
	if r.stdout != "20\n" {
		t.Errorf("stdout = %q", r.stdout)
	}
}

func TestRunJSONShape(t *testing.T) {
	r := runCLI(t, "", `print("hi") error("boom")`, "run", "--demo", "--yes", "--json", "-").want(t, exitFailed)
	if d := cmp.Diff([]string{"calls", "error", "images", "ok", "summary", "text"}, keys(t, r.stdout)); d != "" {
		t.Errorf("keys (-want +got):\n%s", d)
	}
	var out struct {
		OK    bool
		Error *string
		Text  string
	}
	json.Unmarshal([]byte(r.stdout), &out)
	if out.OK || out.Error == nil || !strings.Contains(out.Text, "hi") {
		t.Errorf("failed run = %s", r.stdout)
	}

	r = runCLI(t, "", `return tools.mcp__demo__echo{ a = 1 }`, "run", "--demo", "--yes", "--json", "-").want(t, exitOK)
	var ok runOutput
	if err := json.Unmarshal([]byte(r.stdout), &ok); err != nil {
		t.Fatal(err)
	}
	for i := range ok.Calls {
		ok.Calls[i].Arguments = canonical(ok.Calls[i].Arguments)
	}
	want := runOutput{OK: true, Text: `{"a":1}`, Summary: "1 tool call\nmcp__demo__echo", Images: []savedImage{},
		Calls: []callOutput{{Name: "mcp__demo__echo", Arguments: json.RawMessage(`{"a":1}`), Server: "demo", Outcome: "ok"}}}
	if d := cmp.Diff(want, ok, cmpopts.IgnoreFields(callOutput{}, "Duration")); d != "" {
		t.Errorf("run --json (-want +got):\n%s", d)
	}
}

// ORCH-6: what was printed before the failure is kept.
func TestRunFailedScriptExitsOne(t *testing.T) {
	r := runCLI(t, "", "print('before')\nerror('boom')", "run", "--demo", "-").want(t, exitFailed)
	if !strings.Contains(r.stdout, "boom") || !strings.Contains(r.stdout, "before") {
		t.Errorf("stdout = %q", r.stdout)
	}
	if !strings.Contains(r.stderr, "failed") {
		t.Errorf("stderr = %q", r.stderr)
	}
}

// PERM-1: with no terminal and no --yes, a call no rule covers is refused.
func TestRunDeniesWithoutATerminal(t *testing.T) {
	r := runCLI(t, "", `return tools.mcp__demo__echo{}`, "run", "--demo", "-").want(t, exitFailed)
	// The script reads that nobody could be asked, not that a user refused.
	if !strings.Contains(r.stdout, "Permission to use mcp__demo__echo was not granted: no permission rule allows it and there is no terminal to ask on (run with --yes, or add an allow rule to the settings)") {
		t.Errorf("stdout = %q", r.stdout)
	}
	if !strings.Contains(r.stderr, "execlua: mcp__demo__echo refused by the prompter: no permission rule allows it") || !strings.Contains(r.stderr, "hint: pass --yes") {
		t.Errorf("stderr does not say how to allow the call: %q", r.stderr)
	}
}

// PERM-2, PERM-3: rules from --settings decide nested calls; ORCH-5: the
// script catches a refusal with pcall.
func TestRunFollowsPermissionRules(t *testing.T) {
	dir := t.TempDir()
	settings := write(t, dir, "settings.json", `{"permissions":{"allow":["mcp__demo"],"deny":["mcp__demo__fail"]}}`)
	r := runCLI(t, dir, `local ok, err = pcall(tools.mcp__demo__sleep, { ms = 1 }) return ok`, "run", "--demo", "--settings", settings, "-").want(t, exitOK)
	if r.stdout != "true\n" {
		t.Errorf("allowed call: stdout = %q", r.stdout)
	}
	// A deny rule takes the tool out of the pool: the script is told which
	// rule in which file denies it, and can catch it; stderr says so too.
	r = runCLI(t, dir, `local ok, err = pcall(tools.mcp__demo__fail, {}) return { ok = ok, err = err }`, "run", "--demo", "--settings", settings, "-").want(t, exitOK)
	rule := `the deny rule \"mcp__demo__fail\" in the user settings (` + settings + ")"
	if !strings.Contains(r.stdout, `"ok":false`) || !strings.Contains(r.stdout, "Permission to use mcp__demo__fail has been denied by "+rule) {
		t.Errorf("denied call: stdout = %q", r.stdout)
	}
	if !strings.Contains(r.stderr, "execlua: mcp__demo__fail refused by "+strings.ReplaceAll(rule, `\"`, `"`)+"\n  hint: remove or narrow that rule") {
		t.Errorf("denied call: stderr = %q", r.stderr)
	}
}

func TestRunMissingScript(t *testing.T) {
	r := runCLI(t, "", "", "run", "nope.lua").want(t, exitUsage)
	want := "execlua: cannot read the script: open nope.lua: no such file or directory\nhint: check the path, or give - to read the script from stdin\n"
	if r.stderr != want {
		t.Errorf("stderr = %q, want %q", r.stderr, want)
	}
}

func TestBadSettings(t *testing.T) {
	dir := t.TempDir()
	settings := write(t, dir, "settings.json", "{\n  \"permissions\": {\"allow\": [\"x\",]}\n}")
	r := runCLI(t, dir, "return 1", "run", "--settings", settings, "-").want(t, exitUsage)
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "settings.json") || !strings.HasPrefix(lines[1], "hint: ") {
		t.Errorf("stderr = %q, want one line naming the file and a hint", r.stderr)
	}
	r = runCLI(t, dir, "return 1", "tools", "--settings", filepath.Join(dir, "missing.json")).want(t, exitUsage)
	if !strings.Contains(r.stderr, "cannot read --settings") || !strings.Contains(r.stderr, "hint: check the path given to --settings") {
		t.Errorf("stderr = %q", r.stderr)
	}
}

// ORCH-4: a tool of a server that does not exist fails the call, naming it.
func TestRunUnknownServer(t *testing.T) {
	r := runCLI(t, "", `return tools.mcp__nope__get{}`, "run", "--demo", "--yes", "-").want(t, exitFailed)
	if !strings.Contains(r.stdout, "mcp__nope__get") {
		t.Errorf("stdout = %q", r.stdout)
	}
}

func TestRunServerThatDoesNotStart(t *testing.T) {
	dir := t.TempDir()
	cfg := write(t, dir, ".mcp.json", `{"mcpServers":{
		"broken": {"command": "sh", "args": ["-c", "echo no API token set >&2; exit 3"]},
		"gone": {"type": "http", "url": "http://127.0.0.1:1/mcp"}}}`)
	r := runCLI(t, dir, `return tools.mcp__demo__echo{ up = true }`, "run", "--demo", "--yes", "--mcp-config", cfg, "-").want(t, exitOK)
	// The tail of the server's stderr is printed under its warning.
	for _, want := range []string{"warning: mcp: server broken", "    no API token set\n", "warning: mcp: server gone"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if r.stdout != `{"up":true}`+"\n" {
		t.Errorf("stdout = %q", r.stdout)
	}
}

func TestRunWithNoToolsIsAConfigurationError(t *testing.T) {
	r := runCLI(t, "", `return 1`, "run", "-").want(t, exitUsage)
	if !strings.Contains(r.stderr, "Exec is not available") || !strings.Contains(r.stderr, "hint: ") {
		t.Errorf("stderr = %q", r.stderr)
	}
}

func TestRunImages(t *testing.T) {
	dir := t.TempDir()
	images := filepath.Join(dir, "out")
	r := runCLI(t, dir, `tools.mcp__demo__chart{ values = { 10, 90 } } return "drawn"`, "run", "--demo", "--yes", "--images", images, "--json", "-").want(t, exitOK)
	var out runOutput
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Images) != 1 || out.Images[0].MIMEType != "image/png" {
		t.Fatalf("images = %+v", out.Images)
	}
	data, err := os.ReadFile(out.Images[0].File)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("\x89PNG")) {
		t.Errorf("%s is not a PNG", out.Images[0].File)
	}
}

// BUD-1 at the command line: --budget stops a runaway script; BUD-6:
// --max-calls refuses the call over the limit.
func TestRunBudgetAndMaxCalls(t *testing.T) {
	r := runCLI(t, "", `while true do end`, "run", "--demo", "--budget", "50ms", "-").want(t, exitFailed)
	if !strings.Contains(strings.ToLower(r.stdout), "time") {
		t.Errorf("budget: stdout = %q", r.stdout)
	}
	r = runCLI(t, "", `for i = 1, 3 do tools.mcp__demo__echo{ i = i } end`, "run", "--demo", "--yes", "--max-calls", "2", "-").want(t, exitFailed)
	if !strings.Contains(r.stdout, "at most 2 tool calls") {
		t.Errorf("max-calls: stdout = %q", r.stdout)
	}
	runCLI(t, "", `return 1`, "run", "--max-calls", "-1", "-").want(t, exitUsage)
}

// ORCH-1 against real servers: a stdio subprocess and a loopback HTTP
// server, called in parallel (BUD-5).
func TestRunStdioAndHTTPServers(t *testing.T) {
	dir := t.TempDir()
	cfg := mcpConfig(t, dir, httpFixture(t))
	script := `
local a, b = tools.parallel(
  function() return tools["mcp__fix__get-item"]{ id = 1 } end,
  function() return tools["mcp__web__get-item"]{ id = 2 } end)
return { a.name, b.name, a.pid ~= b.pid }`
	r := runCLI(t, dir, script, "run", "--mcp-config", cfg, "--yes", "-").want(t, exitOK)
	if r.stdout != `["item-1","item-2",true]`+"\n" {
		t.Errorf("stdout = %q", r.stdout)
	}
}

// The project's .mcp.json is read when --mcp-config is not given.
func TestRunReadsTheProjectMCPConfig(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(mcpConfig(t, dir, ""))
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, ".mcp.json", string(data))
	r := runCLI(t, dir, `return tools["mcp__fix__get-item"]{ id = 7 }.name`, "run", "--yes", "-").want(t, exitOK)
	if r.stdout != "item-7\n" {
		t.Errorf("stdout = %q", r.stdout)
	}
}

const changingScript = `
local before = tools.mcp__notes__list_notes{}
local added = tools.mcp__notes__add_note{ title = "Draft", tags = { "work" } }
tools.mcp__notes__delete_note{ id = 1 }
local after = tools.mcp__notes__list_notes{}
return { before = #before.notes, added_id = added.id, after = #after.notes }`

func TestDryRun(t *testing.T) {
	r := runCLI(t, "", changingScript, "run", "--demo", "--yes", "--dry-run", "-").want(t, exitOK)
	// The read-only calls ran against the real server, the others did not:
	// the store is unchanged and add_note answered a value of its schema.
	if r.stdout != `{"added_id":0,"after":3,"before":3}`+"\n" {
		t.Errorf("stdout = %q", r.stdout)
	}
	want := "dry run: 2 calls would have changed something:\n" +
		`  mcp__notes__add_note {"tags":["work"],"title":"Draft"}` + "\n" +
		`  mcp__notes__delete_note {"id":1}` + "\n"
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr = %q, want it to contain %q", r.stderr, want)
	}
	// A dry run that skipped nothing says so in words.
	r = runCLI(t, "", `return tools.mcp__notes__list_notes().notes[1].id`, "run", "--demo", "--yes", "--dry-run", "-").want(t, exitOK)
	if !strings.HasSuffix(r.stderr, "\ndry run: no call would have changed anything\n") {
		t.Errorf("nothing skipped: stderr = %q", r.stderr)
	}
	// Without --dry-run the same script changes the store.
	r = runCLI(t, "", changingScript, "run", "--demo", "--yes", "-").want(t, exitOK)
	if r.stdout != `{"added_id":4,"after":3,"before":3}`+"\n" {
		t.Errorf("real run: stdout = %q", r.stdout)
	}
}

// A dry run still asks permission and runs the hooks: a refused or
// blocked call stays refused (PERM-4, HOOK-2).
func TestDryRunKeepsPermissionsAndHooks(t *testing.T) {
	r := runCLI(t, "", `return tools.mcp__notes__add_note{ title = "x" }`, "run", "--demo", "--dry-run", "-").want(t, exitFailed)
	if !strings.Contains(r.stdout, "Permission to use mcp__notes__add_note was not granted") {
		t.Errorf("stdout = %q", r.stdout)
	}
	dir := t.TempDir()
	settings := write(t, dir, "settings.json", `{"hooks":{"PreToolUse":[{"matcher":"mcp__notes__add_note",
		"hooks":[{"type":"command","command":"echo no new notes today >&2; exit 2"}]}]}}`)
	r = runCLI(t, dir, `local ok, err = pcall(tools.mcp__notes__add_note, { title = "x" }) return err`,
		"run", "--demo", "--yes", "--dry-run", "--settings", settings, "-").want(t, exitOK)
	if !strings.Contains(r.stdout, "PreToolUse:mcp__notes__add_note hook error") || !strings.Contains(r.stdout, "no new notes today") {
		t.Errorf("stdout = %q", r.stdout)
	}
	if !strings.Contains(r.stderr, "dry run: no call would have changed anything\n") {
		t.Errorf("stderr = %q", r.stderr)
	}
}

func TestRecordAndReplay(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "calls.json")
	script := `
local item = tools["mcp__fix__get-item"]{ id = 3 }
local w = tools.mcp__weather__forecast{ city = "Tokyo", days = 1 }
local ok, err = pcall(tools.mcp__demo__fail, { message = "no" })
return { item.name, w.days[1].sky, err }`
	cfg := mcpConfig(t, dir, "")
	first := runCLI(t, dir, script, "run", "--demo", "--mcp-config", cfg, "--yes", "--record", rec, "-").want(t, exitOK)
	if !strings.Contains(first.stdout, `"item-3","rain"`) {
		t.Fatalf("recorded run: stdout = %q", first.stdout)
	}
	// No server at all this time: no --demo, and the fixture's config is
	// still named but its server is not started.
	again := runCLI(t, dir, script, "run", "--mcp-config", cfg, "--yes", "--replay", rec, "-").want(t, exitOK)
	if again.stdout != first.stdout {
		t.Errorf("replayed stdout = %q, recorded %q", again.stdout, first.stdout)
	}
	// A call the recording does not hold is named.
	r := runCLI(t, dir, `return tools["mcp__fix__get-item"]{ id = 4 }`, "run", "--yes", "--replay", rec, "--json", "-").want(t, exitFailed)
	if !strings.Contains(r.stderr, "replay: 1 call had no recording:\n  mcp__fix__get-item {\"id\":4}\n") {
		t.Errorf("stderr = %q", r.stderr)
	}
	runCLI(t, dir, "return 1", "run", "--replay", filepath.Join(dir, "none.json"), "-").want(t, exitUsage)
	runCLI(t, dir, "return 1", "run", "--replay", rec, "--record", rec, "-").want(t, exitUsage)
}

// POOL-1: tools[] holds Exec and no pool tool; BC-2: a new conversation
// gets the names-only announcement; BC-3: an empty pool gets none.
func TestTools(t *testing.T) {
	r := runCLI(t, "", "", "tools", "--demo", "--json").want(t, exitOK)
	if d := cmp.Diff([]string{"announcement", "servers", "tools"}, keys(t, r.stdout)); d != "" {
		t.Errorf("keys (-want +got):\n%s", d)
	}
	var out struct {
		Tools        []map[string]json.RawMessage
		Announcement map[string]any
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Tools) == 0 || string(out.Tools[0]["name"]) != `"Exec"` {
		t.Fatalf("tools = %s", r.stdout)
	}
	for _, tool := range out.Tools {
		if d := cmp.Diff([]string{"description", "inputSchema", "name"}, slices.Sorted(mapsKeys(tool))); d != "" {
			t.Errorf("tool keys (-want +got):\n%s", d)
		}
	}
	if out.Announcement["role"] != "user" || out.Announcement["isMeta"] != true ||
		!strings.Contains(fmt.Sprint(out.Announcement["content"]), "mcp__demo__echo") {
		t.Errorf("announcement = %v", out.Announcement)
	}
	// No pool: no announcement.
	r = runCLI(t, "", "", "tools", "--json").want(t, exitOK)
	if !strings.Contains(r.stdout, `"announcement": null`) {
		t.Errorf("empty pool: %s", r.stdout)
	}
	r = runCLI(t, "", "", "tools", "--demo").want(t, exitOK)
	if !strings.Contains(r.stdout, "Announcement") || !strings.Contains(r.stdout, "tools.ToolSearch") {
		t.Errorf("tools:\n%s", r.stdout)
	}
}

// TestServers: execlua servers lists each server's state, transport,
// timeouts (MCP_TIMEOUT from the environment, --mcp-tool-timeout from the
// flag, "timeout" from an entry) and tools with their annotations; the
// same status is tools --json's servers field.
func TestServers(t *testing.T) {
	t.Setenv("MCP_TIMEOUT", "45000")
	dir := t.TempDir()
	cfg := mcpConfig(t, dir, httpFixture(t))
	r := runCLI(t, dir, "", "servers", "--json", "--mcp-config", cfg, "--mcp-tool-timeout", "1500ms").want(t, exitOK)
	var status []struct {
		Name, State, Transport        string
		ToolCount                     int
		StartTimeoutMs, CallTimeoutMs int64
		Tools                         []map[string]any
	}
	if err := json.Unmarshal([]byte(r.stdout), &status); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if len(status) != 2 || status[0].Name != "fix" || status[0].State != "ready" || status[0].Transport != "stdio" || status[0].ToolCount != 2 ||
		status[0].StartTimeoutMs != 45000 || status[0].CallTimeoutMs != 1500 || status[1].Name != "web" || status[1].Transport != "http" {
		t.Fatalf("status:\n%s", r.stdout)
	}
	tool := status[0].Tools[0]
	if tool["name"] != "mcp__fix__get-item" || tool["serverTool"] != "get-item" || tool["readOnlyHint"] != true {
		t.Errorf("tool: %v", tool)
	}
	write(t, dir, "own.mcp.json", `{"mcpServers": {"off": {"command": "/nonexistent", "disabled": true}, "own": {"type": "http", "url": "http://127.0.0.1:1/mcp", "timeout": 2500, "startupTimeout": 900}}}`)
	r = runCLI(t, dir, "", "servers", "--mcp-config", filepath.Join(dir, "own.mcp.json")).want(t, exitOK)
	for _, want := range []string{"off  disabled  stdio  0 tools", "own  restarting  http  0 tools  start timeout 900ms, call timeout 2500ms", "last error: "} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("servers lacks %q:\n%s", want, r.stdout)
		}
	}
	r = runCLI(t, dir, "", "tools", "--json", "--mcp-config", cfg).want(t, exitOK)
	if !strings.Contains(r.stdout, `"servers": [`) || !strings.Contains(r.stdout, `"name": "mcp__web__put.item"`) {
		t.Errorf("tools --json lacks the servers:\n%s", r.stdout)
	}
	runCLI(t, dir, "", "servers", "--mcp-timeout", "-1s").want(t, exitUsage)
	// serve's /healthz gives the same status.
	url := serveHTTP(t, dir, "--mcp-config", cfg, "--settings", write(t, dir, "settings.json", "{}"))
	resp, err := http.Get(strings.TrimSuffix(url, "/mcp") + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var health struct{ Servers []map[string]any }
	if err := json.NewDecoder(resp.Body).Decode(&health); err != nil || len(health.Servers) != 2 ||
		health.Servers[0]["state"] != "ready" || health.Servers[0]["transport"] != "stdio" || len(health.Servers[0]["tools"].([]any)) != 2 {
		t.Errorf("/healthz: %+v, %v", health, err)
	}
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// SRCH-1 from the shell: the value a script gets, signatures included.
func TestSearch(t *testing.T) {
	r := runCLI(t, "", "", "search", "--demo", "weather forecast").want(t, exitOK)
	if !strings.Contains(r.stdout, "-- The daily forecast for a city") || !strings.Contains(r.stdout, "function tools.mcp__weather__forecast(args) end") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	r = runCLI(t, "", "", "search", "--demo", "--json", "select:mcp__demo__echo,mcp__demo__sleep").want(t, exitOK)
	var got searchResult
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.Total != 2 || got.Matches[0].Name != "mcp__demo__echo" || got.Matches[1].Name != "mcp__demo__sleep" {
		t.Errorf("search --json = %s", r.stdout)
	}
	r = runCLI(t, "", "", "search", "--demo", "--json", "--max-results", "1", "notes").want(t, exitOK)
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Matches) != 1 || got.Total < 4 {
		t.Errorf("search --max-results 1 = %s", r.stdout)
	}
	runCLI(t, "", "", "search", "--demo").want(t, exitUsage)
	// The first line says how many matched, and how to see the rest.
	for query, want := range map[string]string{
		"zzzz qqq":               `no tool matches "zzzz qqq"` + "\n",
		"":                       "5 of 9 matching tools (--max-results N shows more):\n",
		"select:mcp__demo__echo": "1 matching tool:\n",
	} {
		r = runCLI(t, "", "", "search", "--demo", query).want(t, exitOK)
		if line, _, _ := strings.Cut(r.stdout, "\n"); line+"\n" != want {
			t.Errorf("search %q: first line %q, want %q", query, line, want)
		}
	}
}

// search --explain says why the results rank as they do, as text and as
// JSON, with the same results as the search itself.
func TestSearchExplain(t *testing.T) {
	r := runCLI(t, "", "", "search", "--demo", "--explain", "spin up a note").want(t, exitOK)
	for _, want := range []string{
		`query "spin up a note": 5 matching tools`,
		`phrasal: "spin up" -> create, start, launch`,
		"spin (1.00): add (synonym 0.60)",
		"1. mcp__notes__add_note  score ",
		"note in server (not; field weight 3.5)",
		`verb: the query's verb means the name's verb: "add"`,
		"before the next by: score",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("search --explain lacks %q:\n%s", want, r.stdout)
		}
	}
	r = runCLI(t, "", "", "search", "--demo", "--explain", "--json", "--max-results", "2", "list notes").want(t, exitOK)
	var e search.Explanation
	if err := json.Unmarshal([]byte(r.stdout), &e); err != nil {
		t.Fatal(err)
	}
	plain := runCLI(t, "", "", "search", "--demo", "--json", "--max-results", "2", "list notes").want(t, exitOK)
	var found searchResult
	if err := json.Unmarshal([]byte(plain.stdout), &found); err != nil {
		t.Fatal(err)
	}
	if len(e.Results) != 2 || e.Results[0].Name != found.Matches[0].Name || e.Results[1].Name != found.Matches[1].Name || e.Total != found.Total {
		t.Errorf("search --explain --json = %s\nsearch --json = %s", r.stdout, plain.stdout)
	}
	if len(e.Results[0].Matches) == 0 || e.Results[0].Score <= 0 {
		t.Errorf("search --explain --json: the first result has no matches or score: %+v", e.Results[0])
	}
	r = runCLI(t, "", "", "search", "--demo", "--explain", strings.Repeat("word ", 300)).want(t, exitUsage)
	if !strings.Contains(r.stderr, "the limit is 256") {
		t.Errorf("search --explain with 300 words: stderr %q, want the words' limit", r.stderr)
	}
}

func TestHelpHasAnExample(t *testing.T) {
	for _, cmd := range []string{"run", "tools", "servers", "search", "types", "serve", "demo"} {
		r := runCLI(t, "", "", cmd, "--help").want(t, exitOK)
		_, example, _ := strings.Cut(r.stdout, "Example:\n")
		if !strings.HasPrefix(strings.TrimSpace(example), "execlua "+cmd) {
			t.Errorf("%s --help has no example:\n%s", cmd, r.stdout)
		}
	}
	r := runCLI(t, "", "", "--help").want(t, exitOK)
	if !strings.Contains(r.stdout, "Example:") {
		t.Errorf("--help has no example:\n%s", r.stdout)
	}
}

// A flag value that does not parse is named with what it should look like.
func TestBadFlagValuesSayWhatIsExpected(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--budget", "5", "x.lua"}, `execlua: --budget wants a duration with a unit (500ms, 2s, 1m), not "5"`},
		{[]string{"run", "--max-wait=soon", "x.lua"}, `execlua: --max-wait wants a duration with a unit (500ms, 2s, 1m), not "soon"`},
		{[]string{"run", "x.lua", "--max-calls", "ten"}, `execlua: --max-calls wants a whole number, not "ten"`},
		{[]string{"search", "--max-results", "1.5", "q"}, `execlua: --max-results wants a whole number, not "1.5"`},
	} {
		r := runCLI(t, "", "", tc.args...).want(t, exitUsage)
		if line, _, _ := strings.Cut(r.stderr, "\n"); line != tc.want {
			t.Errorf("execlua %v: %q, want %q", tc.args, line, tc.want)
		}
	}
}

// The examples of run --help that pipe a script in run as they are, and
// the defaults it shows are the library's.
func TestRunHelpExamplesWork(t *testing.T) {
	help := runCLI(t, "", "", "run", "--help").want(t, exitOK).stdout
	path := filepath.Dir(binary) + string(os.PathListSeparator) + os.Getenv("PATH")
	n := 0
	for _, line := range strings.Split(help, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "echo ") || !strings.Contains(line, "| execlua run") {
			continue
		}
		n++
		cmd := exec.CommandContext(t.Context(), "sh", "-c", line)
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "HOME="+cmd.Dir, "PATH="+path)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", line, err, out)
		}
	}
	if n == 0 {
		t.Fatalf("no piped example in run --help:\n%s", help)
	}
	shown := map[string]string{}
	for _, m := range regexp.MustCompile(`--(budget|max-calls) value .*\(default: (\w+)\)`).FindAllStringSubmatch(help, -1) {
		shown[m[1]] = m[2]
	}
	if d, err := time.ParseDuration(shown["budget"]); err != nil || d != sandbox.DefaultBudget {
		t.Errorf("run --help shows the budget's default as %q, want %v", shown["budget"], sandbox.DefaultBudget)
	}
	if shown["max-calls"] != fmt.Sprint(sandbox.DefaultMaxCalls) {
		t.Errorf("run --help shows the call cap's default as %q, want %d", shown["max-calls"], sandbox.DefaultMaxCalls)
	}
}

// --max-wait ends a run whose tool never answers in time, where the
// budget, which does not count waiting (BUD-4), would not; a bad value is
// a usage error.
func TestRunMaxWait(t *testing.T) {
	// The cap's message says the cap ended the run, not the call's answer.
	r := runCLI(t, "", `return tools.mcp__demo__sleep{ ms = 60000 }`, "run", "--demo", "--yes", "--max-wait", "200ms", "-").want(t, exitFailed)
	if !strings.Contains(r.stdout, "waited for tool calls longer than the cap of 200ms") {
		t.Errorf("stdout = %q", r.stdout)
	}
	runCLI(t, "", `return 1`, "run", "--demo", "--max-wait", "-1s", "-").want(t, exitUsage)
}

// --record to a path that cannot be written is refused before the script
// runs: its calls would be performed and their record lost.
func TestRecordToAnUnwritablePath(t *testing.T) {
	dir := t.TempDir()
	r := runCLI(t, dir, `return tools.mcp__demo__echo{ a = 1 }`, "run", "--demo", "--yes", "--record", filepath.Join(dir, "no", "calls.json"), "-").want(t, exitUsage)
	if strings.Contains(r.stderr, "tool call") || !strings.HasPrefix(r.stderr, "execlua: cannot write the recording: ") {
		t.Errorf("stderr = %q", r.stderr)
	}
	// A path that can be written is left as it was until the run ends.
	existing := write(t, dir, "old.json", "keep")
	runCLI(t, dir, `return 1 +`, "run", "--demo", "--record", filepath.Join(dir, "new.json"), "-").want(t, exitFailed)
	if data, _ := os.ReadFile(existing); string(data) != "keep" {
		t.Errorf("old.json = %q", data)
	}
}

// A script file may start as C Lua's loader allows: a #! line (made
// executable, it runs itself) and a byte order mark; line numbers stay the
// file's.
func TestScriptFileWithShebangAndBOM(t *testing.T) {
	dir := t.TempDir()
	file := write(t, dir, "echo.lua", "#!/usr/bin/env -S execlua run --demo --yes\nreturn tools.mcp__demo__echo{ x = 1 }\n")
	if err := os.Chmod(file, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), file)
	cmd.Env = append(os.Environ(), "HOME="+dir, "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"))
	if out, err := cmd.Output(); err != nil || string(out) != `{"x":1}`+"\n" {
		t.Errorf("./echo.lua: %q, %v", out, err)
	}
	r := runCLI(t, dir, "", "run", "--demo", write(t, dir, "fail.lua", "\ufeff#!/usr/bin/env execlua\n\nerror('here')\n")).want(t, exitFailed)
	if !strings.Contains(r.stdout, "script:3: here") {
		t.Errorf("stdout = %q, want the error on line 3", r.stdout)
	}
	r = runCLI(t, dir, "#!/usr/bin/env execlua", "run", "--demo", "-").want(t, exitUsage)
	if !strings.HasPrefix(r.stderr, "execlua: the script on stdin is empty\n") {
		t.Errorf("stderr = %q", r.stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--bogus", "x.lua"},
		{"bogus"},
		{"--bogus"},
		{"run"},
		{"types", "extra"},
		{"run", "--budget", "soon", "x.lua"},
		// --json only where there is JSON to print.
		{"types", "--demo", "--json"},
		{"serve", "--json"},
	} {
		r := runCLI(t, "", "", args...).want(t, exitUsage)
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "execlua: ") || !strings.HasPrefix(lines[1], "hint: ") {
			t.Errorf("execlua %v: stderr = %q, want one line and a hint", args, r.stderr)
		}
		if r.stdout != "" {
			t.Errorf("execlua %v: stdout = %q", args, r.stdout)
		}
	}
}

func TestDemo(t *testing.T) {
	r := runCLI(t, "", "", "demo").want(t, exitOK)
	for _, want := range []string{
		"mcp__demo__echo\n",
		"refused mcp__notes__delete_note {\"id\":2}",
		`{"deleted":false,"slept_ms":300,"warmer":"Lisbon","work_notes":2}`,
		"Exec(weather and notes)",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("demo output lacks %q:\n%s", want, r.stdout)
		}
	}
}

// The definition file is valid Lua (gopher-lua's parser reads it) and
// declares every pool tool, ToolSearch, parallel and print.
func TestTypes(t *testing.T) {
	dir := t.TempDir()
	cfg := mcpConfig(t, dir, "")
	out := filepath.Join(dir, "tools.d.lua")
	runCLI(t, dir, "", "types", "--demo", "--mcp-config", cfg, "-o", out).want(t, exitOK)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if _, err := parse.Parse(strings.NewReader(text), "tools.d.lua"); err != nil {
		t.Fatalf("gopher-lua cannot parse the definitions: %v\n%s", err, text)
	}
	for _, want := range []string{
		"---@meta\n",
		"function tools.ToolSearch(args) end",
		"function tools.parallel(...) end",
		"function print(...) end",
		"function tools.mcp__demo__echo(args) end",
		"---@return mcp__demo__sleep.Result\nfunction tools.mcp__demo__sleep(args) end",
		`tools["mcp__fix__get-item"] = function(args) end`,
		"---Fetch an item by id.\n---@param args",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("definitions lack %q", want)
		}
	}
	// Without -o the same text goes to stdout.
	r := runCLI(t, dir, "", "types", "--demo", "--mcp-config", cfg).want(t, exitOK)
	if r.stdout != text {
		t.Error("types on stdout differs from types -o")
	}
}

// FLAG-3, FLAG-4 at the command line: --managed-settings beats --settings;
// with Exec off, the pool tools are declared flat and run says why it
// cannot run; FLAG-6: so it does when a rule denies Exec.
func TestManagedSettingsWin(t *testing.T) {
	dir := t.TempDir()
	local := write(t, dir, "settings.json", `{"enableExec": true}`)
	managed := write(t, dir, "managed.json", `{"enableExec": false}`)
	r := runCLI(t, dir, "", "tools", "--demo", "--settings", local, "--managed-settings", managed, "--json").want(t, exitOK)
	var out toolsOutput
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	if out.Announcement != nil || len(out.Tools) == 0 || out.Tools[0].Name == "Exec" {
		t.Errorf("tools with Exec off = %s", r.stdout)
	}
	r = runCLI(t, dir, "return 1", "run", "--demo", "--settings", local, "--managed-settings", managed, "-").want(t, exitUsage)
	if !strings.HasPrefix(r.stderr, "execlua: Exec is not available: the settings switch it off (enableExec is false)\nhint: remove \"enableExec\": false") {
		t.Errorf("stderr = %q", r.stderr)
	}
	// Denied by a rule: said so, with no hint to add servers.
	r = runCLI(t, dir, "return 1", "run", "--demo", "--settings", write(t, dir, "deny.json", `{"permissions": {"deny": ["Exec"]}}`), "-").want(t, exitUsage)
	if !strings.HasPrefix(r.stderr, "execlua: Exec is not available: a permission rule denies it\nhint: remove the permission rule") {
		t.Errorf("stderr = %q", r.stderr)
	}
	runCLI(t, dir, "return 1", "run", "--demo", "--settings", local, "-").want(t, exitOK)
}

// HOOK-3 at the command line: a blocking PostToolUse hook's message is
// shown and the script goes on.
func TestRunShowsHookMessages(t *testing.T) {
	dir := t.TempDir()
	settings := write(t, dir, "settings.json", `{"hooks":{"PostToolUse":[{"matcher":"mcp__demo__echo",
		"hooks":[{"type":"command","command":"echo looked at it >&2; exit 2"}]}]}}`)
	r := runCLI(t, dir, `tools.mcp__demo__echo{} return "went on"`, "run", "--demo", "--yes", "--settings", settings, "-").want(t, exitOK)
	if r.stdout != "went on\n" || !strings.Contains(r.stderr, "hook message: PostToolUse:mcp__demo__echo hook blocking error") || !strings.Contains(r.stderr, "looked at it") {
		t.Errorf("stdout = %q\nstderr = %q", r.stdout, r.stderr)
	}
}

// --isolation process runs the script in a worker process, this binary
// started again as one: a script with a nested call gives its result, and
// a runaway loop ends with the budget's result (BUD-1) and the worker
// killed, not the command.
func TestRunIsolationProcess(t *testing.T) {
	r := runCLI(t, "", `return tools.mcp__demo__echo{ a = 1 }`, "run", "--demo", "--yes", "--isolation", "process", "-").want(t, exitOK)
	if r.stdout != `{"a":1}`+"\n" {
		t.Errorf("stdout = %q", r.stdout)
	}
	r = runCLI(t, "", `tools.mcp__demo__echo{} while true do end`, "run", "--demo", "--yes", "--json", "--isolation", "process", "--budget", "200ms", "-").want(t, exitFailed)
	var out runOutput
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("stdout = %q: %v", r.stdout, err)
	}
	if out.OK || !strings.Contains(out.Text, "ran over its execution budget (200ms") || len(out.Calls) != 1 || out.Calls[0].Name != "mcp__demo__echo" {
		t.Errorf("runaway loop: %+v", out)
	}
	r = runCLI(t, "", `return 1`, "run", "--isolation", "elsewhere", "-").want(t, exitUsage)
	if !strings.Contains(r.stderr, `unknown isolation "elsewhere"`) || !strings.Contains(r.stderr, "hint: give --isolation inprocess or --isolation process") {
		t.Errorf("stderr = %q", r.stderr)
	}
}

// Flags may follow the script, as people type them.
func TestFlagsAfterTheScript(t *testing.T) {
	r := runCLI(t, "", `return tools.mcp__demo__echo{ a = 1 }`, "run", "-", "--demo", "--yes", "--json").want(t, exitOK)
	if !strings.Contains(r.stdout, `"ok": true`) && !strings.Contains(r.stdout, `"ok":true`) {
		t.Errorf("stdout = %q, want the --json shape", r.stdout)
	}
}

// The README's dry run is examples/scripts/tidy.lua, and prints what the
// README shows.
func TestReadmeDryRun(t *testing.T) {
	script, err := os.ReadFile("../../examples/scripts/tidy.lua")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", string(script), "run", "--demo", "--yes", "--dry-run", "-").want(t, exitOK)
	lines := []string{strings.TrimSpace(r.stdout)}
	_, skipped, _ := strings.Cut(r.stderr, "dry run: ")
	lines = append(lines, strings.Split(strings.TrimSpace("dry run: "+skipped), "\n")...)
	if len(lines) != 5 {
		t.Fatalf("stdout %q, stderr %q: want a result and four lines of dry run", r.stdout, r.stderr)
	}
	for _, line := range lines {
		if !strings.Contains(string(readme), "# "+line) {
			t.Errorf("the README's dry run does not show %q", line)
		}
	}
}
