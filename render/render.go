package render

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/execlua/execlua/internal/jsonschema"

	"github.com/execlua/execlua/internal/jsontext"
)

// The schema form render reads: order-keeping parsed JSON.
type (
	value  = jsontext.Value
	member = jsontext.Member
)

// MaxDepth is how many levels of properties and items are spelled out;
// anything nested deeper renders as any.
const MaxDepth = 8

// ErrInvalidSchema is what every schema error matches with errors.Is.
var ErrInvalidSchema = errors.New("invalid JSON Schema")

// SchemaError says which schema could not be rendered and why. It matches
// ErrInvalidSchema and unwraps to the underlying cause.
type SchemaError struct {
	Schema string // "input", "output" or "schema"
	Err    error
}

func (e *SchemaError) Error() string {
	return e.Schema + " schema: " + e.Err.Error()
}

func (e *SchemaError) Unwrap() []error { return []error{ErrInvalidSchema, e.Err} }

var errNotSchema = errors.New("a schema must be a JSON object or a boolean")

// parseSchema parses raw, reading empty input as def (which may be "").
func parseSchema(raw json.RawMessage, which, def string) (*value, error) {
	s := strings.TrimSpace(string(raw))
	if s == "" {
		if def == "" {
			return nil, nil
		}
		s = def
	}
	v, err := jsontext.Parse(s)
	if err != nil {
		return nil, &SchemaError{Schema: which, Err: err}
	}
	if v.Kind != 'o' && v.Kind != 'b' {
		return nil, &SchemaError{Schema: which, Err: errNotSchema}
	}
	return v, nil
}

// Signature renders the LuaCATS signature of the tool called name: the
// classes its arguments and result need, ---@param and ---@return, and the
// Lua statement that names the tool. An empty input schema means
// {"type":"object"}; an empty output schema renders as any. The text is
// valid Lua, and every line of it but the last is a comment.
func Signature(name string, input, output json.RawMessage) (string, error) {
	in, err := parseSchema(input, "input", `{"type":"object"}`)
	if err != nil {
		return "", err
	}
	out, err := parseSchema(output, "output", "")
	if err != nil {
		return "", err
	}
	if typeless(in) {
		// Arguments are always a table (MCP requires an object schema).
		in = &value{Kind: 'o', Members: append([]member{{Key: "type", Value: &value{Kind: 's', Str: "object"}}}, in.Members...)}
	}
	base := className(name)
	r := &renderer{names: map[string]bool{}, base: base}
	b := &r.out
	// The signature is usually about as long as the schemas.
	b.Grow(len(input) + len(output) + 4*len(name) + 256)
	var argNotes, retNotes []string
	arg := r.top(in, path{parent: base + ".Args"}, &argNotes)
	ret := "any"
	if out != nil {
		ret = r.top(out, path{parent: base + ".Result"}, &retNotes)
	}

	writeDoc(b, unlabel(argNotes, arg))
	b.WriteString("---@param args")
	if !r.requires(in) {
		b.WriteByte('?')
	}
	b.WriteString(" " + arg + "\n")
	writeDoc(b, unlabel(retNotes, ret))
	b.WriteString("---@return " + ret + "\n")
	b.WriteString(definition(name))
	b.WriteByte('\n')
	return b.String(), nil
}

// Type renders schema as one line of LuaCATS, objects as inline table
// types and without descriptions: the short form for error messages and
// one-line call forms.
func Type(schema json.RawMessage) (string, error) {
	s, err := parseSchema(schema, "schema", `{}`)
	if err != nil {
		return "", err
	}
	r := &renderer{inline: true}
	return r.top(s, path{}, nil), nil
}

// renderer holds one rendering: the text so far, the classes named but
// not yet written, and the state that makes $ref recursion-safe.
type renderer struct {
	inline bool
	base   string
	root   *value
	out    strings.Builder
	// Classes are written one after another, in the order they were
	// named: a class met while writing another waits here.
	queue    []pending
	names    map[string]bool      // class names in use
	refs     map[string]string    // $ref -> class of an object definition
	active   map[string]bool      // $refs being expanded inline
	expanded map[string]expansion // "$ref@depth" -> its expansion
}

// pending is a class named but not yet written, with the $refs that were
// being expanded where it was met.
type pending struct {
	s      *value
	name   string
	depth  int
	shown  bool
	active []string
}

