package preflight

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"

	"github.com/execlua/execlua/internal/jsonschema"
	"github.com/execlua/execlua/internal/jsontext"
	"github.com/execlua/execlua/internal/toolname"
	"github.com/execlua/execlua/pool"
	"github.com/execlua/execlua/render"

	"github.com/execlua/execlua/internal/editdist"
)

// ErrRefused is what every preflight refusal matches with errors.Is.
var ErrRefused = errors.New("the script was not run: preflight found calls that cannot work")

// Problem is one call that cannot work as written.
type Problem struct {
	// Line is the call's line in the script, from 1.
	Line int `json:"line"`
	// Tool is the name called.
	Tool string `json:"tool"`
	// Message says what is wrong, starting with the call form.
	Message string `json:"message"`
}

func (p Problem) String() string { return fmt.Sprintf("line %d: %s", p.Line, p.Message) }

// Error is a script refused by preflight: every problem found, in order.
type Error struct {
	Problems []Problem
}

func (e *Error) Error() string {
	var b strings.Builder
	n := len(e.Problems)
	fmt.Fprintf(&b, "the script was not run and no tool was called: %d %s cannot work as written", n, plural(n, "call", "calls"))
	for _, p := range e.Problems {
		b.WriteString("\n" + p.String())
	}
	b.WriteString("\nFix " + plural(n, "it", "them") + " and run the script again.")
	return b.String()
}

func (e *Error) Unwrap() error { return ErrRefused }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Options configure a Checker. The zero value checks for a model: no
// ToolSearch, messages that may point to it.
type Options struct {
	// SearchSchema is ToolSearch's input schema when scripts can call
	// tools.ToolSearch; nil when they cannot, and a call of it is then
	// an unknown tool.
	SearchSchema json.RawMessage
	// Operator words messages for a person running a script: no pointer
	// to ToolSearch.
	Operator bool
	// MaxBytes bounds the scripts Check reads (default DefaultMaxBytes,
	// the sandbox's own limit); a longer one is left to the run, which
	// refuses it.
	MaxBytes int
}

// DefaultMaxBytes is Options.MaxBytes's default.
const DefaultMaxBytes = 256 << 10

// Checker checks scripts against one set of tools. It is safe for
// concurrent use.
type Checker struct {
	tools    map[string]func() *jsontext.Value // input schema, parsed at first use; nil: none
	names    []string
	operator bool
	maxBytes int
}

// New prepares a Checker for tools, the set a script can reach. Schemas
// are parsed at a tool's first literal call, so that preparing costs the
// same whatever the schemas; a schema that does not parse is checked by
// name only.
func New(tools []pool.Tool, opts *Options) *Checker {
	var o Options
	if opts != nil {
		o = *opts
	}
	c := &Checker{tools: make(map[string]func() *jsontext.Value, len(tools)+2), operator: o.Operator, maxBytes: o.MaxBytes}
	if c.maxBytes <= 0 {
		c.maxBytes = DefaultMaxBytes
	}
	add := func(name string, schema json.RawMessage) {
		c.tools[name] = sync.OnceValue(func() *jsontext.Value {
			if len(schema) == 0 {
				return nil
			}
			parsed, _ := jsontext.Parse(string(schema))
			return parsed
		})
		c.names = append(c.names, name)
	}
	for _, t := range tools {
		add(t.Name, t.InputSchema)
	}
	if o.SearchSchema != nil {
		add(toolname.ToolSearch, o.SearchSchema)
	}
	add(toolname.Parallel, nil)
	return c
}

// Check reads code once and returns an *Error naming every literal call
// that cannot work, or nil. A script that does not parse, is longer than
// MaxBytes, or does something with the tools table itself (a local named
// tools, tools passed around or assigned to) is left to the run. It stops
// reading when ctx is done.
func (c *Checker) Check(ctx context.Context, code string) error {
	if len(code) > c.maxBytes {
		return nil
	}
	chunk, err := parse.Parse(&ctxReader{ctx: ctx, r: strings.NewReader(code)}, "script")
	if err != nil || ctx.Err() != nil {
		return nil
	}
	w := &walker{c: c, protected: map[string]bool{}}
	w.collect(chunk)
	if w.aliased {
		return nil
	}
	w.stmts(chunk, false, 0)
	if len(w.problems) == 0 {
		return nil
	}
	return &Error{Problems: w.problems}
}

