package search

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/execlua/execlua/internal/jsonschema"
	"github.com/execlua/execlua/internal/toolname"
	"github.com/execlua/execlua/render"

	"github.com/execlua/execlua/internal/jsontext"
)

// Name is the key ToolSearch has on the sandbox's tools table. No pool tool
// may be called this.
const Name = toolname.ToolSearch

// Result caps for keyword queries; select: is not capped by them, only
// by MaxSelectNames.
const (
	DefaultResults = 5
	MaxResults     = 50
)

// Input limits. ToolSearch runs in the host, for any script and even when
// scripts run in worker processes, so what one query may make it do is
// bounded before any of it is read: a query past a limit is refused with a
// LimitError naming it. A query written to find a tool is a few words
// (the evaluation sets' longest is 164 bytes and 27 words).
const (
	// MaxQueryBytes bounds the query's length in bytes.
	MaxQueryBytes = 8 << 10
	// MaxQueryWords bounds a keyword query's words (runs of letters and
	// digits).
	MaxQueryWords = 256
	// MaxSelectNames bounds the names one select: lists, and so the
	// matches it returns.
	MaxSelectNames = 100
)

// ErrQueryLimit is what a query past an input limit matches with
// errors.Is, besides ErrInvalidArgs.
var ErrQueryLimit = errors.New(Name + " query over a limit")

// LimitError refuses a query past an input limit: what was measured (one
// of the Limit... phrases), how much of it there was and the limit.
type LimitError struct {
	What  string
	Size  int
	Limit int
}

// What a LimitError measured.
const (
	LimitArgsBytes   = "the arguments' length in bytes (as JSON)"
	LimitQueryBytes  = "the query's length in bytes"
	LimitQueryWords  = "the number of words in the query"
	LimitSelectNames = "the number of names after select:"
)

// maxArgsBytes bounds the arguments' JSON before it is read: a query at
// MaxQueryBytes with every byte escaped (\u00XX), and room for the rest.
const maxArgsBytes = 6*MaxQueryBytes + 256

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s: %s is %d; the limit is %d: search with a few words, or select: up to %d names at a time", Name, e.What, e.Size, e.Limit, MaxSelectNames)
}

func (e *LimitError) Unwrap() []error { return []error{ErrInvalidArgs, ErrQueryLimit} }

// checkLimits refuses a query past an input limit; the query's length is
// checked first, so that counting reads at most MaxQueryBytes. (The
// arguments' JSON was bounded before it was read.)
func checkLimits(text string) error {
	if len(text) > MaxQueryBytes {
		return &LimitError{What: LimitQueryBytes, Size: len(text), Limit: MaxQueryBytes}
	}
	if list, ok := selectList(text); ok {
		if n := strings.Count(list, ",") + 1; n > MaxSelectNames {
			return &LimitError{What: LimitSelectNames, Size: n, Limit: MaxSelectNames}
		}
		return nil
	}
	if n := countWords(text); n > MaxQueryWords {
		return &LimitError{What: LimitQueryWords, Size: n, Limit: MaxQueryWords}
	}
	return nil
}

// selectList is the list of names of a select: query.
func selectList(text string) (string, bool) {
	text = strings.TrimSpace(text)
	if len(text) >= len("select:") && strings.EqualFold(text[:len("select:")], "select:") {
		return text[len("select:"):], true
	}
	return "", false
}

// countWords counts the runs of letters and digits in text.
func countWords(text string) int {
	n, in := 0, false
	for _, r := range text {
		letter := unicode.IsLetter(r) || unicode.IsDigit(r)
		if letter && !in {
			n++
		}
		in = letter
	}
	return n
}

// InputSchema is ToolSearch's input schema: the one source of its
// signature (Signature), of the shape ParseArgs accepts and of the shape
// shown when it refuses one (SRCH-12, SRCH-13).
const InputSchema = `{
  "type": "object",
  "properties": {
    "query": {
      "type": "string",
      "description": "Words to look for in tool names, search hints and descriptions (case-insensitive), or \"select:NameA,NameB\" for exactly the tools named. A tool's exact name puts it first. An empty string lists the pool, capped like keywords (total counts every tool)."
    },
    "max_results": {
      "type": "number",
      "description": "How many matches a keyword query returns; select: returns every tool it names.",
      "default": 5,
      "minimum": 1,
      "maximum": 50
    }
  },
  "required": ["query"],
  "additionalProperties": false
}`

// OutputSchema is the shape of what ToolSearch returns to the script, the
// JSON form of Result; the signature's @return is rendered from it.
const OutputSchema = `{
  "type": "object",
  "properties": {
    "matches": {
      "type": "array",
      "description": "The best matches first.",
      "items": {
        "type": "object",
        "properties": {
          "name": {"type": "string", "description": "The tool's name, as the script calls it."},
          "description": {"type": "string"},
          "signature": {"type": "string", "description": "LuaCATS annotations for the tool's arguments and result, then its call form."}
        },
        "required": ["name", "description", "signature"]
      }
    },
    "total": {"type": "integer", "description": "How many tools matched before the list was cut to max_results."}
  },
  "required": ["matches", "total"]
}`

