package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/execlua/execlua/internal/toolname"
)

// File is what one settings file says. Keys this package does not know are
// ignored; they are kept when [Store.AllowAlways] rewrites the file.
type File struct {
	Permissions Permissions `json:"permissions"`
	// Hooks maps an event name (PreToolUse, PostToolUse, ...) to its
	// matchers.
	Hooks map[string][]HookMatcher `json:"hooks,omitempty"`
	// EnableExec switches Exec; nil leaves it to lower layers.
	EnableExec *bool `json:"enableExec,omitempty"`
	// NonDeferredTools names builtins to declare flat (POOL-12).
	NonDeferredTools []string `json:"nonDeferredTools,omitempty"`
	// MCPServers are servers defined in this settings file.
	MCPServers map[string]ServerConfig `json:"mcpServers,omitempty"`
	// EnabledMcpjsonServers and DisabledMcpjsonServers filter the servers
	// of .mcp.json.
	EnabledMcpjsonServers  []string `json:"enabledMcpjsonServers,omitempty"`
	DisabledMcpjsonServers []string `json:"disabledMcpjsonServers,omitempty"`
}

// Permissions are a layer's permission rules. A rule is a tool name
// ("mcp__srv__get"), a server ("mcp__srv" or "mcp__srv__*"), or a tool
// name with an argument pattern ("Bash(git log:*)").
type Permissions struct {
	Allow []string `json:"allow,omitempty"`
	Deny  []string `json:"deny,omitempty"`
	Ask   []string `json:"ask,omitempty"`
	// DefaultMode is one of [Modes]; "" leaves it to lower layers.
	DefaultMode string `json:"defaultMode,omitempty"`
}

// HookMatcher is one entry of a hook event's list: the hooks to run for
// tools whose name the matcher matches.
type HookMatcher struct {
	// Matcher is a regular expression over the whole tool name; "" and "*"
	// match every tool.
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []HookCommand `json:"hooks"`
}

// HookCommand is one hook: a command run through sh -c, or an HTTP
// endpoint the hook input is POSTed to.
type HookCommand struct {
	// Type is "command" or "http"; hooks of other types are not run.
	Type    string `json:"type"`
	Command string `json:"command,omitempty"`
	// URL, Headers and AllowedEnvVars are an HTTP hook's: $VAR and ${VAR}
	// in a header value are replaced by the variable when AllowedEnvVars
	// names it, by "" otherwise.
	URL            string            `json:"url,omitempty"`
	Headers        map[string]string `json:"headers,omitempty"`
	AllowedEnvVars []string          `json:"allowedEnvVars,omitempty"`
	// Timeout is in seconds; 0 means the default (600 s).
	Timeout float64 `json:"timeout,omitempty"`
	// OnFailure "block" makes a PreToolUse or PermissionRequest hook that
	// cannot start, times out or fails otherwise refuse the call instead
	// of letting it through (fail closed); "" lets it through.
	OnFailure string `json:"onFailure,omitempty"`
}

// Label names a hook in messages: its command, or its URL.
func (h HookCommand) Label() string {
	if h.Type == "http" {
		return h.URL
	}
	return h.Command
}

// ServerConfig is one entry of an mcpServers map, as .mcp.json and
// settings files write it. ${VAR} and ${VAR:-default} in Command, Args,
// Env values, Cwd, URL and Headers are expanded when the server is started
// (see [ServerConfig.Expand]).
type ServerConfig struct {
	// Type is "stdio", "http" or "sse". Left out, it is "stdio", or
	// "http" for an entry with a URL and no command (the way many clients'
	// configuration files write a remote server).
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// AlwaysLoad keeps every tool of the server out of the pool (POOL-5).
	AlwaysLoad bool `json:"alwaysLoad,omitempty"`
	// Timeout bounds each tool call, in milliseconds, as Claude Code and
	// Gemini CLI read the key; StartupTimeout bounds the server's start,
	// handshake and first tools/list, in milliseconds. Zero: the host's.
	Timeout        int `json:"timeout,omitempty"`
	StartupTimeout int `json:"startupTimeout,omitempty"`
	// Disabled keeps the server configured but never started.
	Disabled bool `json:"disabled,omitempty"`
}

// Transport is the resolved transport: "stdio", "http" or "sse".
func (c ServerConfig) Transport() string {
	switch {
	case c.Type != "":
		return c.Type
	case c.Command == "" && c.URL != "":
		return "http"
	}
	return "stdio"
}

// Check reports a server entry that cannot be started as written.
func (c ServerConfig) Check() error {
	if c.Timeout < 0 || c.StartupTimeout < 0 {
		return errors.New(`"timeout" and "startupTimeout" are milliseconds and cannot be negative`)
	}
	switch c.Transport() {
	case "stdio":
		if c.Command == "" {
			return errors.New(`a stdio server needs a "command"`)
		}
	case "http", "sse", "streamable-http":
		if c.URL == "" {
			return fmt.Errorf(`an %s server needs a "url"`, c.Transport())
		}
	default:
		return fmt.Errorf(`unknown server type %q: expected "stdio", "http" or "sse"`, c.Type)
	}
	return nil
}

// ErrSyntax is what every [FileError] for unreadable JSON matches.
var ErrSyntax = errors.New("invalid settings JSON")

// FileError is a settings or .mcp.json file that could not be read or
// parsed; Line and Column (1-based, in bytes) locate a parse error: the
// offending character of a syntax error, the end of a value of the wrong
// type; 0 when unknown.
type FileError struct {
	Path         string
	Line, Column int
	Err          error
}

