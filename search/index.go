package search

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

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
	// Fallback says why a Semantic's search answered with the lexical
	// ranking alone (an *EmbedError); nil otherwise. Never marshalled:
	// the script is not told, the host is.
	Fallback error `json:"-"`
}

// Search runs one ToolSearch call over tools: args is the JSON the script
// passed. It builds an Index for the call; a host that searches the same
// pool repeatedly keeps the Index instead.
func Search(tools []pool.Tool, args json.RawMessage) (Result, error) {
	return NewIndex(tools).Search(args)
}

// Index is a pool prepared for searching. It is immutable and safe to
// share: Update, WithServer and WithoutServer return a new Index that
// shares every part the change did not touch, so a server connecting or
// leaving costs in proportion to that server, not to the pool.
//
// A server's tools (or the builtins, under the empty server name) are one
// group, the unit of change.
type Index struct {
	chunks [][]entry // tool id -> entry, in chunks of chunkSize, copied when written
	// metas mirrors chunks with what every hit of a query needs, packed
	// densely so that scoring thousands of hits stays in the cache.
	metas [][]meta
	free  []int32 // ids of removed tools, reused first
	next  int32   // ids below next have been handed out
	live  int     // tools in the index
	words dict[*post]
	// names holds every tool's lowercase name and, for an MCP tool, its
	// lowercase own name: what an exact-name query is looked up in.
	names  dict[[]int32]
	groups map[string]*group
	args   argSpec
	rk     *ranking // the options, resolved
	// stemIDs: the ids of stems (post.id) below it have been handed out;
	// freeStems are those of stems no tool has any more, reused first.
	stemIDs   int32
	freeStems []int32
}

const chunkSize = 256

// Fields a word can be found in, strongest first. fServer holds the
// server's words and the words its tools' names share (browser_ in every
// Playwright tool): they say where a tool is, not what it does. fSchema
// holds the names and descriptions of the tool's arguments (path,
// namespace, channel_id): what a task sentence's values are.
const (
	fName = iota
	fServer
	fHint
	fDesc
	fSchema
	nFields
)

// post lists the tools that have one stem, per field, each tool once per
// field, and df, how many tools have it in any field (for its rarity).
type post struct {
	df int32
	f  [nFields][]int32
	// plain counts the tools that have the stem by a word whose final e
	// the stemmer did not drop (task, taking; not take or takes): a query
	// word with no e to drop (taks) is a form of those words only.
	plain int32
	// id numbers the stem among the index's, densely, for the tools'
	// descriptions (entry.desc); forms are its words as the tools write
	// them, lowercase, in the order first seen: a few, as stem folds a
	// few endings.
	id    int32
	forms []string
}

// entry is one tool as the ranking reads it.
type entry struct {
	tool   *pool.Tool // in its group's tools, which never change
	lower  string     // lowercase name
	own    []nameWord // the tool's own name (not its server's), in order
	mcp    bool
	effect effect
	// listed is the tool's place in its server's listing (twinOrder);
	// deprecated, whether its description says it is (deprecatedScale).
	listed     int32
	deprecated bool
	descNorm   float32 // descNorm of its description
	// desc is the description's words as the phrase signal reads them,
	// stop words and camelCase's whole runs aside: each a descToken.
	desc []uint32
}

// A descToken is a word of a description: its stem's post.id, and the
// word's index in the stem's post.forms in the low byte.
const formBits = 8

func descToken(stem int32, form uint8) uint32 { return uint32(stem)<<formBits | uint32(form) }

// effect is what a call of a tool may do, from its annotations, in the
// order ties are broken: it only reads, it writes (or did not say), it
// destroys.
type effect int8

const (
	readsOnly effect = iota
	writes
	destroys
)

func effectOf(a *pool.Annotations) effect {
	switch {
	case a.ReadOnly():
		return readsOnly
	case a.Destructive():
		return destroys
	}
	return writes
}

// nameWord is one word of a tool's own name; ns marks the words its
// server's tools share (a namespace), which rank as the server's words.
// verb (verbClass) and stop (isStop) are read once, when it is indexed.
type nameWord struct {
	word, stem string
	ns, stop   bool
	verb       intent
}

// group is one server's tools (or the builtins): their ids and their
// compact names for substring matches, each the group's prefix (its
// server's compact name, or nothing) and then its own part, in own.
type group struct {
	ids    []int32
	tools  []pool.Tool
	prefix string
	own    *nameList
}