// Signature returns ToolSearch's own signature, rendered from InputSchema
// and OutputSchema like any pool tool's, for Exec's description (SRCH-15).
func Signature() string {
	sig, err := render.Signature(Name, json.RawMessage(InputSchema), json.RawMessage(OutputSchema))
	if err != nil {
		panic("search: " + Name + "'s own schema does not render: " + err.Error())
	}
	return sig
}

// ErrInvalidArgs is what every argument error matches with errors.Is.
var ErrInvalidArgs = errors.New("invalid " + Name + " arguments")

// ArgsError says what was wrong with a script's ToolSearch arguments and
// shows the shape InputSchema accepts.
type ArgsError struct {
	Problems []string // e.g. `unknown field "q"`, `missing field "query"`
	Expected string   // InputSchema as a one-line type
}

func (e *ArgsError) Error() string {
	return Name + ": " + strings.Join(e.Problems, "; ") + "; " + render.CallForm(Name) + "(args) expects args: " + e.Expected
}

func (e *ArgsError) Unwrap() error { return ErrInvalidArgs }

// query is a validated ToolSearch call.
type query struct {
	text  string
	limit int
}

// argSpec is InputSchema read once per Index: what the validator checks.
type argSpec struct {
	props    map[string][]string // field -> allowed JSON types (nil: any)
	required []string
	expected string // the accepted shape, rendered
}

func newArgSpec() argSpec { return specOf(InputSchema) }

// specOf reads an input schema the way signatures and the empty-table rule
// read it (package jsonschema): $refs followed, alternatives gathered.
func specOf(schema string) argSpec {
	root, err := jsontext.Parse(schema)
	if err != nil {
		panic("search: the input schema is not JSON: " + err.Error())
	}
	expected, err := render.Type(json.RawMessage(schema))
	if err != nil {
		panic("search: the input schema does not render: " + err.Error())
	}
	spec := argSpec{props: map[string][]string{}, expected: expected}
	for _, b := range jsonschema.Branches(root, root) {
		for _, p := range b.Get("properties").Entries() {
			spec.props[p.Key] = jsonschema.AllowedTypes(root, p.Value)
		}
		for _, r := range b.Get("required").Entries() {
			if r.Value.Kind == 's' && !slices.Contains(spec.required, r.Value.Str) {
				spec.required = append(spec.required, r.Value.Str)
			}
		}
	}
	return spec
}

// parse validates args against InputSchema: unknown fields, missing
// required ones and wrong types are refused, never read as an empty query.
// A JSON null counts as absent, as nil does in Lua.
func (spec argSpec) parse(args json.RawMessage) (query, error) {
	if len(args) > maxArgsBytes {
		return query{}, &LimitError{What: LimitArgsBytes, Size: len(args), Limit: maxArgsBytes}
	}
	fields := map[string]json.RawMessage{}
	if s := strings.TrimSpace(string(args)); s != "" && s != "null" {
		if err := json.Unmarshal(args, &fields); err != nil {
			return query{}, spec.fail("arguments must be a table with named fields")
		}
	}
	var problems []string
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		types, ok := spec.props[k]
		switch v := fields[k]; {
		case !ok:
			problems = append(problems, "unknown field "+strconv.Quote(k))
		case string(v) == "null":
			delete(fields, k)
		case !jsonschema.Accepts(v, types):
			problems = append(problems, "field "+strconv.Quote(k)+" must be a "+strings.Join(types, " or "))
		}
	}
	for _, k := range spec.required {
		if _, ok := fields[k]; !ok {
			problems = append(problems, "missing field "+strconv.Quote(k))
		}
	}
	if len(problems) > 0 {
		return query{}, spec.fail(problems...)
	}
	q := query{limit: DefaultResults}
	if v, ok := fields["query"]; ok {
		_ = json.Unmarshal(v, &q.text) // type checked above
	}
	if err := checkLimits(q.text); err != nil {
		return query{}, err
	}
	if v, ok := fields["max_results"]; ok {
		q.limit = clamp(string(v))
	}
	return q, nil
}

func (spec argSpec) fail(problems ...string) error {
	return &ArgsError{Problems: problems, Expected: spec.expected}
}

// clamp reads max_results: the integer part, within [1, MaxResults]
// (0 -> 1, 2.7 -> 2, 1000 -> 50; SRCH-6).
func clamp(num string) int {
	f, _ := strconv.ParseFloat(num, 64) // ±Inf on overflow, which clamps
	f = math.Trunc(f)
	switch {
	case f < 1:
		return 1
	case f > MaxResults:
		return MaxResults
	}
	return int(f)
}
