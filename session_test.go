package execlua

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/execlua/execlua/announce"
	"github.com/execlua/execlua/pool"
	"github.com/google/go-cmp/cmp"
)

func slackTools() []pool.Tool {
	return []pool.Tool{mcpTool("slack", "post_message")}
}

var testGuidance = []pool.Guidance{
	{Tool: "TaskCreate", Line: "Track multi-step work with TaskCreate."},
	{Tool: "Bash", Line: "Prefer Bash for shell commands."},
	{Tool: "Read", Line: "Read files before editing them."},
}

// One session, turn after turn, as a host drives it: servers connect and
// disconnect, scripts run, history is compacted, Exec is switched off and
// on, denied and allowed, and the pool empties. At every step the exact
// bytes of tools[] and of the appended message go into a transcript pinned
// in testdata/golden/session_transcript.txt; the invariants are also checked
// directly: earlier messages never change (BC-4), and tools[] does not
// change when only servers connect or disconnect (BC-11, POOL-8).
func TestSessionEndToEnd(t *testing.T) {
	f := &fakeFunnel{tools: map[string]toolFunc{
		"mcp__github__create_issue": structured(`{"number":7,"url":"https://example.test/7"}`),
		"mcp__slack__post_message":  text("posted"),
	}}
	s := newSession(t, f, &Options{Tools: builtins(), Guidance: testGuidance})
	off, on := ptr(false), ptr(true)
	steps := []struct {
		id   string
		want announce.Kind // what is appended; "" for nothing
		// host events before the request
		tools    []pool.Tool
		settings *Settings
		compact  bool
		// sameTools: tools[] must be byte-identical to the previous step's
		sameTools bool
		// a script the model runs after the host events, before the request
		script string
	}{
		{id: "BC-2 POOL-2 FLAG-1 first request, deferred builtins only, no server", want: announce.Full},
		{id: "BC-5 nothing changed", sameTools: true},
		{id: "BC-7 BC-11 github connects", want: announce.Full, tools: with(builtins(), githubTools()), sameTools: true},
		{id: "ORCH-1 SRCH-1 the model searches and calls", sameTools: true,
			script: `local r = tools.ToolSearch{ query = "create issue" }
local issue = tools.mcp__github__create_issue{ id = 1 }
return { found = r.matches[1].name, number = issue.number }`},
		{id: "POOL-10 slack connects; a run before the next request already reaches it", want: announce.Full, tools: with(builtins(), githubTools(), slackTools()), sameTools: true,
			script: `return tools.mcp__slack__post_message{ id = 2 }`},
		{id: "BC-5 the announcement of slack is not repeated", sameTools: true},
		{id: "POOL-10 BC-11 github disconnects; a run before the next request cannot reach it", want: announce.Full, tools: with(builtins(), slackTools()), sameTools: true,
			script: `local ok, err = pcall(tools.mcp__github__create_issue, { id = 3 }); return { ok = ok, err = err }`},
		{id: "BC-6 compaction dropped the announcement: re-announced in full", want: announce.Full, compact: true, sameTools: true},
		{id: "FLAG-3 FLAG-5 BC-9 POOL-7 enableExec false in the local settings", want: announce.Closed, settings: &Settings{Local: Layer{EnableExec: off}},
			script: `return "unreachable"`},
		{id: "BC-9 closed is said once", sameTools: true},
		{id: "FLAG-4 FLAG-5 BC-9 remote true beats local false: reopened in full", want: announce.Full, settings: &Settings{Remote: Layer{EnableExec: on}, Local: Layer{EnableExec: off}}},
		{id: "FLAG-6 POOL-6 Exec denied", want: announce.Closed, settings: &Settings{Denied: func(name string) bool { return name == Name }}},
		{id: "FLAG-2 enableExec true, allowed again", want: announce.Full, settings: &Settings{Local: Layer{EnableExec: on}}},
		{id: "FLAG-7 POOL-12 TaskCreate kept flat by the remote list; Exec stays", want: announce.Full, settings: &Settings{Remote: Layer{NonDeferred: []string{"TaskCreate", "NoSuchTool"}}},
			script: `local ok, err = pcall(function() return tools.TaskCreate{} end); return tostring(ok) .. " " .. tostring(err)`},
		{id: "BC-8 POOL-3 slack disconnects and WebFetch is exempted too: the pool empties", want: announce.Empty, tools: builtins(),
			settings: &Settings{Remote: Layer{NonDeferred: []string{"TaskCreate"}}, Local: Layer{NonDeferred: []string{"WebFetch"}}}},
		{id: "BC-8 emptied is said once", sameTools: true},
		{id: "BC-3 compaction with an empty pool: nothing to say", compact: true, sameTools: true},
		{id: "settings back to defaults: the pool returns", want: announce.Full, settings: &Settings{}},
	}

	var conv conversation
	var transcript strings.Builder
	prevTools := ""
	for i, st := range steps {
		if st.tools != nil {
			if err := s.SetTools(st.tools); err != nil {
				t.Fatal(err)
			}
		}
		if st.settings != nil {
			if err := s.SetSettings(*st.settings); err != nil {
				t.Fatal(err)
			}
		}
		if st.compact {
			conv.msgs = []announce.Message{{Text: "Summary of the conversation so far."}}
		}
		fmt.Fprintf(&transcript, "=== %d %s\n", i, st.id)
		if st.script != "" {
			res := run(s, st.script)
			fmt.Fprintf(&transcript, "run:\n%s\nresult: %s", st.script, resultFile(res))
		}
		conv.say(fmt.Sprintf("user: turn %d", i))
		before := slices.Clone(conv.msgs)
		r, appended := conv.request(s)
		if diff := cmp.Diff(before, conv.msgs[:len(before)]); diff != "" {
			t.Fatalf("step %d (%s): BC-4 earlier messages changed (-want +got):\n%s", i, st.id, diff)
		}
		var kind announce.Kind
		if r.Announcement != nil {
			kind = r.Announcement.Kind
		}
		if kind != st.want {
			t.Errorf("step %d (%s): appended %q, want %q", i, st.id, kind, st.want)
		}
		tools := toolsJSON(t, r)
		if st.sameTools && tools != prevTools {
			t.Errorf("step %d (%s): tools[] changed", i, st.id)
		}

		if tools == prevTools {
			transcript.WriteString("tools[]: unchanged\n")
		} else {
			fmt.Fprintf(&transcript, "tools[]: %s\n", strings.ReplaceAll(tools, `},{"name"`, "},\n  {\"name\""))
		}
		prevTools = tools
		if appended == "" {
			appended = "(nothing)"
		}
		fmt.Fprintf(&transcript, "appended:\n%s\nguidance: %q\n", appended, r.Guidance)
		conv.say("assistant: done")
	}
	golden(t, "session_transcript.txt", transcript.String())
	// ToolSearch answered without the funnel (HOOK-6: it fires no hook).
	want := []string{
		`mcp__github__create_issue {"id":1}`,
		`mcp__slack__post_message {"id":2}`,
	}
	if diff := cmp.Diff(want, f.reached()); diff != "" {
		t.Errorf("calls that reached the funnel (-want +got):\n%s", diff)
	}
}