// nameList is the compact own names of a group's tools, between NUL
// bytes, shared by the groups that have the same (the copies of a server
// under other names) so that a substring search reads them once.
type nameList struct {
	names  string
	starts []int32
	// pairs has a bit set for each pair of neighbouring bytes in names, so
	// a substring search skips the lists that cannot hold it.
	pairs bloom
}

type bloom [8]uint64

func pairBit(a, b byte) (int, uint64) {
	h := (uint(a)*31 + uint(b)) % 512
	return int(h / 64), 1 << (h % 64)
}

// of sets the bits of every pair of neighbouring bytes of s.
func (b *bloom) of(s string) {
	for i := 0; i+1 < len(s); i++ {
		w, bit := pairBit(s[i], s[i+1])
		b[w] |= bit
	}
}

// holds reports whether every bit of o is set in b.
func (b *bloom) holds(o *bloom) bool {
	for i := range b {
		if b[i]&o[i] != o[i] {
			return false
		}
	}
	return true
}

// NewIndex prepares tools for searching. It copies what it keeps, so later
// changes to the slice do not reach the Index (schemas' bytes are shared).
func NewIndex(tools []pool.Tool) *Index { return newIndex(tools, defaultRanking) }

func newIndex(tools []pool.Tool, rk *ranking) *Index {
	x := &Index{groups: map[string]*group{}, args: newArgSpec(), names: dict[[]int32]{hashed: true}, rk: rk}
	return x.apply(nil, groupTools(tools))
}

// Update returns an Index of tools that reuses x's work for every server
// whose tools are unchanged (a settings change that leaves the pool alone
// costs a comparison). It returns x itself when nothing changed.
func (x *Index) Update(tools []pool.Tool) *Index {
	want := map[string][]int{} // server -> positions in tools
	for i := range tools {
		k := groupKey(&tools[i])
		want[k] = append(want[k], i)
	}
	var drop []string
	for key, g := range x.groups {
		if at, ok := want[key]; !ok || !sameTools(g.tools, tools, at) {
			drop = append(drop, key)
		} else {
			delete(want, key)
		}
	}
	if len(drop) == 0 && len(want) == 0 {
		return x
	}
	add := map[string][]pool.Tool{}
	for key, at := range want {
		for _, i := range at {
			add[key] = append(add[key], tools[i])
		}
	}
	return x.apply(drop, add)
}

// WithServer returns an Index with server's tools replaced by tools (an
// empty server name holds the builtins; no tools remove the server).
// Tools of other servers in the slice are indexed under server all the
// same.
func (x *Index) WithServer(server string, tools []pool.Tool) *Index {
	if len(tools) == 0 {
		return x.WithoutServer(server)
	}
	var drop []string
	if _, ok := x.groups[server]; ok {
		drop = []string{server}
	}
	return x.apply(drop, map[string][]pool.Tool{server: slices.Clone(tools)})
}

// WithoutServer returns an Index without server's tools.
func (x *Index) WithoutServer(server string) *Index {
	if _, ok := x.groups[server]; !ok {
		return x
	}
	return x.apply([]string{server}, nil)
}

// Len is the number of tools in the index.
func (x *Index) Len() int { return x.live }

func groupKey(t *pool.Tool) string {
	if t.Kind == pool.MCP {
		return t.Server
	}
	return ""
}

func groupTools(tools []pool.Tool) map[string][]pool.Tool {
	n := map[string]int{}
	for i := range tools {
		n[groupKey(&tools[i])]++
	}
	out := make(map[string][]pool.Tool, len(n))
	for i := range tools {
		k := groupKey(&tools[i])
		if out[k] == nil {
			out[k] = make([]pool.Tool, 0, n[k])
		}
		out[k] = append(out[k], tools[i])
	}
	return out
}

// sameTools reports whether a holds the tools of b at positions at.
func sameTools(a, b []pool.Tool, at []int) bool {
	if len(a) != len(at) {
		return false
	}
	for i, j := range at {
		s, t := &a[i], &b[j]
		if s.Name != t.Name || s.Description != t.Description || s.SearchHint != t.SearchHint ||
			s.Kind != t.Kind || s.Server != t.Server || s.ServerTool != t.ServerTool ||
			!bytes.Equal(s.InputSchema, t.InputSchema) || !bytes.Equal(s.OutputSchema, t.OutputSchema) ||
			s.Annotations.ReadOnly() != t.Annotations.ReadOnly() || s.Annotations.Destructive() != t.Annotations.Destructive() {
			return false
		}
	}
	return true
}