// path is where a schema sits, and so the name its class would get:
// parent.key. Kept in two parts so that no name is built for the many
// schemas that never become a class.
type path struct{ parent, key string }

func (p path) String() string {
	if p.key == "" {
		return p.parent
	}
	return p.parent + "." + className(p.key)
}

func (p path) child(key string) path { return path{p.String(), key} }

// top renders a whole schema; $refs resolve against it.
func (r *renderer) top(s *value, at path, notes *[]string) string {
	r.root = s
	r.refs = map[string]string{}
	r.active = map[string]bool{}
	r.expanded = map[string]expansion{}
	// A "#" reference is to this very schema: its class if it gets one.
	if name := at.String(); !r.inline && isClassObject(s) && !r.names[name] {
		r.refs["#"] = name
	} else {
		r.active["#"] = true
	}
	t := r.typ(s, at, 0, notes, false)
	for len(r.queue) > 0 {
		p := r.queue[0]
		r.queue = r.queue[1:]
		for _, ref := range p.active {
			r.active[ref] = true
		}
		r.class(p)
		for _, ref := range p.active {
			delete(r.active, ref)
		}
	}
	return t
}

// enqueue names the class for object schema s and queues it.
func (r *renderer) enqueue(s *value, name string, depth int, shown bool) string {
	p := pending{s: s, name: name, depth: depth, shown: shown}
	for ref := range r.active {
		p.active = append(p.active, ref)
	}
	r.queue = append(r.queue, p)
	return name
}

// requires reports whether a top-level object schema has required members,
// so that args may not be omitted.
func (r *renderer) requires(s *value) bool {
	r.root = s
	if s.Get("allOf") != nil {
		s = r.merge(s, false)
	}
	req := s.Get("required")
	return req != nil && req.Kind == 'a' && len(req.Members) > 0
}

// typ renders schema s as a LuaCATS type. at names the class an object
// would become. shown says the caller already printed s's own description
// and facets (a field does); otherwise they go into the class's doc or, for
// a type with no class, into notes with the type as the label.
func (r *renderer) typ(s *value, at path, depth int, notes *[]string, shown bool) string {
	if s == nil {
		return "any"
	}
	if s.Kind == 'b' {
		if s.Bool {
			return "any"
		}
		return "nil"
	}
	if s.Kind != 'o' || depth > MaxDepth {
		return "any"
	}
	var t string
	switch {
	case s.Get("$ref") != nil:
		t = r.ref(s, at, depth, notes)
	case s.Get("allOf").IsArray():
		// The merged node carries the branches' descriptions, and s's own
		// unless the caller has shown it.
		m := r.merge(s, !shown)
		return r.typ(m, at, depth, notes, shown && m.Text("description") == "")
	default:
		t = r.plain(s, at, depth, notes, shown)
	}
	if b := s.Get("nullable"); b != nil && b.Kind == 'b' && b.Bool {
		t = orNil(t)
	}
	if !shown && notes != nil && !r.isClass(t) {
		addNote(notes, t, s)
	}
	return t
}

func (r *renderer) isClass(t string) bool { return r.names[strings.TrimSuffix(t, "|nil")] }

// plain renders a schema with no $ref or allOf.
func (r *renderer) plain(s *value, at path, depth int, notes *[]string, shown bool) string {
	if c := s.Get("const"); c != nil {
		return literal(c)
	}
	if e := s.Get("enum"); e.IsArray() && len(e.Members) > 0 {
		var u union
		for _, x := range e.Members {
			u.add(literal(x.Value))
		}
		if jsonschema.TypeIncludes(s, "null") {
			u.add("nil")
		}
		return u.String()
	}
	for _, k := range [...]string{"anyOf", "oneOf"} {
		if alts := s.Get(k); alts.IsArray() && len(alts.Members) > 0 && !(hasShape(s) && !anyShape(alts.Members)) {
			var u union
			for _, a := range alts.Members {
				u.add(r.typ(a.Value, at, depth, notes, false))
			}
			if jsonschema.TypeIncludes(s, "null") {
				u.add("nil")
			}
			return u.String()
		}
	}
	if t := s.Get("type"); t != nil && t.Kind == 's' {
		return r.named(t.Str, s, at, depth, notes, shown)
	}
	var u union
	for _, t := range jsonschema.Types(s) {
		u.add(r.named(t, s, at, depth, notes, shown))
	}
	return u.String()
}

