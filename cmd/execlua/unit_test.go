package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
)

// PERM-1 at the terminal: the question names the leaf tool and its
// arguments; an unclear answer is asked again.
func TestTerminalPrompter(t *testing.T) {
	for input, want := range map[string]host.PermissionAnswer{
		"y\n":        host.AllowOnce,
		"maybe\na\n": host.AllowAlways,
		"n\n":        host.Deny,
		"\n":         host.Deny,
		"":           host.Deny, // end of input
	} {
		var out bytes.Buffer
		p := &terminalPrompter{in: bufio.NewReader(strings.NewReader(input)), out: &out}
		got, _ := p.Ask(t.Context(), host.PermissionQuestion{
			Tool: execlua.Tool{Name: "mcp__notes__delete_note"},
			Args: json.RawMessage(`{ "id": 2 }`),
		})
		if got != want {
			t.Errorf("answer to %q = %v, want %v", input, got, want)
		}
		if !strings.Contains(out.String(), `Allow mcp__notes__delete_note {"id":2}?`) {
			t.Errorf("question = %q", out.String())
		}
	}
}

// On a terminal the live summary is one line rewritten in place.
func TestLiveSummaryOnATerminal(t *testing.T) {
	var out bytes.Buffer
	l := &progress{w: &out, term: true}
	l.update("1 tool call\na")
	l.update("2 tool calls\na\nb")
	l.done("2 tool calls\na\nb")
	got := out.String()
	if strings.Count(got, "\n") != 1 || !strings.HasPrefix(got, "\r\x1b[K1 tool call: a\r\x1b[K2 tool calls: a, b\r\x1b[K2 tool calls: a, b (") {
		t.Errorf("terminal summary = %q", got)
	}
}

func TestPlaceholder(t *testing.T) {
	for schema, want := range map[string]string{
		`{"type":"object","properties":{"id":{"type":"integer"},"tags":{"type":"array"},"ok":{"type":"boolean"},"name":{"type":"string"}}}`: `{"id":0,"name":"","ok":false,"tags":[]}`,
		`{"type":"object","properties":{"mode":{"enum":["fast","slow"]},"n":{"type":"number","default":5},"k":{"const":"x"}}}`:              `{"k":"x","mode":"fast","n":5}`,
		`{"anyOf":[{"type":"string"},{"type":"integer"}]}`:                                                                                  `""`,
		`{"type":["null","object"]}`: `{}`,
		`{"$ref":"#/$defs/x"}`:       `null`,
		`{"type":"object"}`:          `{}`,
	} {
		out := standIn(execlua.Tool{Name: "t", OutputSchema: json.RawMessage(schema)})
		if string(out.Structured) != want {
			t.Errorf("standIn(%s) = %s, want %s", schema, out.Structured, want)
		}
	}
	if out := standIn(execlua.Tool{Name: "t"}); len(out.Text) != 1 || !strings.Contains(out.Text[0], "dry run") {
		t.Errorf("standIn without a schema = %+v", out)
	}
}

// A recorded tool lists the same as the server listed it.
func TestListedEntryRoundTrips(t *testing.T) {
	listed := `{"name":"get-item","description":"d","inputSchema":{"type":"object"},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"title":"Get"},"_meta":{"anthropic/searchHint":"fetch"}}`
	tool, err := execlua.NewMCPTool("srv", json.RawMessage(listed))
	if err != nil {
		t.Fatal(err)
	}
	entry, err := listedEntry(tool)
	if err != nil {
		t.Fatal(err)
	}
	again, err := execlua.NewMCPTool("srv", entry)
	if err != nil {
		t.Fatal(err)
	}
	if again.Name != tool.Name || !again.Annotations.ReadOnly() || again.SearchHint != "fetch" || again.Annotations.Title != "Get" || string(again.OutputSchema) != string(tool.OutputSchema) {
		t.Errorf("round trip: %+v, want %+v", again, tool)
	}
}

// Flags after a command's arguments are read as flags: a value stays with
// its flag, "--" keeps what follows it an argument, and words of other
// commands or before the command are left alone.
func TestFlagsFirst(t *testing.T) {
	app := newApp(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{})
	for _, tc := range []struct{ in, want string }{
		{"execlua run script.lua --json", "execlua run --json script.lua"},
		{"execlua run script.lua --budget 2s -y", "execlua run --budget 2s -y script.lua"},
		{"execlua run - --record=out.json --dry-run", "execlua run --record=out.json --dry-run -"},
		{"execlua run script.lua -- --json", "execlua run script.lua -- --json"},
		{"execlua search notes --max-results 3 --demo", "execlua search --max-results 3 --demo notes"},
		{"execlua run script.lua --bogus", "execlua run --bogus script.lua"},
		{"execlua run script.lua --budget", "execlua run --budget script.lua"},
		{"execlua --help run", "execlua --help run"},
		{"execlua bogus x --json", "execlua bogus x --json"},
	} {
		got := strings.Join(flagsFirst(app, strings.Fields(tc.in)), " ")
		if got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}