func (x *Index) entry(id int32) *entry { return &x.chunks[id/chunkSize][id%chunkSize] }

func (x *Index) meta(id int32) meta { return x.metas[id/chunkSize][id%chunkSize] }

// meta is the part of an entry every hit needs.
type meta struct {
	effect     effect
	mcp        bool
	deprecated bool
	descNorm   float32
	own        int8 // words of its own name
}

// writer builds the next Index from x, copying each shared part once, on
// its first change.
type writer struct {
	y      *Index
	base   *Index
	posts  map[string]*post
	names  map[string][]int32
	copied map[int32]bool
	az     analyzer // for the tools removed
	block  []int32  // see one
}

// apply returns x without the groups in drop and with the groups in add.
func (x *Index) apply(drop []string, add map[string][]pool.Tool) *Index {
	y := *x
	y.chunks = slices.Clone(x.chunks)
	y.metas = slices.Clone(x.metas)
	y.free = slices.Clone(x.free)
	y.freeStems = slices.Clone(x.freeStems)
	y.groups = maps.Clone(x.groups)
	n := 0
	for _, tools := range add {
		n += len(tools)
	}
	w := &writer{y: &y, base: x, posts: make(map[string]*post, n), names: make(map[string][]int32, 2*n), copied: map[int32]bool{}}
	for _, key := range drop {
		w.removeGroup(y.groups[key])
		delete(y.groups, key)
	}
	// Ids first, in a fixed order; then the texts are read, on every CPU
	// when there are many; then what was read is posted.
	keys := slices.Sorted(maps.Keys(add))
	ids := make([][]int32, len(keys))
	for i, key := range keys {
		for range add[key] {
			ids[i] = append(ids[i], w.allocate())
		}
	}
	groups, found, read := analyzeGroups(keys, add, ids)
	// The stems and the names are posted apart: at once, when there are
	// many tools.
	words := func() {
		for _, az := range read {
			w.merge(az)
		}
		if len(drop) > 0 {
			w.freeStems()
		}
		y.words = x.words.with(w.posts, func(p *post) bool { return p.df > 0 })
	}
	var wg sync.WaitGroup
	if n >= parallelMin {
		wg.Go(words)
	} else {
		words()
	}
	for i, key := range keys {
		w.addGroup(groups[i], found[i])
		y.groups[key] = groups[i]
	}
	y.names = x.names.with(w.names, func(ids []int32) bool { return len(ids) > 0 })
	wg.Wait()
	return &y
}

// merge adds what az read to the writer's posts, and numbers the words
// of its descriptions as the index does (globalTokens) unless it numbers
// them as az does: the first analyzer of a new index, whose stems are
// given ids in the order az met them.
func (w *writer) merge(az *analyzer) {
	same := true
	for _, lp := range az.locals {
		p := w.post(lp.stem)
		p.df += lp.df
		p.plain += lp.plain
		for f := range p.f {
			if len(p.f[f]) == 0 {
				p.f[f] = lp.f[f] // az is discarded: its lists are taken over
			} else {
				p.f[f] = append(p.f[f], lp.f[f]...)
			}
		}
		lp.id, lp.formAt = p.id, -1
		if len(p.forms) == 0 {
			p.forms = lp.forms // in the same order: the forms keep their indexes
		} else {
			lp.formAt = int32(len(az.forms))
			for _, f := range lp.forms {
				az.forms = append(az.forms, formIn(&p.forms, f))
			}
		}
		same = same && lp.id == lp.n && lp.formAt < 0
	}
	if !same {
		az.globalTokens()
	}
}

// freeStems hands back the ids of the stems no tool has any more.
func (w *writer) freeStems() {
	for _, p := range w.posts {
		if p.df == 0 {
			w.y.freeStems = append(w.y.freeStems, p.id)
		}
	}
}

// stemID is the id of a stem new to the index.
func (w *writer) stemID() int32 {
	y := w.y
	if n := len(y.freeStems); n > 0 {
		id := y.freeStems[n-1]
		y.freeStems = y.freeStems[:n-1]
		return id
	}
	y.stemIDs++
	return y.stemIDs - 1
}