// The three announcement texts as a host receives them from a Session,
// pinned in testdata/golden/announce_*.txt.
func TestAnnouncementGolden(t *testing.T) {
	s := newSession(t, &fakeFunnel{}, &Options{Tools: with(builtins(), githubTools())})
	var conv conversation
	_, full := conv.request(s)
	golden(t, "announce_full.txt", full)
	if err := s.SetTools([]pool.Tool{builtin("Read", false)}); err != nil {
		t.Fatal(err)
	}
	_, empty := conv.request(s)
	golden(t, "announce_empty.txt", empty)
	if err := s.SetTools(with(builtins(), githubTools())); err != nil {
		t.Fatal(err)
	}
	conv.request(s)
	if err := s.SetSettings(Settings{Local: Layer{EnableExec: ptr(false)}}); err != nil {
		t.Fatal(err)
	}
	_, closed := conv.request(s)
	golden(t, "announce_closed.txt", closed)
	for kind, text := range map[string]string{"empty": empty, "closed": closed} {
		if strings.Contains(text, Name) {
			t.Errorf("BC-8 BC-9: the %s message names Exec: %q", kind, text)
		}
	}
}

// announcedNames returns the name lines of a full announcement: between
// the lead line and the ToolSearch line.
func announcedNames(t *testing.T, text string) []string {
	t.Helper()
	lines := strings.Split(text, "\n")
	if len(lines) < 4 {
		t.Fatalf("not a full announcement: %q", text)
	}
	return lines[1 : len(lines)-2]
}