// named renders s as the JSON Schema type called t.
func (r *renderer) named(t string, s *value, at path, depth int, notes *[]string, shown bool) string {
	switch t {
	case "string", "integer", "number", "boolean":
		return t
	case "null":
		return "nil"
	case "array":
		return r.array(s, at, depth, notes)
	case "object":
		return r.object(s, at, depth, notes, shown)
	}
	return "any"
}

// typeless reports whether s says nothing about the type of its value.
func typeless(s *value) bool {
	if s.Kind != 'o' || jsonschema.Types(s)[0] != "any" {
		return false
	}
	for _, k := range [...]string{"$ref", "allOf", "anyOf", "oneOf", "enum", "const", "not"} {
		if s.Get(k) != nil {
			return false
		}
	}
	return true
}

// hasShape reports whether s says something about its own type, so that an
// anyOf next to it only adds constraints (e.g. which members are required).
func hasShape(s *value) bool {
	return s.Get("type") != nil || s.Get("properties") != nil || s.Get("items") != nil
}

func anyShape(alts []member) bool {
	for _, m := range alts {
		a := m.Value
		if a.Kind != 'o' {
			return true
		}
		for _, k := range [...]string{"type", "properties", "items", "$ref", "enum", "const", "anyOf", "oneOf", "allOf"} {
			if a.Get(k) != nil {
				return true
			}
		}
	}
	return false
}

