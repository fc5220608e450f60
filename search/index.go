package search

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/execlua/execlua/pool"
	"github.com/execlua/execlua/render"
)

// Match is one tool found: what a script needs to call it.
type Match struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Signature   string `json:"signature"`
}

// Result is what ToolSearch returns: the matches, best first, and how many
// tools matched before the cap (SRCH-8). It marshals to OutputSchema's shape.
type Result struct {
	Matches []Match `json:"matches"`
	Total   int     `json:"total"`
}

// Search runs one ToolSearch call over tools: args is the JSON the script
// passed. It builds an Index for the call; a host that searches the same
// pool repeatedly keeps the Index instead.
func Search(tools []pool.Tool, args json.RawMessage) (Result, error) {
	return NewIndex(tools).Search(args)
}

// Index is a pool prepared for searching: every tool's words, stemmed,
// with postings from each word to the tools that use it. It is a value
// built from the slice, never changed after, and safe to share.
type Index struct {
	tools   []pool.Tool
	entries []entry
	byName  map[string]int // lowercase name -> first tool with it

	// names is every tool's compact name (lowercase letters and digits)
	// between NUL separators, so one strings.Index pass finds substrings.
	names  string
	starts []int

	name, hint, desc postings
	// hintVocab and descVocab are the fields' distinct stems, sorted, for
	// prefix matches (repo -> repository).
	hintVocab, descVocab []string
	synonyms             map[string][]string
	// ranked lists every tool in tie order: MCP first, then by name.
	ranked []int32
	args   argSpec
}

type entry struct {
	words []string // stems of the name's words, in order
	part  []string // stems of the tool's own name (without the server), stop words aside
	mcp   bool
	order int32 // position by name, for ties
}

// postings maps a stem to the tools that have it, ascending, once each.
type postings map[string][]int32

func (p postings) add(stem string, i int32) {
	l := p[stem]
	if n := len(l); n == 0 || l[n-1] != i {
		p[stem] = append(l, i)
	}
}

// NewIndex prepares tools for searching. It copies the slice, so later
// changes to it do not reach the Index (the schemas' bytes are shared).
func NewIndex(tools []pool.Tool) *Index {
	tools = slices.Clone(tools)
	x := &Index{
		tools:    tools,
		entries:  make([]entry, len(tools)),
		byName:   make(map[string]int, len(tools)),
		starts:   make([]int, len(tools)),
		name:     postings{},
		hint:     postings{},
		desc:     postings{},
		synonyms: synonyms(),
		args:     newArgSpec(),
	}
	var names strings.Builder
	for i := range tools {
		t := &tools[i]
		id := int32(i)
		lower := strings.ToLower(t.Name)
		if _, ok := x.byName[lower]; !ok {
			x.byName[lower] = i
		}
		e := &x.entries[i]
		// An MCP tool's name words are its server's and its own; the mcp
		// prefix says nothing about what the tool does.
		name, part := t.Name, t.Name
		if t.ServerTool != "" {
			name, part = t.Server+" "+t.ServerTool, t.ServerTool
		}
		e.words = stems(name)
		for _, w := range words(part) {
			if !stopWords[w] {
				e.part = append(e.part, stem(w))
			}
		}
		e.mcp = t.Kind == pool.MCP
		for _, w := range indexStems(name) {
			x.name.add(w, id)
		}
		for _, w := range indexStems(t.SearchHint) {
			x.hint.add(w, id)
		}
		for _, w := range indexStems(t.Description) {
			x.desc.add(w, id)
		}
		names.WriteByte(0)
		x.starts[i] = names.Len()
		names.WriteString(compact(lower))
	}
	x.names = names.String()
	x.hintVocab = vocab(x.hint)
	x.descVocab = vocab(x.desc)

	x.ranked = make([]int32, len(tools))
	for i := range x.ranked {
		x.ranked[i] = int32(i)
	}
	slices.SortStableFunc(x.ranked, func(a, b int32) int {
		return strings.Compare(strings.ToLower(tools[a].Name), strings.ToLower(tools[b].Name))
	})
	for pos, i := range x.ranked {
		x.entries[i].order = int32(pos)
	}
	slices.SortStableFunc(x.ranked, func(a, b int32) int { return x.compareTie(a, b) })
	return x
}

func vocab(p postings) []string {
	v := make([]string, 0, len(p))
	for w := range p {
		v = append(v, w)
	}
	slices.Sort(v)
	return v
}

// compact keeps only letters and digits, so create_issue, create-issue and
// createIssue compare equal.
func compact(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 && !('a' <= r && r <= 'z' || '0' <= r && r <= '9') {
			return -1
		}
		return r
	}, s)
}

// Search runs one ToolSearch call: args is the JSON the script passed,
// validated against InputSchema (an *ArgsError, matching ErrInvalidArgs,
// if it does not fit). The result's signatures come from render.
func (x *Index) Search(args json.RawMessage) (Result, error) {
	q, err := x.args.parse(args)
	if err != nil {
		return Result{}, err
	}
	ids, total := x.find(q)
	res := Result{Matches: make([]Match, len(ids)), Total: total}
	for i, id := range ids {
		t := &x.tools[id]
		res.Matches[i] = Match{Name: t.Name, Description: t.Description, Signature: signature(t)}
	}
	return res, nil
}

// signature renders t's signature. A tool whose schema cannot be rendered
// is still found and callable, so it gets a signature that says why, with
// whatever part of it does render.
func signature(t *pool.Tool) string {
	sig, err := render.Signature(t.Name, t.InputSchema, t.OutputSchema)
	if err == nil {
		return sig
	}
	var se *render.SchemaError
	fallback, err2 := render.Signature(t.Name, t.InputSchema, nil)
	if errors.As(err, &se) && se.Schema == "input" || err2 != nil {
		fallback, _ = render.Signature(t.Name, json.RawMessage(`true`), nil)
	}
	return "---" + strings.ReplaceAll(err.Error(), "\n", " ") + "\n" + fallback
}

// find returns the tools q selects, best first and capped, and how many
// there were before the cap.
func (x *Index) find(q query) ([]int32, int) {
	text := strings.TrimSpace(q.text)
	if len(text) >= len("select:") && strings.EqualFold(text[:len("select:")], "select:") {
		ids := x.selectNames(text[len("select:"):])
		return ids, len(ids)
	}
	if text == "" {
		return x.ranked[:min(q.limit, len(x.ranked))], len(x.ranked)
	}
	s := x.score(text)
	return s.top(q.limit), len(s.hits)
}

// selectNames returns the named tools in the caller's order, each once;
// unknown names are dropped (SRCH-4).
func (x *Index) selectNames(list string) []int32 {
	out := []int32{}
	seen := map[int]bool{}
	for _, n := range strings.Split(list, ",") {
		i, ok := x.byName[strings.ToLower(strings.TrimSpace(n))]
		if ok && !seen[i] {
			seen[i] = true
			out = append(out, int32(i))
		}
	}
	return out
}

// compareTie orders tools that matched equally well: MCP before builtin,
// then by name (SRCH-5).
func (x *Index) compareTie(a, b int32) int {
	ea, eb := &x.entries[a], &x.entries[b]
	if ea.mcp != eb.mcp {
		if ea.mcp {
			return -1
		}
		return 1
	}
	return int(ea.order) - int(eb.order)
}
