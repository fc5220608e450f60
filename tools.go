package execlua

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/execlua/execlua/internal/toolname"
	"github.com/execlua/execlua/pool"
)

// ErrInvalidName is what a *NameError matches with errors.Is.
var ErrInvalidName = errors.New("a name must be 1 to 64 characters of A-Z, a-z, 0-9, _, . and -")

// ErrInvalidTool is what NewMCPTool's errors about the listed tool itself
// match with errors.Is.
var ErrInvalidTool = errors.New("invalid MCP tool")

// NameError is an MCP server or tool name that breaks the naming rule.
type NameError struct {
	// What is "server" or "tool".
	What string
	Name string
}

func (e *NameError) Error() string {
	return fmt.Sprintf("execlua: MCP %s name %q: %v", e.What, e.Name, ErrInvalidName)
}

func (e *NameError) Unwrap() error { return ErrInvalidName }

// checkName applies MCP's naming rule, which keeps mcp__<server>__<tool>
// a name the model can write and a host can split.
func checkName(what, name string) error {
	if !toolname.ValidPart(name) {
		return &NameError{What: what, Name: name}
	}
	return nil
}

// listedTool is one entry of an MCP tools/list result.
type listedTool struct {
	Name         *string         `json:"name"`
	Title        string          `json:"title"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Annotations  struct {
		Title           string `json:"title"`
		ReadOnlyHint    *bool  `json:"readOnlyHint"`
		DestructiveHint *bool  `json:"destructiveHint"`
		IdempotentHint  *bool  `json:"idempotentHint"`
		OpenWorldHint   *bool  `json:"openWorldHint"`
	} `json:"annotations"`
	Meta struct {
		AlwaysLoad bool   `json:"anthropic/alwaysLoad"`
		SearchHint string `json:"anthropic/searchHint"`
	} `json:"_meta"`
}

// NewMCPTool maps one entry of an MCP tools/list result, the JSON object as
// the server sent it, to the tool named mcp__<server>__<name>: Kind MCP,
// Server and ServerTool set, the input and output schemas byte for byte,
// the annotations (with the tool's title when the annotations carry none),
// AlwaysLoad from _meta["anthropic/alwaysLoad"] and SearchHint from
// _meta["anthropic/searchHint"]. Fields it does not know are ignored.
//
// A server or tool name that is not 1 to 64 characters of A-Z, a-z, 0-9,
// _, . and - is a *NameError (ErrInvalidName); an entry that is not such an
// object, has no name, or whose schemas are not objects matches
// ErrInvalidTool.
func NewMCPTool(server string, listed json.RawMessage) (Tool, error) {
	if err := checkName("server", server); err != nil {
		return Tool{}, err
	}
	var lt listedTool
	if err := json.Unmarshal(listed, &lt); err != nil {
		return Tool{}, fmt.Errorf("%w from server %q: want a tools/list entry like {\"name\":\"...\",\"inputSchema\":{...}}: %v", ErrInvalidTool, server, err)
	}
	if lt.Name == nil {
		return Tool{}, fmt.Errorf("%w from server %q: the entry has no name", ErrInvalidTool, server)
	}
	if err := checkName("tool", *lt.Name); err != nil {
		return Tool{}, err
	}
	for _, s := range []struct {
		field string
		raw   json.RawMessage
	}{{"inputSchema", lt.InputSchema}, {"outputSchema", lt.OutputSchema}} {
		if len(s.raw) > 0 && !isObject(s.raw) {
			return Tool{}, fmt.Errorf("%w %s: %s must be a JSON Schema object", ErrInvalidTool, pool.MCPName(server, *lt.Name), s.field)
		}
	}
	a := lt.Annotations
	if a.Title == "" {
		a.Title = lt.Title
	}
	return Tool{
		Name:         pool.MCPName(server, *lt.Name),
		Description:  lt.Description,
		InputSchema:  lt.InputSchema,
		OutputSchema: lt.OutputSchema,
		Kind:         MCP,
		Server:       server,
		ServerTool:   *lt.Name,
		AlwaysLoad:   lt.Meta.AlwaysLoad,
		SearchHint:   lt.Meta.SearchHint,
		Annotations:  Annotations(a),
	}, nil
}

// NewBuiltinTool describes a tool the host implements itself. It asks to
// stay flat; set ShouldDefer on the result for a builtin that should go to
// the pool, and OutputSchema for a builtin whose result has a shape, so
// that its signature says what a call returns. Func derives both schemas
// from Go types.
func NewBuiltinTool(name, description string, inputSchema json.RawMessage) Tool {
	return Tool{Name: name, Description: description, InputSchema: inputSchema, Kind: Builtin}
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}