// unmerge takes what az read out of the writer's posts: the tools in
// gone, all the tools az read. A list is copied without them in one pass.
func (w *writer) unmerge(az *analyzer, gone idSet) {
	for stem, lp := range az.posts {
		p := w.post(stem)
		p.df -= lp.df
		p.plain -= lp.plain
		for f := range p.f {
			if len(lp.f[f]) == 0 {
				continue
			}
			kept := make([]int32, 0, max(0, len(p.f[f])-len(lp.f[f])))
			for _, id := range p.f[f] {
				if !gone.has(id) {
					kept = append(kept, id)
				}
			}
			p.f[f] = kept
		}
	}
}

// idSet is a set of tool ids, a bit per id.
type idSet []uint64

func newIDSet(ids []int32) idSet {
	var top int32 = -1
	for _, id := range ids {
		top = max(top, id)
	}
	s := make(idSet, top/64+1)
	for _, id := range ids {
		s[id/64] |= 1 << (id % 64)
	}
	return s
}

func (s idSet) has(id int32) bool {
	return int(id/64) < len(s) && s[id/64]&(1<<(id%64)) != 0
}

func (w *writer) post(stem string) *post {
	if p, ok := w.posts[stem]; ok {
		return p
	}
	p := &post{}
	if old, ok := w.base.words.get(stem); ok {
		*p = *old
		for i := range p.f {
			p.f[i] = slices.Clip(p.f[i]) // an append copies, never writes into x's list
		}
		p.forms = slices.Clip(p.forms)
	} else {
		p.id = w.stemID()
	}
	w.posts[stem] = p
	return p
}

// one returns a list of one id, carved from a block shared by many (most
// names name one tool); its capacity of one makes an append copy.
func (w *writer) one(id int32) []int32 {
	if len(w.block) == 0 {
		w.block = make([]int32, 1024)
	}
	l := w.block[:1:1]
	l[0] = id
	w.block = w.block[1:]
	return l
}

func (w *writer) nameIDs(name string) []int32 {
	if ids, ok := w.names[name]; ok {
		return ids
	}
	ids, _ := w.base.names.get(name)
	return slices.Clip(ids)
}

func (w *writer) setEntry(id int32, e entry) {
	c := id / chunkSize
	for int(c) >= len(w.y.chunks) {
		w.y.chunks = append(w.y.chunks, nil)
		w.y.metas = append(w.y.metas, nil)
	}
	if !w.copied[c] {
		w.copied[c] = true
		w.y.chunks[c] = append(make([]entry, 0, chunkSize), w.y.chunks[c]...)[:chunkSize]
		w.y.metas[c] = append(make([]meta, 0, chunkSize), w.y.metas[c]...)[:chunkSize]
	}
	w.y.chunks[c][id%chunkSize] = e
	w.y.metas[c][id%chunkSize] = meta{effect: e.effect, mcp: e.mcp, deprecated: e.deprecated, descNorm: e.descNorm, own: int8(min(len(e.own), 127))}
}

// removeGroup takes a group's tools out: their stems are found again the
// way they were found when added.
func (w *writer) removeGroup(g *group) {
	var az analyzer
	ns := namespace(g.tools)
	for i, id := range g.ids {
		a := az.analyze(id, &g.tools[i], ns)
		a.nameKeys(func(n string) { w.names[n] = without(w.nameIDs(n), id) })
		w.setEntry(id, entry{})
		w.y.free = append(w.y.free, id)
		w.y.live--
	}
	w.unmerge(&az, newIDSet(g.ids))
}

// without returns ids without id, in a new slice.
func without(ids []int32, id int32) []int32 {
	out := make([]int32, 0, len(ids))
	for _, i := range ids {
		if i != id {
			out = append(out, i)
		}
	}
	return out
}

// nameKeys calls f with the keys a tool is found under by its name: its
// lowercase name and, for an MCP tool, its lowercase own name.
func (a *analysis) nameKeys(f func(key string)) {
	f(a.lower)
	if a.ownLower != "" {
		f(a.ownLower)
	}
}

