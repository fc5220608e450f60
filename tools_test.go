package execlua

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/execlua/execlua/pool"
	"github.com/google/go-cmp/cmp"
)

// An MCP tool built from its tools/list entry keeps everything a host
// would otherwise copy by hand: the name parts, the schemas byte for byte,
// the annotations and the _meta hints.
func TestNewMCPTool(t *testing.T) {
	listed := `{"name":"get-file.contents","title":"Get a file","description":"Reads a file.",
		"inputSchema":{"type":"object","properties":{"path":{"type":"string"}}},
		"outputSchema":{"type":"object","properties":{"text":{"type":"string"}}},
		"annotations":{"readOnlyHint":true,"openWorldHint":false},
		"_meta":{"anthropic/alwaysLoad":true,"anthropic/searchHint":"read repository file","other":1},
		"extra":"ignored"}`
	got, err := NewMCPTool("git_hub.v2", json.RawMessage(listed))
	if err != nil {
		t.Fatal(err)
	}
	want := Tool{
		Name:         "mcp__git_hub.v2__get-file.contents",
		Description:  "Reads a file.",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`),
		Kind:         MCP,
		Server:       "git_hub.v2",
		ServerTool:   "get-file.contents",
		AlwaysLoad:   true,
		SearchHint:   "read repository file",
		Annotations:  Annotations{Title: "Get a file", ReadOnlyHint: ptr(true), OpenWorldHint: ptr(false)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tool (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(got.Name, MCPPrefix) || got.Name != pool.MCPName(got.Server, got.ServerTool) {
		t.Errorf("name %q does not follow %s<server>__<tool>", got.Name, MCPPrefix)
	}

	// A tool with only a name is still a tool: no schema means an object.
	bare, err := NewMCPTool("s", json.RawMessage(`{"name":"t"}`))
	if err != nil || bare.Declaration().InputSchema == nil || string(bare.Declaration().InputSchema) != `{"type":"object"}` {
		t.Errorf("bare tool: %+v, %v", bare, err)
	}
}

func TestNewMCPToolNames(t *testing.T) {
	long := strings.Repeat("a", 64)
	for _, tc := range []struct {
		server, tool string
		bad          string // "server", "tool" or "" for valid
	}{
		{"srv", "tool", ""},
		{long, long, ""},
		{"A-z_0.9", "x", ""},
		{"", "tool", "server"},
		{long + "a", "tool", "server"},
		{"my server", "tool", "server"},
		{"srv", "", "tool"},
		{"srv", long + "a", "tool"},
		{"srv", "naïve", "tool"},
		{"srv", "a/b", "tool"},
	} {
		entry, _ := json.Marshal(map[string]string{"name": tc.tool})
		_, err := NewMCPTool(tc.server, entry)
		if tc.bad == "" {
			if err != nil {
				t.Errorf("%q/%q: %v", tc.server, tc.tool, err)
			}
			continue
		}
		var ne *NameError
		if !errors.As(err, &ne) || !errors.Is(err, ErrInvalidName) || ne.What != tc.bad {
			t.Errorf("%q/%q: got %v, want a %s NameError", tc.server, tc.tool, err, tc.bad)
			continue
		}
		if !strings.Contains(err.Error(), "1 to 64 characters") {
			t.Errorf("%q/%q: error does not say what is expected: %v", tc.server, tc.tool, err)
		}
	}
}

func TestNewMCPToolInvalid(t *testing.T) {
	for _, tc := range []struct{ listed, says string }{
		{`[]`, "tools/list entry"},
		{`not json`, "tools/list entry"},
		{`{"description":"no name"}`, "no name"},
		{`{"name":"t","inputSchema":"object"}`, "inputSchema must be a JSON Schema object"},
		{`{"name":"t","inputSchema":null}`, "inputSchema must be a JSON Schema object"},
		{`{"name":"t","outputSchema":[1]}`, "outputSchema must be a JSON Schema object"},
		{`{"name":"t","annotations":{"readOnlyHint":"yes"}}`, "tools/list entry"},
	} {
		_, err := NewMCPTool("s", json.RawMessage(tc.listed))
		if !errors.Is(err, ErrInvalidTool) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: got %v, want ErrInvalidTool saying %q", tc.listed, err, tc.says)
		}
	}
}

func TestNewBuiltinTool(t *testing.T) {
	got := NewBuiltinTool("Read", "Reads.", json.RawMessage(`{"type":"object"}`))
	want := Tool{Name: "Read", Description: "Reads.", InputSchema: json.RawMessage(`{"type":"object"}`), Kind: Builtin}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