// CheckWithin is Check bounded by limit, the run's script-time budget:
// the parse runs before the run's budget clock starts, and a script built
// to keep gopher-lua's parser busy (deep nesting, long operator chains)
// must cost the host no more than the run it precedes may. Past limit
// the check gives up and leaves the script to the run, which compiles it
// on its own clock.
func (c *Checker) CheckWithin(ctx context.Context, code string, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	return c.Check(ctx, code)
}

// ctxReader ends the parser's input once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// checkCall checks one call of tools.<name> with its arguments.
func (c *Checker) checkCall(call *ast.FuncCallExpr, name string) *Problem {
	form := render.CallForm(name)
	parsed, known := c.tools[name]
	if !known {
		return &Problem{call.Line(), name, form + ": " + c.unknown(name)}
	}
	schema := parsed()
	if name == toolname.Parallel || len(call.Args) == 0 {
		if len(call.Args) == 0 && schema != nil {
			if ps := jsonschema.Check(schema, schema, &jsontext.Value{Kind: 'o'}, "args"); len(ps) > 0 {
				return &Problem{call.Line(), name, form + "(): " + joinProblems(ps)}
			}
		}
		return nil
	}
	args, ok := literal(call.Args[0], 0, true)
	switch {
	case !ok:
		return nil
	case args.Kind != 'o':
		return &Problem{call.Line(), name, fmt.Sprintf("%s: takes one table of named arguments, not a %s: call it as %s{ name = value, ... }", form, luaKind(args), form)}
	case schema == nil:
		return nil
	}
	if ps := jsonschema.Check(schema, schema, args, "args"); len(ps) > 0 {
		return &Problem{call.Line(), name, form + "{...}: " + joinProblems(ps)}
	}
	return nil
}

func joinProblems(ps []jsonschema.Problem) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.String()
	}
	return strings.Join(parts, "; ")
}

// unknown says that name is not a reachable tool, with the nearest names.
func (c *Checker) unknown(name string) string {
	msg := "no tool of that name"
	if !c.operator {
		msg += " is reachable from this script"
	}
	if meant := nearest(name, c.names); len(meant) > 0 {
		for i, m := range meant {
			meant[i] = render.CallForm(m)
		}
		return msg + "; did you mean " + strings.Join(meant, " or ") + "?"
	}
	if _, search := c.tools[toolname.ToolSearch]; search && !c.operator {
		msg += fmt.Sprintf("; find tools with tools.%s{ query = \"...\" }", toolname.ToolSearch)
	}
	return msg
}

// luaKind names a literal's Lua type, for a message.
func luaKind(v *jsontext.Value) string {
	switch v.Kind {
	case 's':
		return "string"
	case 'n':
		return "number"
	case 'b':
		return "boolean"
	case 'a':
		return "list"
	}
	return "nil"
}

// maxSuggestions bounds the names one problem suggests.
const maxSuggestions = 3

// nearest returns the names a script may have meant by name: the same
// tool's own name under an mcp__<server>__ prefix (as models write it from
// a server's documentation), else the names nearest by edit distance,
// ignoring case, when they are near (2 edits, 3 for a long name).
func nearest(name string, names []string) []string {
	lower := strings.ToLower(name)
	limit := 2
	if len(name) > 12 {
		limit = 3
	}
	var prefixed, near []string
	best := limit + 1
	for _, n := range names {
		ln := strings.ToLower(n)
		if rest, ok := strings.CutPrefix(ln, toolname.MCPPrefix); ok && strings.HasSuffix(rest, "__"+lower) {
			prefixed = append(prefixed, n)
			continue
		}
		switch d := distance(lower, ln, limit); {
		case d < best:
			best, near = d, []string{n}
		case d == best:
			near = append(near, n)
		}
	}
	if len(prefixed) > 0 {
		near = prefixed
	}
	slices.Sort(near)
	return near[:min(len(near), maxSuggestions)]
}

// distance is the Levenshtein distance of a and b, or limit+1 once it is
// sure to exceed limit (names far apart in length are not compared).
func distance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	return editdist.Levenshtein(a, b)
}