func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %v", e.Path, e.Line, e.Column, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}
func (e *FileError) Unwrap() error { return e.Err }

// Parse decodes one settings file, or an .mcp.json (whose mcpServers it
// reads alike). An empty or all-blank file is an empty layer.
func Parse(path string, data []byte) (File, error) {
	var f File
	if err := decode(path, data, &f); err != nil {
		return File{}, err
	}
	for name, c := range f.MCPServers {
		// Checked here, so that a server is not started only to have
		// every tool refused (execlua.NewMCPTool checks the same).
		if !toolname.ValidPart(name) {
			return File{}, &FileError{Path: path, Err: fmt.Errorf("mcpServers: %q is no server name: a name is 1 to 64 of A-Z, a-z, 0-9, _, . and -, as it becomes part of its tools' names (mcp__<server>__<tool>)", name)}
		}
		if err := c.Check(); err != nil {
			return File{}, &FileError{Path: path, Err: fmt.Errorf("mcpServers.%s: %w", name, err)}
		}
	}
	for event, matchers := range f.Hooks {
		for _, m := range matchers {
			for _, h := range m.Hooks {
				if err := h.check(); err != nil {
					return File{}, &FileError{Path: path, Err: fmt.Errorf("hooks.%s: %w", event, err)}
				}
			}
		}
	}
	// A mistyped mode would silently fall back to asking for everything.
	if m := f.Permissions.DefaultMode; m != "" && !slices.Contains(Modes, m) {
		return File{}, &FileError{Path: path, Err: fmt.Errorf("permissions.defaultMode: %q is no mode: expected one of %s", m, strings.Join(Modes, ", "))}
	}
	return f, nil
}

// check reports a hook entry that cannot run as written.
func (h HookCommand) check() error {
	switch {
	case h.Type == "http" && h.URL == "":
		return errors.New(`an "http" hook needs a "url"`)
	case h.Type == "command" && h.Command == "":
		return errors.New(`a "command" hook needs a "command"`)
	case h.OnFailure != "" && h.OnFailure != "block" && h.OnFailure != "allow":
		return fmt.Errorf(`onFailure %q: expected "block" or "allow"`, h.OnFailure)
	case h.Timeout < 0:
		return fmt.Errorf("timeout %v: expected a positive number of seconds", h.Timeout)
	}
	return nil
}

// Modes are the values permissions.defaultMode takes.
var Modes = []string{"default", "acceptEdits", "bypassPermissions", "dontAsk", "plan"}

// readFile reads and parses path, returning its bytes too; a missing file
// is an empty layer.
func readFile(path string) (File, []byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return File{}, nil, nil
	}
	if err != nil {
		return File{}, nil, &FileError{Path: path, Err: err}
	}
	f, err := Parse(path, data)
	return f, data, err
}

// decode unmarshals data into v, turning offsets into line and column.
func decode(path string, data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		line, col := position(data, syntax.Offset-1) // the offset is past the offending byte
		return &FileError{Path: path, Line: line, Column: col, Err: fmt.Errorf("%w: %s", ErrSyntax, syntax.Error())}
	case errors.As(err, &typ):
		line, col := position(data, typ.Offset)
		what := valuePath(data, typ.Offset)
		if what == "" {
			what = "the file"
		}
		return &FileError{Path: path, Line: line, Column: col, Err: fmt.Errorf("%w: %s must be %s, not a JSON %s", ErrSyntax, what, expected(typ.Type.String()), typ.Value)}
	}
	return &FileError{Path: path, Err: fmt.Errorf("%w: %v", ErrSyntax, err)}
}

// valuePath is the path (mcpServers.x.args[0]) of the value whose token
// ends at offset, where encoding/json reports a value of the wrong type:
// its own path leaves out map keys and array indexes ("mcpServers.args"),
// which would not say which server's entry is wrong. "" for the whole
// document.
func valuePath(data []byte, offset int64) string {
	var stack []pathLevel
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		top := len(stack) - 1
		switch {
		case tok == json.Delim('}') || tok == json.Delim(']'):
			stack = stack[:top]
			if top > 0 {
				stack[top-1].valueRead()
			}
			continue
		case top >= 0 && stack[top].onKey:
			stack[top].key, stack[top].onKey = tok.(string), false
			continue
		case dec.InputOffset() >= offset:
			return pathString(stack)
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, pathLevel{object: true, onKey: true})
		case json.Delim('['):
			stack = append(stack, pathLevel{})
		default:
			if top >= 0 {
				stack[top].valueRead()
			}
		}
	}
}

// pathLevel is one open object or array on the way to a value.
type pathLevel struct {
	object bool
	key    string // in an object: the member being read
	index  int    // in an array: the element being read
	onKey  bool   // in an object: the next token is a key
}

func (l *pathLevel) valueRead() {
	if l.object {
		l.onKey = true
	} else {
		l.index++
	}
}

func pathString(stack []pathLevel) string {
	var b strings.Builder
	for _, l := range stack {
		if !l.object {
			fmt.Fprintf(&b, "[%d]", l.index)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(l.key)
	}
	return b.String()
}

// expected names a Go type the way a settings file's author reads it.
func expected(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case strings.HasPrefix(goType, "map["), strings.Contains(goType, "."):
		return "an object"
	case goType == "string":
		return "a string"
	case goType == "bool", goType == "*bool":
		return "true or false"
	}
	return "a number"
}

// position turns a byte offset into a 1-based line and column (counted in
// bytes).
func position(data []byte, offset int64) (line, col int) {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = len(before) - bytes.LastIndexByte(before, '\n')
	return line, col
}
