package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// check passes every example script against the demo servers, and lists
// each mistake of a bad one with its line, exiting 1, without calling
// anything.
func TestCheck(t *testing.T) {
	scripts, _ := filepath.Glob("../../examples/scripts/*.lua")
	if len(scripts) == 0 {
		t.Fatal("no example scripts")
	}
	for _, s := range scripts {
		src, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		r := runCLI(t, "", string(src), "check", "--demo", "-").want(t, exitOK)
		if !strings.Contains(r.stdout, "No problems found") {
			t.Errorf("%s: %q", s, r.stdout)
		}
	}
	bad := "local n = tools.mcp__notes__list_note{ tag = \"work\" }\ntools.mcp__notes__add_note{ body = 1 }\n"
	r := runCLI(t, "", bad, "check", "--demo", "-").want(t, exitFailed)
	for _, want := range []string{
		"2 of the script's calls cannot work as written:",
		"line 1: tools.mcp__notes__list_note: no tool of that name is reachable from this script; did you mean tools.mcp__notes__list_notes?",
		"line 2: tools.mcp__notes__add_note{...}: args.title: required, missing; args.body: want string, got integer",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	r = runCLI(t, "", bad, "check", "--demo", "--json", "-").want(t, exitFailed)
	var out checkOutput
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.OK || len(out.Problems) != 2 || out.Problems[1].Line != 2 {
		t.Errorf("--json: %v, %+v", err, out)
	}
	runCLI(t, "", "", "check", "--demo").want(t, exitUsage)
}