// ANN-1..5, ANN-8, POOL-4, POOL-5, POOL-9 through a Session: every pool
// tool, builtin and MCP alike, one name a line and nothing else; flat
// tools (core, alwaysLoad, non-deferred list), denied tools and Exec are
// absent; no figures; the ToolSearch pointer is outside the list.
func TestAnnouncementListsThePool(t *testing.T) {
	pinned := mcpTool("db", "status")
	pinned.AlwaysLoad = true
	hinted := mcpTool("db", "query")
	hinted.SearchHint = "run SQL against the warehouse"
	registry := with(builtins(), githubTools(), []pool.Tool{pinned, hinted, mcpTool("db", "drop_table"), builtin("WebSearch", true)})
	s := newSession(t, &fakeFunnel{}, &Options{Tools: registry, Settings: Settings{
		Local:  Layer{NonDeferred: []string{"WebSearch"}},
		Denied: func(name string) bool { return name == "mcp__db__drop_table" },
	}})
	r := s.Request(nil)
	if r.Announcement == nil || r.Announcement.Kind != announce.Full {
		t.Fatalf("BC-2: no full announcement: %+v", r.Announcement)
	}
	text := r.Announcement.Text
	want := []string{"TaskCreate", "WebFetch", "mcp__db__query", "mcp__github__create_issue", "mcp__github__get-file.contents"}
	if diff := cmp.Diff(want, announcedNames(t, text)); diff != "" {
		t.Errorf("ANN-1 ANN-2 ANN-3 ANN-4 POOL-9 announced names (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{Name, "Read", "mcp__db__status", "WebSearch"}, declNames(r.Tools)); diff != "" {
		t.Errorf("POOL-1 POOL-4 POOL-5 tools[] (-want +got):\n%s", diff)
	}
	for _, absent := range []string{"does one thing", "on github", "github\n", "warehouse", `"type"`, "---@", "mcp__db__drop_table", "mcp__db__status", "WebSearch", "Read\n", Name + "\n"} {
		if strings.Contains(text, absent) {
			t.Errorf("ANN-1 ANN-3 ANN-4 SRCH-7: the announcement contains %q", absent)
		}
	}
	if strings.ContainsAny(text, "0123456789") {
		t.Errorf("ANN-5: a figure in the announcement: %q", text)
	}
	last := strings.Split(text, "\n")
	if !strings.Contains(last[len(last)-2], "tools.ToolSearch") {
		t.Errorf("ANN-8: the line after the list does not point to tools.ToolSearch: %q", last[len(last)-2])
	}
}

// ANN-6: the same pool gives the same bytes whatever the registration
// order, and Exec's declaration does not depend on it.
func TestAnnouncementOrderIrrelevant(t *testing.T) {
	a := newSession(t, &fakeFunnel{}, &Options{Tools: with(builtins(), githubTools(), slackTools())})
	b := newSession(t, &fakeFunnel{}, &Options{Tools: with(slackTools(), githubTools()[1:], builtins(), githubTools()[:1])})
	ra, rb := a.Request(nil), b.Request(nil)
	if diff := cmp.Diff(ra.Announcement.Text, rb.Announcement.Text); diff != "" {
		t.Errorf("announcement depends on registration order (-a +b):\n%s", diff)
	}
	if diff := cmp.Diff(toolsJSON(t, ra), toolsJSON(t, rb)); diff != "" {
		t.Errorf("tools[] depends on the order of pool tools (-a +b):\n%s", diff)
	}
}

// ANN-7: a pool of any size is listed in full.
func TestAnnouncementLargePool(t *testing.T) {
	var registry []pool.Tool
	var want []string
	for i := range 1000 {
		tool := mcpTool(fmt.Sprintf("server%d", i%20), fmt.Sprintf("tool_%d", i))
		registry = append(registry, tool)
		want = append(want, tool.Name)
	}
	slices.Sort(want)
	s := newSession(t, &fakeFunnel{}, &Options{Tools: registry})
	got := announcedNames(t, s.Request(nil).Announcement.Text)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// BC-10: a host without the channel never gets an announcement, through
// connects, an emptied pool and Exec switched off; tools[] follows as usual.
func TestNoChannel(t *testing.T) {
	s := newSession(t, &fakeFunnel{}, &Options{Tools: builtins(), NoChannel: true})
	var conv conversation
	check := func(step string, wantTools []string) {
		t.Helper()
		r, appended := conv.request(s)
		if appended != "" {
			t.Errorf("%s: appended %q without a channel", step, appended)
		}
		if diff := cmp.Diff(wantTools, declNames(r.Tools)); diff != "" {
			t.Errorf("%s: tools[] (-want +got):\n%s", step, diff)
		}
	}
	check("start", []string{Name, "Read"})
	if err := s.SetTools(with(builtins(), githubTools())); err != nil {
		t.Fatal(err)
	}
	check("connect", []string{Name, "Read"})
	if err := s.SetTools([]pool.Tool{builtin("Read", false)}); err != nil {
		t.Fatal(err)
	}
	check("emptied", []string{"Read"})
	if err := s.SetSettings(Settings{Local: Layer{EnableExec: ptr(false)}}); err != nil {
		t.Fatal(err)
	}
	check("closed", []string{"Read"})
}

// BC-3, POOL-3: a session whose pool starts empty declares no Exec and
// gets no announcement; a run is refused without a sandbox.
func TestEmptyPoolFromTheStart(t *testing.T) {
	f := &fakeFunnel{}
	s := newSession(t, f, &Options{Tools: []pool.Tool{builtin("Read", false), builtin("WebFetch", true)},
		Settings: Settings{Remote: Layer{NonDeferred: []string{"WebFetch"}}}})
	r := s.Request(nil)
	if r.Announcement != nil {
		t.Errorf("BC-3: announced %q", r.Announcement.Text)
	}
	if diff := cmp.Diff([]string{"Read", "WebFetch"}, declNames(r.Tools)); diff != "" {
		t.Errorf("POOL-3: tools[] (-want +got):\n%s", diff)
	}
	res := run(s, `return 1`)
	if !errors.Is(res.Err, ErrUnavailable) || !res.IsError {
		t.Errorf("a run with Exec not declared: %+v", res)
	}
}

// POOL-6, FLAG-3, FLAG-6, PERM-5: with Exec off or denied, every pool tool
// is declared flat again, and a run (from a stale tools[]) is refused
// before any sandbox starts.
func TestExecOffOrDenied(t *testing.T) {
	for _, settings := range []Settings{
		{Local: Layer{EnableExec: ptr(false)}},
		{Remote: Layer{EnableExec: ptr(false)}, Local: Layer{EnableExec: ptr(true)}},
		{Denied: func(name string) bool { return name == Name }},
	} {
		f := &fakeFunnel{}
		s := newSession(t, f, &Options{Tools: with(builtins(), githubTools()), Settings: settings})
		r := s.Request(nil)
		want := []string{"Read", "WebFetch", "TaskCreate", "mcp__github__create_issue", "mcp__github__get-file.contents"}
		if diff := cmp.Diff(want, declNames(r.Tools)); diff != "" {
			t.Errorf("tools[] (-want +got):\n%s", diff)
		}
		for _, name := range want {
			if !r.Assembly.Available(name) {
				t.Errorf("%s is not available with Exec off", name)
			}
		}
		res := run(s, `tools.WebFetch{}`)
		if !errors.Is(res.Err, ErrUnavailable) || len(f.reached()) != 0 {
			t.Errorf("run with Exec off: Err=%v, reached %v", res.Err, f.reached())
		}
	}
}

// FLAG-1..4: enableExec resolves remote > local > default on.
func TestExecEnabledResolution(t *testing.T) {
	for _, tc := range []struct {
		id            string
		remote, local *bool
		want          bool
	}{
		{"FLAG-1 unset", nil, nil, true},
		{"FLAG-2 local true", nil, ptr(true), true},
		{"FLAG-3 local false", nil, ptr(false), false},
		{"FLAG-4 remote true beats local false", ptr(true), ptr(false), true},
		{"FLAG-4 remote false beats local true", ptr(false), ptr(true), false},
		{"FLAG-4 remote false, local unset", ptr(false), nil, false},
		{"FLAG-4 remote true, local unset", ptr(true), nil, true},
	} {
		settings := Settings{Remote: Layer{EnableExec: tc.remote}, Local: Layer{EnableExec: tc.local}}
		if got := settings.ExecEnabled(); got != tc.want {
			t.Errorf("%s: ExecEnabled() = %v, want %v", tc.id, got, tc.want)
		}
		s := newSession(t, &fakeFunnel{}, &Options{Tools: builtins(), Settings: settings})
		if got := s.Request(nil).Tools[0].Name == Name; got != tc.want {
			t.Errorf("%s: Exec declared = %v, want %v", tc.id, got, tc.want)
		}
	}
}

// POOL-11, POOL-13: a pool tool left out of tools[] is still available to
// the host's checks and keeps its guidance line.
func TestPoolToolsStayAvailable(t *testing.T) {
	s := newSession(t, &fakeFunnel{}, &Options{Tools: builtins(), Guidance: testGuidance})
	r := s.Request(nil)
	if slices.Contains(declNames(r.Tools), "TaskCreate") {
		t.Fatal("TaskCreate is declared flat; the test needs it in the pool")
	}
	if !r.Assembly.Available("TaskCreate") {
		t.Error("POOL-11: TaskCreate not available")
	}
	if _, inPool, ok := r.Assembly.Lookup("TaskCreate"); !ok || !inPool {
		t.Error("POOL-11: TaskCreate not found in the pool")
	}
	want := []string{"Track multi-step work with TaskCreate.", "Read files before editing them."}
	if diff := cmp.Diff(want, r.Guidance); diff != "" {
		t.Errorf("POOL-13 guidance (-want +got):\n%s", diff)
	}
}

// Edge cases: a pool tool named ToolSearch or parallel, an empty or a
// repeated name, is refused and the session keeps its tools; unknown names
// in the non-deferred list are ignored.
func TestSetToolsRefusesBadRegistries(t *testing.T) {
	s := newSession(t, &fakeFunnel{}, &Options{Tools: builtins()})
	want := toolsJSON(t, s.Request(nil))
	for _, bad := range [][]pool.Tool{
		{mcpTool("x", "a"), {Name: "ToolSearch", Kind: pool.MCP}},
		{{Name: "parallel", ShouldDefer: true}},
		{{Name: ""}},
		{builtin("Read", false), builtin("Read", true)},
		{builtin("Exec", false)},
	} {
		if err := s.SetTools(bad); err == nil {
			t.Errorf("SetTools(%v) did not fail", declNames(nil))
		}
		if got := toolsJSON(t, s.Request(nil)); got != want {
			t.Errorf("a refused registry changed tools[]")
		}
	}
	if err := s.SetSettings(Settings{Local: Layer{NonDeferred: []string{"NoSuchTool", "mcp__x__y"}}}); err != nil {
		t.Errorf("unknown names in the non-deferred list: %v", err)
	}
	if got := toolsJSON(t, s.Request(nil)); got != want {
		t.Errorf("unknown names in the non-deferred list changed tools[]")
	}
	if _, err := New(nil, nil); err == nil {
		t.Error("New without a funnel did not fail")
	}
	if _, err := New(&fakeFunnel{}, &Options{Tools: []pool.Tool{{Name: "parallel", Kind: pool.MCP}}}); err == nil {
		t.Error("New with a pool tool named parallel did not fail")
	}
}

// POOL-10, SRCH-9: ToolSearch searches the pool at this run, and what it
// finds can be called; a tool left flat is neither found nor callable.
func TestSearchFollowsThePool(t *testing.T) {
	f := &fakeFunnel{}
	s := newSession(t, f, &Options{Tools: builtins()})
	script := `local r = tools.ToolSearch{ query = "" }
local names = {}
for i, m in ipairs(r.matches) do names[i] = m.name end
return names`
	if got := run(s, script).Text; got != `["TaskCreate","WebFetch"]` {
		t.Errorf("before the connect: %s", got)
	}
	if err := s.SetTools(with(builtins(), githubTools())); err != nil {
		t.Fatal(err)
	}
	if got := run(s, script).Text; got != `["mcp__github__create_issue","mcp__github__get-file.contents","TaskCreate","WebFetch"]` {
		t.Errorf("after the connect: %s", got)
	}
	res := run(s, `local r = tools.ToolSearch{ query = "get-file.contents" }
return tools[r.matches[1].name]{ id = 9 }`)
	if res.IsError || !strings.Contains(res.Text, `mcp__github__get-file.contents {"id":9}`) {
		t.Errorf("SRCH-9: a found tool could not be called: %s", res.Text)
	}
	res = run(s, `return tools.Read == nil`)
	if res.Text != "true" {
		t.Errorf("POOL-4: a flat tool is reachable from the sandbox: %s", res.Text)
	}
}

// SRCH-13 through Run: wrong ToolSearch arguments fail with the expected
// shape, rendered from the schema.
func TestSearchArgumentsShape(t *testing.T) {
	s := newSession(t, &fakeFunnel{}, &Options{Tools: builtins()})
	res := run(s, `local ok, err = pcall(tools.ToolSearch, { q = "x" }); return err`)
	if !strings.Contains(res.Text, `{ query: string, max_results?: number }`) {
		t.Errorf("the error does not show the expected shape: %s", res.Text)
	}
}

// Exec's declaration inside tools[] is the package's, byte for byte.
func TestRequestCarriesDeclaration(t *testing.T) {
	s := newSession(t, &fakeFunnel{}, &Options{Tools: builtins()})
	got, _ := json.Marshal(s.Request(nil).Tools[0])
	want, _ := json.Marshal(Declaration())
	if string(got) != string(want) {
		t.Errorf("tools[0] is not Declaration()")
	}
}

// Edge cases: a server name containing __ and tool names with - and . are
// announced, found, called with brackets and summarised like any other.
func TestOddNames(t *testing.T) {
	f := &fakeFunnel{}
	odd := []pool.Tool{mcpTool("my__srv", "get-item"), mcpTool("my__srv", "v1.list")}
	s := newSession(t, f, &Options{Tools: odd})
	got := announcedNames(t, s.Request(nil).Announcement.Text)
	if diff := cmp.Diff([]string{"mcp__my__srv__get-item", "mcp__my__srv__v1.list"}, got); diff != "" {
		t.Errorf("announced (-want +got):\n%s", diff)
	}
	res := run(s, `local r = tools.ToolSearch{ query = "select:mcp__my__srv__v1.list" }
return { r.matches[1].signature:match("tools%[.-%]"), tools["mcp__my__srv__get-item"]{ id = 1 } }`)
	want := `["tools[\"mcp__my__srv__v1.list\"]","mcp__my__srv__get-item {\"id\":1}"]`
	if diff := cmp.Diff(want, res.Text); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("2 tool calls\nToolSearch\nmcp__my__srv__get-item", res.Summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
}

// The exempt list is the host's: a builtin that asks to be deferred stays
// flat only when Options.Exempt names it; Exec needs no listing.
func TestExemptIsHostPolicy(t *testing.T) {
	tools := []Tool{builtin("Bash", true), builtin("WebFetch", true)}
	for _, tc := range []struct {
		exempt []string
		want   []string
	}{
		{nil, []string{Name}},
		{[]string{"Bash"}, []string{Name, "Bash"}},
	} {
		s := newSession(t, &fakeFunnel{}, &Options{Tools: tools, Exempt: tc.exempt})
		if got := declNames(s.Request(nil).Tools); !slices.Equal(got, tc.want) {
			t.Errorf("exempt %v: tools[] %v, want %v", tc.exempt, got, tc.want)
		}
	}
}

// Update hands over tools and settings at once: both take effect together,
// and a registry that does not assemble leaves both as they were.
func TestUpdateReplacesToolsAndSettingsTogether(t *testing.T) {
	s := newSession(t, &fakeFunnel{}, &Options{Tools: builtins()})
	before := toolsJSON(t, s.Request(nil))
	off := Settings{Local: Layer{EnableExec: ptr(false)}}
	if err := s.Update([]pool.Tool{{Name: "parallel", ShouldDefer: true}}, off); err == nil {
		t.Fatal("Update with a pool tool named parallel did not fail")
	}
	if got := toolsJSON(t, s.Request(nil)); got != before {
		t.Errorf("a refused Update changed tools[]:\n%s\nwant\n%s", got, before)
	}
	if err := s.Update(with(builtins(), githubTools()), off); err != nil {
		t.Fatal(err)
	}
	r := s.Request(nil)
	if r.Assembly.Exec.Enabled() {
		t.Error("Update's settings (enableExec false) did not take effect")
	}
	if !r.Assembly.Available("mcp__github__create_issue") {
		t.Error("Update's tools did not take effect")
	}
}