func (r *renderer) array(s *value, at path, depth int, notes *[]string) string {
	items := s.Get("items")
	tuple := s.Get("prefixItems")
	if !tuple.IsArray() && items.IsArray() {
		tuple = items // draft-04 tuple form
	}
	if tuple.IsArray() {
		parts := make([]string, len(tuple.Members))
		for i, e := range tuple.Members {
			parts[i] = r.typ(e.Value, at.child(strconv.Itoa(i+1)), depth+1, notes, false)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	if items == nil {
		return "any[]"
	}
	t := r.typ(items, at, depth+1, notes, false)
	if strings.Contains(t, "|") {
		return "(" + t + ")[]"
	}
	return t + "[]"
}

// object renders an object schema: a class when it has properties (an
// inline table type in inline mode), table<string, T> for a map, {} when it
// says nothing more — no shape is invented.
func (r *renderer) object(s *value, at path, depth int, notes *[]string, shown bool) string {
	props := s.Get("properties")
	if !props.IsObject() || len(props.Members) == 0 {
		switch ap := s.Get("additionalProperties"); {
		case ap.IsObject():
			return "table<string, " + r.typ(ap, at, depth+1, notes, false) + ">"
		case ap != nil && ap.Kind == 'b' && ap.Bool:
			return "table<string, any>"
		}
		if pp := s.Get("patternProperties"); pp.IsObject() && len(pp.Members) > 0 {
			var u union
			for _, m := range pp.Members {
				u.add(r.typ(m.Value, at, depth+1, notes, false))
			}
			return "table<string, " + u.String() + ">"
		}
		return "{}"
	}
	if r.inline {
		return r.inlineObject(s, depth)
	}
	if bare(s) {
		// Nothing to document below: an inline table says it all, if it
		// stays short. Nested objects inline too while trying.
		r.inline = true
		t := r.inlineObject(s, depth)
		r.inline = false
		if len(t) <= maxInline {
			return t
		}
	}
	return r.enqueue(s, r.newClass(at.String()), depth, shown)
}

// maxInline is the longest inline table type written in place of a class;
// a longer one reads better a field a line.
const maxInline = 80

// bare reports whether an object schema can be written inline without
// losing anything: no member, at any depth, has a description, a facet or
// a $ref, and no members beyond its properties are allowed. Its own
// description is not its members' business: the field above it shows it.
func bare(s *value) bool {
	if ap := s.Get("additionalProperties"); ap != nil && !(ap.Kind == 'b' && !ap.Bool) || s.Get("patternProperties") != nil {
		return false
	}
	return eachSubschema(s, docless)
}

// docless reports whether s and everything below it carry no text or
// constraint that only a class could show.
func docless(s *value) bool {
	if s.Kind != 'o' {
		return true
	}
	for _, k := range [...]string{"description", "$ref", "allOf", "deprecated"} {
		if s.Get(k) != nil {
			return false
		}
	}
	for _, k := range facetKeys {
		if s.Get(k) != nil {
			return false
		}
	}
	return bare(s)
}

// eachSubschema reports whether f holds for every schema directly below s:
// properties, items, tuple members and union alternatives.
func eachSubschema(s *value, f func(*value) bool) bool {
	for _, k := range [...]string{"properties", "items", "prefixItems", "anyOf", "oneOf"} {
		v := s.Get(k)
		switch {
		case v == nil:
		case v.Kind == 'o' && k != "properties":
			if !f(v) {
				return false
			}
		case v.Kind == 'o' || v.Kind == 'a':
			for _, m := range v.Members {
				if !f(m.Value) {
					return false
				}
			}
		}
	}
	return true
}

func (r *renderer) inlineObject(s *value, depth int) string {
	var b strings.Builder
	b.WriteString("{ ")
	for i, m := range s.Get("properties").Members {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(fieldKey(m.Key))
		if !isRequired(s, m.Key) {
			b.WriteByte('?')
		}
		b.WriteString(": " + r.typ(m.Value, path{}, depth+1, nil, true))
	}
	b.WriteString(" }")
	return b.String()
}

// class writes a queued class: an object schema with properties.
func (r *renderer) class(p pending) {
	s, name, depth, b := p.s, p.name, p.depth, &r.out
	if !p.shown {
		writeDoc(b, docLines(s, nil))
	}
	b.WriteString("---@class ")
	b.WriteString(name)
	b.WriteByte('\n')
	for _, m := range s.Get("properties").Members {
		var fieldNotes []string
		t := r.typ(m.Value, path{name, m.Key}, depth+1, &fieldNotes, true)
		writeSchemaField(b, fieldKey(m.Key), !isRequired(s, m.Key), t, m.Value, unlabel(fieldNotes, t))
	}
	switch ap := s.Get("additionalProperties"); {
	case ap.IsObject():
		var apNotes []string
		t := r.typ(ap, path{name, "value"}, depth+1, &apNotes, false)
		writeField(b, "[string]", false, t, unlabel(apNotes, t))
	case ap != nil && ap.Kind == 'b' && ap.Bool:
		writeField(b, "[string]", false, "any", nil)
	}
	b.WriteByte('\n')
}

// isRequired reports whether key is in s's required list.
func isRequired(s *value, key string) bool {
	if req := s.Get("required"); req.IsArray() {
		for _, x := range req.Members {
			if x.Value.Kind == 's' && x.Value.Str == key {
				return true
			}
		}
	}
	return false
}

// newClass reserves a unique class name based on path.
func (r *renderer) newClass(base string) string {
	name := base
	for i := 2; r.names[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	r.names[name] = true
	return name
}

// ref renders a $ref. Object definitions become one named class, rendered
// once, so a recursive definition refers to its own class; anything else is
// expanded in place, and a reference back into a definition being expanded
// renders as any.
func (r *renderer) ref(s *value, at path, depth int, notes *[]string) string {
	ref := s.Text("$ref")
	target := jsonschema.Resolve(r.root, ref)
	if target == nil {
		return "any"
	}
	if name, ok := r.refs[ref]; ok {
		return name
	}
	if r.active[ref] {
		return "any"
	}
	r.active[ref] = true
	defer delete(r.active, ref)
	if !r.inline && target.Kind == 'o' && target.Get("$ref") == nil {
		if target.Get("allOf") != nil {
			target = r.merge(target, true)
		}
		if isClassObject(target) {
			name := r.newClass(r.base + "." + className(ref[strings.LastIndexByte(ref, '/')+1:]))
			r.refs[ref] = name
			return r.enqueue(target, name, depth, false)
		}
	}
	// A definition used in many places is expanded once per depth: a
	// chain of definitions each using the next twice would otherwise
	// expand exponentially.
	key := ref + "@" + strconv.Itoa(depth)
	e, ok := r.expanded[key]
	if !ok {
		var own []string
		e.t = r.typ(target, at, depth, &own, false)
		e.notes = own
		r.expanded[key] = e
	}
	if notes != nil {
		// Notes already there came from another use of the same definition.
		for _, n := range e.notes {
			if !slices.Contains(*notes, n) {
				*notes = append(*notes, n)
			}
		}
	}
	return e.t
}

// expansion is a $ref expanded in place: its type and its notes.
type expansion struct {
	t     string
	notes []string
}

func isClassObject(s *value) bool {
	p := s.Get("properties")
	return p.IsObject() && len(p.Members) > 0 && typeIncludesOrNone(s, "object")
}

func typeIncludesOrNone(s *value, name string) bool {
	return s.Get("type") == nil || jsonschema.TypeIncludes(s, name)
}

// merge folds allOf into one schema: properties in order of appearance,
// required lists joined, other keywords from the first schema that has
// them, and the branches' descriptions joined (s's own first, if ownDesc).
// $refs in branches are
// followed (once each, so a self-reference cannot loop).
func (r *renderer) merge(s *value, ownDesc bool) *value {
	out := &value{Kind: 'o'}
	props := &value{Kind: 'o'}
	var required []member
	var descs []string
	seen := map[string]bool{}
	var fold func(x *value)
	fold = func(x *value) {
		if ref := x.Text("$ref"); ref != "" {
			if seen[ref] || r.active[ref] {
				return
			}
			seen[ref] = true
			if t := jsonschema.Resolve(r.root, ref); t != nil {
				fold(t)
			}
		}
		if x.Kind != 'o' {
			return
		}
		for _, m := range x.Members {
			switch m.Key {
			case "$ref":
			case "allOf":
				if m.Value.IsArray() {
					for _, b := range m.Value.Members {
						fold(b.Value)
					}
				}
			case "properties":
				if m.Value.IsObject() {
					props.Members = append(props.Members, m.Value.Members...)
				}
			case "required":
				if m.Value.IsArray() {
					required = append(required, m.Value.Members...)
				}
			case "description":
				if x != s && m.Value.Kind == 's' && m.Value.Str != "" && !slices.Contains(descs, m.Value.Str) {
					descs = append(descs, m.Value.Str)
				}
			default:
				if out.Get(m.Key) == nil {
					out.Members = append(out.Members, m)
				}
			}
		}
	}
	if d := s.Text("description"); ownDesc && d != "" {
		descs = append(descs, d)
	}
	fold(s)
	if len(props.Members) > 0 {
		out.Members = append(out.Members, member{Key: "properties", Value: props})
	}
	if len(required) > 0 {
		out.Members = append(out.Members, member{Key: "required", Value: &value{Kind: 'a', Members: required}})
	}
	if len(descs) > 0 {
		out.Members = append(out.Members, member{Key: "description", Value: &value{Kind: 's', Str: strings.Join(descs, "\n")}})
	}
	return out
}

// literal renders an enum or const member as a LuaCATS literal type.
func literal(v *value) string {
	switch v.Kind {
	case 's':
		return Quote(v.Str)
	case 'n':
		return v.Str
	case 'b':
		if v.Bool {
			return "true"
		}
		return "false"
	case 'z':
		return "nil"
	}
	return "table"
}

// union collects the alternatives of a type, without repeats, with nil
// last; any absorbs everything else.
type union struct {
	parts  []string
	hasNil bool
}

func (u *union) add(t string) {
	if !strings.Contains(t, "|") {
		u.addOne(t)
		return
	}
	for _, p := range splitTop(t) {
		u.addOne(p)
	}
}

func (u *union) addOne(p string) {
	{
		if p == "nil" {
			u.hasNil = true
		} else if !slices.Contains(u.parts, p) {
			u.parts = append(u.parts, p)
		}
	}
}

func (u *union) String() string {
	switch {
	case slices.Contains(u.parts, "any"):
		return "any"
	case len(u.parts) == 0 && u.hasNil:
		return "nil"
	case len(u.parts) == 0:
		return "any"
	}
	s := strings.Join(u.parts, "|")
	if u.hasNil {
		s += "|nil"
	}
	return s
}

func orNil(t string) string {
	var u union
	u.add(t)
	u.add("nil")
	return u.String()
}

// splitTop splits a union at the top level (not inside brackets, braces,
// parentheses or string literals).
func splitTop(t string) []string {
	if !strings.Contains(t, "|") {
		return []string{t}
	}
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '"':
			for i++; i < len(t) && t[i] != '"'; i++ {
				if t[i] == '\\' {
					i++
				}
			}
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			depth--
		case '|':
			if depth == 0 {
				parts = append(parts, t[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, t[start:])
}
