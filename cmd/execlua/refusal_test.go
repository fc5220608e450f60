package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// Each refusal is on stderr, not only the first, saying who refused (the
// rule and its file, the hook and its message, the call cap and its flag);
// the live summary counts refused and failed calls apart from those made.
func TestRunEveryRefusalOnStderr(t *testing.T) {
	dir := t.TempDir()
	settings := write(t, dir, "settings.json", `{"permissions":{"allow":["mcp__demo"],"deny":["mcp__demo__echo(*secret*)"]},
		"hooks":{"PreToolUse":[{"matcher":"mcp__demo__sleep","hooks":[{"type":"command","command":"echo 'no sleeping on duty' >&2; exit 2"}]}]}}`)
	r := runCLI(t, dir, `
		pcall(tools.mcp__demo__echo, { note = "secret 1" })
		pcall(tools.mcp__demo__echo, { note = "secret 2" })
		pcall(tools.mcp__demo__sleep, { ms = 1 })
		pcall(tools.mcp__demo__fail, {})
		tools.mcp__demo__echo{ note = "fine" }
		pcall(tools.mcp__demo__echo, {})
		return "done"`, "run", "--demo", "--settings", settings, "--max-calls", "5", "-").want(t, exitOK)
	rule := `execlua: mcp__demo__echo refused by the deny rule "mcp__demo__echo(*secret*)" in the user settings (` + settings + ")"
	if n := strings.Count(r.stderr, rule+"\n  hint: remove or narrow that rule in the file named\n"); n != 2 {
		t.Errorf("%d refusals by the rule on stderr, want 2:\n%s", n, r.stderr)
	}
	for _, want := range []string{
		`execlua: mcp__demo__sleep refused by the PreToolUse hook "echo 'no sleeping on duty' >&2; exit 2"` + "\n  hint: the hook said: no sleeping on duty;",
		"execlua: mcp__demo__echo refused by the call limit (5 calls a run)\n  hint: raise --max-calls\n",
		"... 6 tool calls (2 made, 1 failed, 4 refused): mcp__demo__echo, mcp__demo__echo (",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

// --yes answers only the calls no rule names: a call an ask rule names is
// still asked about, and with no terminal refused with a message that
// says so.
func TestRunYesLeavesAskRules(t *testing.T) {
	dir := t.TempDir()
	settings := write(t, dir, "settings.json", `{"permissions":{"ask":["mcp__demo__echo"]}}`)
	r := runCLI(t, dir, `local ok, err = pcall(tools.mcp__demo__echo, {}) return { err, tools.mcp__demo__sleep{ ms = 1 }.slept }`,
		"run", "--demo", "--yes", "--settings", settings, "-").want(t, exitOK)
	if !strings.Contains(r.stdout, `asks for confirmation, and there is no terminal to ask on (--yes does not answer a call an ask rule names)`) || !strings.Contains(r.stdout, ",1]") {
		t.Errorf("stdout = %q", r.stdout)
	}
	if !strings.Contains(r.stderr, "hint: answer on a terminal, or remove the ask rule named above") {
		t.Errorf("stderr = %q", r.stderr)
	}
}

// A hook that fails is shown to the user and counted (HOOK-5), and the
// call goes on; a misspelt settings key is named with the key meant.
func TestRunHookFailureAndUnknownKeyShown(t *testing.T) {
	dir := t.TempDir()
	settings := write(t, dir, "settings.json", `{"permisions":{"allow":["mcp__demo"]},
		"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"/no/such/guard.sh"}]}]}}`)
	r := runCLI(t, dir, `return tools.mcp__demo__echo{ a = 1 }`, "run", "--demo", "--yes", "--settings", settings, "-").want(t, exitOK)
	for _, want := range []string{
		`unknown key "permisions" is ignored; did you mean "permissions"?`,
		`execlua: warning: hooks: tool mcp__demo__echo: PreToolUse hook "/no/such/guard.sh" failed and was ignored (the call went on): exit status 127 (the command was not found)`,
		"1 tool call (1 hook error): mcp__demo__echo",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

// run --json gives each call's arguments (capped), server, outcome and
// who refused it; images their size.
func TestRunJSONCalls(t *testing.T) {
	dir := t.TempDir()
	settings := write(t, dir, "settings.json", `{"permissions":{"allow":["mcp__demo"],"deny":["mcp__demo__echo(*no*)"]}}`)
	r := runCLI(t, dir, `pcall(tools.mcp__demo__echo, { s = "no" }) tools.mcp__demo__echo{ s = string.rep("x", 5000) }
		tools.mcp__demo__chart{ values = { 1, 2 } } return 1`,
		"run", "--demo", "--json", "--settings", settings, "-").want(t, exitOK)
	var out runOutput
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Calls) != 3 {
		t.Fatalf("calls = %+v", out.Calls)
	}
	if c := out.Calls[0]; c.Outcome != "refused" || !strings.Contains(c.RefusedBy, `the deny rule "mcp__demo__echo(*no*)"`) || c.Server != "demo" || c.Error == "" {
		t.Errorf("refused call = %+v", c)
	}
	var cut string
	if err := json.Unmarshal(out.Calls[1].Arguments, &cut); err != nil || !strings.HasSuffix(cut, "... (5008 bytes in all)") || out.Calls[1].Outcome != "ok" {
		t.Errorf("long arguments = %.80s (%v)", out.Calls[1].Arguments, err)
	}
	if len(out.Images) != 1 || out.Images[0].Bytes == 0 {
		t.Errorf("images = %+v", out.Images)
	}
}

// A binary file is not a Lua script, and says so.
func TestRunBinaryScript(t *testing.T) {
	dir := t.TempDir()
	bin := write(t, dir, "a.out", "\x7fELF\x02\x01\x01\x00\x00\x00")
	r := runCLI(t, dir, "", "run", "--demo", bin).want(t, exitUsage)
	if !strings.Contains(r.stderr, bin+" is not a Lua script: it holds NUL bytes") {
		t.Errorf("stderr = %q", r.stderr)
	}
	r = runCLI(t, dir, "\x1bLuaQ\x00", "run", "--demo", "-").want(t, exitUsage)
	if !strings.Contains(r.stderr, "stdin is not a Lua script: it is precompiled Lua bytecode") {
		t.Errorf("stderr = %q", r.stderr)
	}
}