// addGroup indexes one server's tools, with their ids, analyzed in found
// (their stems are posted already, their compact names written in g).
func (w *writer) addGroup(g *group, found []analysis) {
	for i := range g.tools {
		e := w.addTool(g.ids[i], &g.tools[i], &found[i])
		e.listed = int32(i)
		w.setEntry(g.ids[i], e)
	}
}

// compactNames writes the compact names of g's tools, for substrings,
// its list shared through lists (by its names).
func (g *group) compactNames(lists map[string]*nameList) {
	split := true
	for i := range g.tools {
		split = split && g.tools[i].ServerTool != ""
	}
	if split && len(g.tools) > 0 {
		g.prefix = compact(g.tools[0].Server)
	}
	var names strings.Builder
	var starts []int32
	for i := range g.tools {
		t := &g.tools[i]
		names.WriteByte(0)
		starts = append(starts, int32(names.Len()))
		switch {
		case split:
			writeCompact(&names, t.ServerTool)
		case t.ServerTool == "":
			writeCompact(&names, t.Name)
		default:
			writeCompact(&names, t.Server)
			writeCompact(&names, t.ServerTool)
		}
	}
	if l, ok := lists[names.String()]; ok {
		g.own = l
		return
	}
	g.own = &nameList{names: names.String(), starts: starts}
	g.own.pairs.of(g.own.names)
	lists[g.own.names] = g.own
}

func (w *writer) allocate() int32 {
	w.y.live++
	if n := len(w.y.free); n > 0 {
		id := w.y.free[n-1]
		w.y.free = w.y.free[:n-1]
		return id
	}
	w.y.next++
	return w.y.next - 1
}

// namespace returns the stems that most of a server's tools' own names
// share (browser in browser_click, browser_type, ...) and the server's own
// words: they place a tool, they do not tell its tools apart.
func namespace(tools []pool.Tool) map[string]bool {
	out := map[string]bool{}
	if len(tools) == 0 || tools[0].Kind != pool.MCP {
		return out
	}
	splitWords(tools[0].Server, func(w string, _ bool) { out[stem(w)] = true })
	if len(tools) < 4 {
		return out
	}
	// A prefix is the first word of a name (browser_ of browser_click,
	// Hass of HassTurnOn); a word shared elsewhere in the names (ticket
	// in get_ticket, update_ticket, ...) is what the server's tools act
	// on, which tells them apart from other servers'. A prefix shared by
	// three quarters of the tools is in the first quarter's names: only
	// those are counted.
	count := map[string]int{}
	for i, t := range tools {
		first := true
		splitWords(t.ServerTool, func(w string, whole bool) {
			if whole || !first {
				return
			}
			first = false
			s := stem(w)
			if _, ok := count[s]; ok || 4*i <= len(tools) {
				count[s]++
			}
		})
	}
	for s, n := range count {
		if 4*n >= 3*len(tools) {
			out[s] = true
		}
	}
	return out
}

func (w *writer) addTool(id int32, t *pool.Tool, a *analysis) entry {
	e := entry{tool: t, lower: a.lower, mcp: t.Kind == pool.MCP, own: a.own, effect: effectOf(&t.Annotations), deprecated: a.deprecated, descNorm: a.descNorm, desc: a.desc}
	a.nameKeys(func(n string) {
		if ids := w.nameIDs(n); len(ids) > 0 {
			w.names[n] = append(ids, id)
		} else {
			w.names[n] = w.one(id)
		}
	})
	return e
}

// analysis is what an entry takes from a tool's text: its lowercase name,
// its own name's words, and for an MCP tool its lowercase own name.
type analysis struct {
	lower, ownLower string
	own             []nameWord
	// deprecated and descNorm: whether the description says the tool is
	// deprecated, and the weight of a match in it by its length.
	deprecated bool
	descNorm   float32
	desc       []uint32 // the description's descTokens
}

// parallelMin is the number of tools from which reading them is shared
// among the CPUs: reading the texts is most of building an index.
const parallelMin = 2048

