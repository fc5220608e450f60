package execlua

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	schemacheck "github.com/execlua/execlua/internal/jsonschema"
	"github.com/execlua/execlua/internal/jsontext"
)

// ErrInvalidArguments is what every refusal of a Go tool's arguments
// matches with errors.Is: the function was not called.
var ErrInvalidArguments = errors.New("invalid arguments")

// ErrNotGoTool is a call GoTools cannot perform: no Go tool has its name.
var ErrNotGoTool = errors.New("no Go tool of that name")

// ArgumentsError is a call of a Go tool whose arguments break its input
// schema or do not decode into its Go type. Each problem names the place
// in Lua syntax, 1-based as a script indexes: "args.items[2].id: want
// integer, got string".
type ArgumentsError struct {
	Tool     string
	Problems []string
}

func (e *ArgumentsError) Error() string {
	return fmt.Sprintf("%s was not called, its arguments are not valid: %s", e.Tool, strings.Join(e.Problems, "; "))
}

func (e *ArgumentsError) Unwrap() error { return ErrInvalidArguments }

// GoTool is a Go function described as a tool: its Tool (Kind Builtin,
// input and output schemas derived from the Go types) and the code that
// checks, decodes and calls. Make one with Func; set fields of Tool (such
// as ShouldDefer) before handing it to NewGoTools.
type GoTool struct {
	Tool Tool
	// input is the parsed input schema, for checking arguments.
	input *jsontext.Value
	call  func(ctx context.Context, args json.RawMessage) (Output, error)
	err   error
}

// Func describes fn as a tool called name. The input schema is derived from In
// and the output schema from Out by github.com/google/jsonschema-go, with
// its rules: a struct field's name is its json tag's, its description the
// jsonschema tag, and it is required unless tagged omitempty or omitzero;
// a struct takes no other members. A field tagged enum:"a,b,c" takes only
// those values (numbers for a numeric field).
//
// A call's arguments are checked against the input schema (types,
// required fields, enums, members the schema does not have) and decoded
// into In before fn runs; a refusal is an *ArgumentsError naming every
// bad place. fn's result is the call's structured output as JSON, or its
// text when Out is a string. In must derive an object schema (a struct or
// a map with string keys); a type the schemas cannot describe (a channel,
// a function) makes NewGoTools fail.
func Func[In, Out any](name, description string, fn func(ctx context.Context, in In) (Out, error)) GoTool {
	in, inSchema, err := deriveSchema[In]()
	if err == nil && !schemacheck.TypeIncludes(in, "object") {
		err = fmt.Errorf("its input type %s must be a struct or a map with string keys, as arguments are one table of named fields", reflect.TypeFor[In]())
	}
	_, outSchema, outErr := deriveSchema[Out]()
	if err = errors.Join(err, outErr); err != nil {
		return GoTool{Tool: Tool{Name: name}, err: fmt.Errorf("execlua: Go tool %s: %w", name, err)}
	}
	_, text := any((*Out)(nil)).(*string)
	t := NewBuiltinTool(name, description, inSchema)
	if !text {
		t.OutputSchema = outSchema
	}
	return GoTool{
		Tool:  t,
		input: in,
		call: func(ctx context.Context, args json.RawMessage) (Output, error) {
			var v In
			if err := json.Unmarshal(args, &v); err != nil {
				return Output{}, &ArgumentsError{Tool: name, Problems: []string{decodeProblem(err)}}
			}
			res, err := fn(ctx, v)
			if err != nil {
				return Output{}, err
			}
			if s, ok := any(res).(string); ok {
				return Output{Text: []string{s}}, nil
			}
			raw, err := json.Marshal(res)
			if err != nil {
				return Output{}, fmt.Errorf("%s returned a value that is not JSON: %w", name, err)
			}
			return Output{Structured: raw}, nil
		},
	}
}

// deriveSchema derives T's schema, enums added, as JSON and parsed.
func deriveSchema[T any]() (*jsontext.Value, json.RawMessage, error) {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		return nil, nil, err
	}
	if err := addEnums(reflect.TypeFor[T](), s, 0); err != nil {
		return nil, nil, err
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, nil, err
	}
	parsed, err := jsontext.Parse(string(raw))
	return parsed, raw, err
}

// decodeProblem says where encoding/json could not decode the arguments
// (a value the schema allows but the Go type does not hold, such as a
// time that does not parse).
func decodeProblem(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return fmt.Sprintf("args.%s: want %s, got %s", typeErr.Field, typeErr.Type, typeErr.Value)
	}
	return "args: " + err.Error()
}

// check returns the problems of args against the input schema.
func (t *GoTool) check(args json.RawMessage) []string {
	v, err := jsontext.Parse(string(args))
	if err != nil {
		return []string{"args: not JSON: " + err.Error()}
	}
	var out []string
	for _, p := range schemacheck.Check(t.input, t.input, v, "args") {
		out = append(out, p.String())
	}
	return out
}

