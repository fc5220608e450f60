package execlua

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/execlua/execlua/pool"
	"github.com/execlua/execlua/search"
)

// Name is the name of the Exec tool in tools[].
const Name = pool.ExecName

// ConcurrencySafe is false: a script can reach any pool tool, with any side
// effect, so a host must not run Exec alongside other tool calls of the
// same turn as if it were a read-only tool.
const ConcurrencySafe = false

// InputSchema is Exec's input: the script, and a few words for the user
// that the collapsed line shows instead of the script (SUM-8).
const InputSchema = `{"type":"object","properties":{"code":{"type":"string","description":"The Lua 5.1 script to run."},"description":{"type":"string","description":"A few words saying what the script does, shown to the user in place of the script."}},"required":["code"],"additionalProperties":false}`

// descriptionHead and descriptionTail surround ToolSearch's signature. They
// name no pool tool, no budget and no limit (BC-1): tools[] sits in the
// prompt-cache prefix and must not change when the pool or the
// configuration does. Tool names appear only as <name> placeholders.
const descriptionHead = `Runs a Lua 5.1 script that calls this session's catalogued tools and returns one result. Use it to make several tool calls in one turn: each call's output can feed the next, and only what the script returns and prints comes back to you.

Which tools exist: a message in this conversation lists the catalogued tools by name (names only; a newer list replaces an older one). Their parameters and results are not listed. Look them up with tools.` + search.Name + ` inside a script: a query of words matches tool names and descriptions, "select:<name>,<name>" returns exactly the tools named, and each match carries the tool's signature (LuaCATS annotations, then the call form). ` + search.Name + `'s own signature:

`

const descriptionTail = `

Calling a tool:
- tools.<name>{ field = value, ... } calls a tool with one table of arguments, passed on field by field as written; tools.<name>() passes none. Names that are not Lua identifiers (with - or . in them) use brackets: tools["<name>"]{ ... }.
- A call returns the tool's output and nothing else: its structured output as a Lua table when it has one, else its text as a string (several text blocks joined by newlines), else nil. JSON null reads as nil, except inside an array, where it is tools.null so that every element keeps its place; tools.null goes back out as null. Images it returns are attached to this tool's result.
- A call that fails or is refused raises an error where it is made. Catch it with pcall to carry on: local ok, res = pcall(tools.<name>, { ... })
- tools.parallel(f1, f2, ...) runs the functions together, so that their tool calls are in flight at the same time, and returns each function's first result in argument order. If one raises, parallel raises the first error once all have finished.
- Every call goes through the same permission checks and hooks as calling that tool directly: it may ask the user, and it may be refused.

Output:
- print(...) writes one line: its arguments separated by tabs, tables as JSON. Printed lines come back with the result, also when the script fails.
- return gives the result: a string comes back as it is, any other value as JSON, several values as a JSON array.

The sandbox: every run starts fresh and nothing persists between runs. There are no files, no network, no modules (require), no os, io or debug, and no load or loadstring: code cannot be compiled at run time. Available are the basic functions (pairs, ipairs, pcall, error, type, tostring, tonumber, select, unpack, setmetatable, ...) and the string, table, math and coroutine libraries. A script that runs too long is stopped, and calls beyond a per-script number are refused; tool calls that completed still apply.

Example:
  -- one script learns a tool's parameters
  local found = tools.` + search.Name + `{ query = "select:<name>" }
  return found.matches[1].signature

  -- a later script calls it
  local item = tools.<name>{ key = "value" }
  local ok, err = pcall(tools["<other-name>"], { value = item })
  print("stored:", ok, err)
  return item`

var description = sync.OnceValue(func() string {
	return descriptionHead + search.Signature() + descriptionTail
})

// Description returns Exec's description: constant for a given release,
// whatever the pool, the settings or the limits (BC-1, ANN-6). ToolSearch's
// signature in it is rendered from search.InputSchema and
// search.OutputSchema, the schemas the sandbox accepts and answers with
// (SRCH-12, SRCH-15).
func Description() string { return description() }

// Declaration returns Exec's entry of tools[]. Every call returns the same
// bytes.
func Declaration() ToolDeclaration {
	return pool.Declaration{Name: Name, Description: Description(), InputSchema: json.RawMessage(InputSchema)}
}

// ErrInvalidInput is what every input error of Exec matches with errors.Is.
// Such a call starts no sandbox.
var ErrInvalidInput = errors.New("invalid Exec input")

// Input is Exec's input as the model sends it.
type Input struct {
	Code        string `json:"code"`
	Description string `json:"description,omitempty"`
}

// ParseInput decodes and checks Exec's input. A host that validates a
// tool's input before its permission check and hooks calls this first; Run
// calls it again. Fields other than code and description are ignored.
func ParseInput(raw json.RawMessage) (Input, error) {
	var in struct {
		Code        *string `json:"code"`
		Description *string `json:"description"`
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return Input{}, fmt.Errorf("%w: %s must be a string", ErrInvalidInput, typeErr.Field)
		}
		return Input{}, fmt.Errorf("%w: the input must be a JSON object like {\"code\": \"return 1\"}", ErrInvalidInput)
	}
	switch {
	case in.Code == nil:
		return Input{}, fmt.Errorf("%w: code is missing; pass the Lua script to run as code", ErrInvalidInput)
	case strings.TrimSpace(*in.Code) == "":
		return Input{}, fmt.Errorf("%w: code is blank; pass the Lua script to run as code", ErrInvalidInput)
	}
	out := Input{Code: *in.Code}
	if in.Description != nil {
		out.Description = *in.Description
	}
	return out, nil
}

// CollapsedLine is how a host shows an Exec call folded: the tool's name
// and the model's description of the script, never the script itself
// (SUM-8). It accepts any input, complete or not, valid or not.
func CollapsedLine(raw json.RawMessage) string {
	var in struct {
		Description string `json:"description"`
	}
	_ = json.Unmarshal(raw, &in) // a partial or broken input still has a line
	if d := strings.Join(strings.Fields(in.Description), " "); d != "" {
		return Name + "(" + d + ")"
	}
	return Name
}