// analyzeGroups reads the tools of each group, [i] for keys[i], with
// their ids, into analyzers, and writes each group's compact names. Many
// tools are shared among the CPUs, a run of whole groups to each
// analyzer, every analysis and group written in its own place.
func analyzeGroups(keys []string, add map[string][]pool.Tool, ids [][]int32) ([]*group, [][]analysis, []*analyzer) {
	out := make([][]analysis, len(keys))
	groups := make([]*group, len(keys))
	total := 0
	for _, k := range keys {
		total += len(add[k])
	}
	run := func(az *analyzer, from, to int) {
		for i := from; i < to; i++ {
			g := add[keys[i]]
			ns := namespace(g)
			out[i] = make([]analysis, len(g))
			for j := range g {
				out[i][j] = az.analyze(ids[i][j], &g[j], ns)
			}
			groups[i] = &group{tools: g, ids: ids[i]}
			groups[i].compactNames(az.lists)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), total/(parallelMin/2))
	if workers <= 1 {
		az := &analyzer{}
		run(az, 0, len(keys))
		return groups, out, []*analyzer{az}
	}
	var wg sync.WaitGroup
	var azs []*analyzer
	per := (total + workers - 1) / workers
	from, n := 0, 0
	for i, k := range keys {
		n += len(add[k])
		if n >= per || i == len(keys)-1 {
			az, f, t := &analyzer{}, from, i+1
			azs = append(azs, az)
			wg.Go(func() { run(az, f, t) })
			from, n = i+1, 0
		}
	}
	wg.Wait()
	return groups, out, azs
}

// analyzer reads tools' texts, one goroutine's worth, into postings of
// its own, merged into the index's afterwards: the index's dictionary is
// touched once per word an analyzer saw, not once per tool that has it.
type analyzer struct {
	posts map[string]*local
	// words holds every word of a text seen so far, as written, and what
	// it posts (textindex.go).
	words  wordTable
	schema scanner // scratch for reading input schemas
	// owns holds, per own name, its words as last read: the copies of a
	// server under other names share them, and a query scores a shared
	// name once (scores.finishName). ownBuf is where a name is read.
	owns   map[string][]nameWord
	ownBuf []nameWord
	// names holds the words of names seen so far, as written, read;
	// serverWords those of server, the server of the tool read last.
	names       map[string]*nameInfo
	server      string
	serverWords []*nameInfo
	lists       map[string]*nameList // the groups' compact names, shared
	// locals are the postings in the order made (local.n). tokens holds
	// the descTokens of the description being read, numbered by locals
	// until merged; block and full the blocks they are kept in: the one
	// being filled, and those before it. forms is where merge notes the
	// index's form of each local one.
	locals []*local
	tokens []uint32
	block  []uint32
	full   [][]uint32
	forms  []uint8
}

// postDesc posts description text of tool id, counts its words and sets
// *tokens to its descTokens.
func (az *analyzer) postDesc(text string, id int32, tokens *[]uint32) textWords {
	az.tokens = az.tokens[:0]
	tw := postText(az, text, id, fDesc)
	*tokens = az.keep(az.tokens)
	return tw
}

// Blocks of descTokens grow from minBlock to maxBlock tokens: a server
// joining keeps little room unused, a pool few blocks. Most descriptions
// have some 30 words.
const (
	minBlock = 256
	maxBlock = 16 << 10
)

// keep returns a copy of tokens carved from the block being filled.
func (az *analyzer) keep(tokens []uint32) []uint32 {
	if cap(az.block)-len(az.block) < len(tokens) {
		if len(az.block) > 0 {
			az.full = append(az.full, az.block)
		}
		az.block = make([]uint32, 0, max(len(tokens), min(2*cap(az.block), maxBlock), minBlock))
	}
	from := len(az.block)
	az.block = append(az.block, tokens...)
	return az.block[from:len(az.block):len(az.block)]
}

// text is a word as written, read: its stem's posting (nil for a stop
// word) and whether the word is plain (see post.plain).
type text struct {
	lp    *local
	plain bool
	tok   uint32 // its descToken, numbered by the analyzer's postings
}

// local is an analyzer's posting of one stem. mark and bits are the tool
// (id+1) being read and the fields it has the stem in so far: first, so
// that a word said again by the same tool reads one cache line.
type local struct {
	mark, plainMark int32
	bits            uint8
	df, plain       int32
	f               [nFields][]int32
	// n is the posting's place in analyzer.locals, forms its stem's
	// words as read (post.forms). Once merged, id is the stem's post.id
	// and formAt where the index's forms of its own are in
	// analyzer.forms, or -1 when they are the same.
	n, id, formAt int32
	forms         []string
	stem          string
}