// addEnums sets the enum keyword of every property whose struct field has
// an enum tag, walking t and its schema s together.
func addEnums(t reflect.Type, s *jsonschema.Schema, depth int) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s == nil || depth > 32 {
		return nil
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return addEnums(t.Elem(), s.Items, depth+1)
	case reflect.Map:
		return addEnums(t.Elem(), s.AdditionalProperties, depth+1)
	case reflect.Struct:
	default:
		return nil
	}
	for _, f := range reflect.VisibleFields(t) {
		name, ok := jsonName(f)
		prop := s.Properties[name]
		if !ok || prop == nil {
			continue
		}
		if tag, ok := f.Tag.Lookup("enum"); ok {
			if err := setEnum(f, tag, prop); err != nil {
				return err
			}
		}
		if err := addEnums(f.Type, prop, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// jsonName is the member name encoding/json gives field f, false when it
// has none (unexported, embedded, or tagged "-").
func jsonName(f reflect.StructField) (string, bool) {
	if !f.IsExported() || f.Anonymous {
		return "", false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	if name, _, _ := strings.Cut(tag, ","); name != "" {
		return name, true
	}
	return f.Name, true
}

// setEnum sets the values of tag on the schema of field f, on its elements
// for a slice.
func setEnum(f reflect.StructField, tag string, prop *jsonschema.Schema) error {
	t := f.Type
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		if t.Kind() != reflect.Pointer {
			prop = prop.Items
		}
		t = t.Elem()
	}
	var values []any
	for _, text := range strings.Split(tag, ",") {
		switch t.Kind() {
		case reflect.String:
			values = append(values, text)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
			n, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
			if err != nil {
				return fmt.Errorf("field %s: enum value %q is not a number", f.Name, text)
			}
			values = append(values, n)
		default:
			return fmt.Errorf("field %s: an enum tag needs a string or number field, not %s", f.Name, t)
		}
	}
	prop.Enum = values
	return nil
}

// GoTools is a set of Go tools and the funnel that performs their calls:
// it checks a call's arguments, decodes them and calls the function. It is
// the innermost step of a host's chain; permission checks and hooks wrap
// it (Chain, Hooks), and Or hands other names to the host's own funnel.
type GoTools struct {
	tools  []Tool
	byName map[string]*GoTool
}

// NewGoTools collects tools; it fails if one could not be described (its
// Func error) or two share a name.
func NewGoTools(tools ...GoTool) (*GoTools, error) {
	g := &GoTools{byName: make(map[string]*GoTool, len(tools))}
	var errs []error
	for i := range tools {
		t := &tools[i]
		switch {
		case t.err != nil:
			errs = append(errs, t.err)
		case t.Tool.Name == "":
			errs = append(errs, fmt.Errorf("execlua: Go tool %d: %w", i+1, ErrEmptyName))
		case g.byName[t.Tool.Name] != nil:
			errs = append(errs, fmt.Errorf("execlua: Go tool %s: %w", t.Tool.Name, ErrDuplicateName))
		default:
			g.byName[t.Tool.Name] = t
			g.tools = append(g.tools, t.Tool)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return g, nil
}

// Tools returns the tools' descriptions, in the order given, for
// Options.Tools or Session.SetTools (with the host's other tools).
func (g *GoTools) Tools() []Tool { return append([]Tool(nil), g.tools...) }

// Has reports whether name is one of the Go tools.
func (g *GoTools) Has(name string) bool { return g.byName[name] != nil }

// Call performs a call of one of the Go tools: arguments checked against
// its input schema and decoded (an *ArgumentsError if they fail), then
// the function. A name that is none of them matches ErrNotGoTool.
func (g *GoTools) Call(ctx context.Context, call Call) (Output, error) {
	t := g.byName[call.Name]
	if t == nil {
		return Output{}, fmt.Errorf("%w: %s", ErrNotGoTool, call.Name)
	}
	args := call.Args
	if trimmed := strings.TrimSpace(string(args)); trimmed == "" || trimmed == "null" {
		args = json.RawMessage("{}") // no arguments, as an MCP client may send them
	}
	if problems := t.check(args); len(problems) > 0 {
		return Output{}, &ArgumentsError{Tool: call.Name, Problems: problems}
	}
	return t.call(ctx, args)
}

// Or returns a funnel that performs the Go tools' calls and hands every
// other call to next: a host's MCP tools, say.
func (g *GoTools) Or(next Funnel) Funnel {
	return FunnelFunc(func(ctx context.Context, call Call) (Output, error) {
		if g.Has(call.Name) {
			return g.Call(ctx, call)
		}
		return next.Call(ctx, call)
	})
}