// posting returns the analyzer's posting of stem s, new if need be.
func (az *analyzer) posting(s string) *local {
	lp := az.posts[s]
	if lp == nil {
		lp = &local{n: int32(len(az.locals)), stem: s}
		az.posts[s] = lp
		az.locals = append(az.locals, lp)
	}
	return lp
}

// globalTokens renumbers the descTokens az read by the index's stems and
// forms, once merged.
func (az *analyzer) globalTokens() {
	for _, block := range append(az.full, az.block) {
		for i, t := range block {
			lp, form := az.locals[t>>formBits], uint8(t)
			if lp.formAt >= 0 {
				form = az.forms[lp.formAt+int32(form)]
			}
			block[i] = descToken(lp.id, form)
		}
	}
}

// formIn is the index of word in forms, added if need be. A stem has a
// few forms (stem folds a few endings), far fewer than a byte counts;
// past that a word would be noted as the last.
func formIn(forms *[]string, word string) uint8 {
	if i := slices.Index(*forms, word); i >= 0 {
		return uint8(i)
	}
	if len(*forms) > 255 {
		return 255
	}
	*forms = append(*forms, word)
	return uint8(len(*forms) - 1)
}

// putPlain counts tool id among those that have lp's stem by a plain word.
func (lp *local) putPlain(id int32) {
	if lp.plainMark != id+1 {
		lp.plainMark = id + 1
		lp.plain++
	}
}

// put notes that tool id has lp's stem in field f.
func (lp *local) put(id int32, f int) {
	if lp.mark != id+1 {
		lp.mark, lp.bits = id+1, 0
		lp.df++
	}
	if lp.bits&(1<<f) == 0 {
		lp.bits |= 1 << f
		lp.f[f] = append(lp.f[f], id)
	}
}

// analyze posts the stems of tool id and returns its lowercase name and
// own name's words. ns is the namespace of its server.
func (az *analyzer) analyze(id int32, t *pool.Tool, ns map[string]bool) analysis {
	if az.posts == nil {
		az.init()
	}
	if az.lists == nil {
		az.lists = map[string]*nameList{}
	}
	a := analysis{lower: strings.ToLower(t.Name), own: az.ownBuf[:0]}
	if t.ServerTool != "" && !strings.EqualFold(t.ServerTool, t.Name) {
		a.ownLower = strings.ToLower(t.ServerTool)
	}
	own := t.Name
	if t.ServerTool != "" {
		own = t.ServerTool
	}
	if t.Server != az.server || az.serverWords == nil {
		az.server, az.serverWords = t.Server, az.serverWords[:0]
		splitRaw(t.Server, func(raw string, upper, _ bool) { az.serverWords = append(az.serverWords, az.nameWord(raw, upper)) })
	}
	for _, n := range az.serverWords {
		n.mark(id, fServer)
	}
	splitRaw(own, func(raw string, upper, whole bool) {
		n := az.nameWord(raw, upper)
		switch {
		case whole:
			if n.lp.mark != id+1 {
				n.mark(id, fName)
			}
			return
		case ns[n.stem]:
			n.mark(id, fServer)
		default:
			n.mark(id, fName)
		}
		a.own = append(a.own, nameWord{word: n.word, stem: n.stem, ns: ns[n.stem], stop: n.stop, verb: n.verb})
	})
	az.ownBuf, a.own = a.own, az.intern(own, a.own)
	// Stop words are matched in names only (get_me).
	postText(az, t.SearchHint, id, fHint)
	desc := az.postDesc(t.Description, id, &a.desc)
	a.descNorm, a.deprecated = descNorm(desc.n), desc.notice && deprecatedFrom(t.Description, desc.at)
	for _, p := range az.schema.schemaTexts(t.InputSchema) {
		postText(az, p.name, id, fSchema)
		postText(az, p.description, id, fSchema)
	}
	return a
}

// init makes az's tables.
func (az *analyzer) init() {
	az.posts = map[string]*local{}
	az.owns = map[string][]nameWord{}
	az.names = map[string]*nameInfo{}
	az.words.resize(wordTableBits)
}

// nameInfo is a word of a name as the index reads it: lowercase, its
// stem and the stem's posting, whether it is plain (see post.plain), a
// stop word, a verb.
type nameInfo struct {
	word, stem  string
	lp          *local
	plain, stop bool
	verb        intent
}

// nameWord returns the word of a name raw as written (with a capital if
// upper), read on its first sight.
func (az *analyzer) nameWord(raw string, upper bool) *nameInfo {
	if n, ok := az.names[raw]; ok {
		return n
	}
	word := raw
	if upper {
		word = strings.ToLower(raw)
	}
	s := stem(word)
	n := &nameInfo{word: word, stem: s, lp: az.posting(s), plain: !foldsE(word), stop: isStop(word), verb: verbClass(word)}
	az.names[raw] = n
	return n
}

// mark notes that tool id has n's stem in field f.
func (n *nameInfo) mark(id int32, f int) {
	n.lp.put(id, f)
	if n.plain {
		n.lp.putPlain(id)
	}
}

// intern returns the shared words of own name own when they are ws, and
// else a copy of ws, shared from now on.
func (az *analyzer) intern(own string, ws []nameWord) []nameWord {
	if have, ok := az.owns[own]; ok && slices.Equal(have, ws) {
		return have
	}
	ws = slices.Clone(ws)
	az.owns[own] = ws
	return ws
}

// writeCompact writes compact(s) to b.
func writeCompact(b *strings.Builder, s string) {
	for _, r := range s {
		if c := compactRune(r); c >= 0 {
			b.WriteRune(c)
		}
	}
}

// compact keeps only letters and digits, lowercased, so create_issue,
// create-issue and createIssue compare equal.
func compact(s string) string { return strings.Map(compactRune, s) }

// compactRune is r as compact keeps it, or -1 when it drops it.
func compactRune(r rune) rune {
	switch {
	case 'A' <= r && r <= 'Z':
		return r + 'a' - 'A'
	case 'a' <= r && r <= 'z' || '0' <= r && r <= '9':
		return r
	case r >= utf8.RuneSelf:
		return unicode.ToLower(r)
	}
	return -1
}

// Search runs one ToolSearch call: args is the JSON the script passed,
// validated against InputSchema (an *ArgsError, matching ErrInvalidArgs,
// if it does not fit). The result's signatures come from render.
func (x *Index) Search(args json.RawMessage) (Result, error) {
	return x.SearchContext(context.Background(), args)
}

// SearchContext is Search under ctx: once ctx is done it stops at its next
// look (between parsing, ranking and each signature rendered) and returns
// ctx's cause. Its inputs are bounded (MaxQueryBytes, MaxQueryWords,
// MaxSelectNames) and its work is linear in the query, so the looks come
// at short intervals.
func (x *Index) SearchContext(ctx context.Context, args json.RawMessage) (Result, error) {
	if ctx.Err() != nil {
		return Result{}, context.Cause(ctx)
	}
	q, err := x.args.parse(args)
	if err != nil {
		return Result{}, err
	}
	ids, total := x.find(q)
	return x.result(ctx, ids, total)
}

// result is the Result of the tools ids, found among total, under ctx.
func (x *Index) result(ctx context.Context, ids []int32, total int) (Result, error) {
	res := Result{Matches: make([]Match, len(ids)), Total: total}
	for i, id := range ids {
		if ctx.Err() != nil {
			return Result{}, context.Cause(ctx)
		}
		t := x.entry(id).tool
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
	if list, ok := selectList(q.text); ok {
		ids := x.selectNames(list)
		return ids, len(ids)
	}
	text := strings.TrimSpace(q.text)
	if text == "" {
		s := &scores{x: x, plan: &plan{}}
		return topBy(x.all(), q.limit, s.compare), x.live
	}
	s := x.score(text, nil)
	defer s.release()
	return s.best(q.limit), len(s.hits)
}

// all lists every tool's id.
func (x *Index) all() []int32 {
	out := make([]int32, 0, x.live)
	for _, g := range x.groups {
		out = append(out, g.ids...)
	}
	return out
}

// selectNames returns the named tools in the caller's order, each once;
// unknown names are dropped (SRCH-4). A name is a tool's full name.
func (x *Index) selectNames(list string) []int32 {
	out := []int32{}
	for _, n := range strings.Split(list, ",") {
		lower := strings.ToLower(strings.TrimSpace(n))
		ids, _ := x.names.get(lower)
		for _, id := range ids {
			if x.entry(id).lower == lower && !slices.Contains(out, id) {
				out = append(out, id)
				break
			}
		}
	}
	return out
}
