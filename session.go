package execlua

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/execlua/execlua/announce"
	"github.com/execlua/execlua/pool"
	"github.com/execlua/execlua/preflight"
	"github.com/execlua/execlua/sandbox"
	"github.com/execlua/execlua/search"
)

// Options configure a Session. The zero value (and nil) is a session with no
// tools yet, default settings (Exec on), no guidance, the sandbox's default
// limits, an announcement channel, and no logging.
type Options struct {
	// Tools is the initial registry: builtins and the tools of the MCP
	// servers connected so far. See Session.SetTools.
	Tools []Tool
	// Exempt names builtins that are never deferred, whatever they ask:
	// the host's policy, not the core's (package host/preset has a coding
	// agent's). Exec is always exempt.
	Exempt []string
	// Settings are the initial settings. See Session.SetSettings.
	Settings Settings
	// Guidance are the system-prompt lines keyed by tool name; a request
	// carries those whose tool is available, flat or in the pool (POOL-13).
	Guidance []Guidance
	// Limits bound every Exec run; zero fields take the defaults, and
	// RunOptions adjust one run. They are never shown to the model.
	Limits Limits
	// NoChannel says the host cannot append isMeta messages to the
	// conversation and read them back. Requests then never carry an
	// announcement (BC-10).
	NoChannel bool
	// Logger receives one record per failed run; nil discards them.
	Logger *slog.Logger
	// Isolation says where scripts run: InProcess (the default) or
	// Process, in worker processes of Workers (nil: a shared default
	// pool). See Isolation and ServeWorker.
	Isolation Isolation
	Workers   *WorkerPool
	// Preflight refuses, before anything runs, a script whose literal
	// calls cannot work (package preflight): an unknown name, arguments
	// that break the tool's schema. It is off by default because the
	// contract passes arguments on unvalidated (ORCH-3) and lets an
	// unknown mcp__ name fail at its call (ORCH-4); a host whose tools
	// validate their input gains from it.
	Preflight bool
	// Semantic, when set, fuses the host's embeddings into ToolSearch's
	// lexical ranking (see NewSemantic); nil ranks lexically. Share one
	// among the sessions of one embedding model: it keeps the tools'
	// vectors.
	Semantic *Semantic
}

// Session is Exec for one conversation: it holds the registry and the
// settings, assembles each request, and runs scripts. Its methods are safe
// for concurrent use: runs proceed in parallel, each on its own Lua state,
// while tools and settings are replaced.
type Session struct {
	funnel   sandbox.Funnel
	guidance []pool.Guidance
	exempt   []string
	limits   sandbox.Options
	run      runner
	channel  bool
	log      *slog.Logger
	// preflight checks scripts before they run (Options.Preflight).
	preflight bool

	mu  sync.Mutex // serialises SetTools and SetSettings
	cur atomic.Pointer[state]
}

// state is one registry under one set of settings, assembled. It is never
// changed after it is built, so requests and runs read it without locks and
// a run keeps the pool it started with.
type state struct {
	settings Settings
	asm      *pool.Assembly   // the registry, assembled
	reach    *sandbox.Toolset // the pool, as the sandbox's reachable set
	index    *search.Index    // built with the pool, reusing the last one's unchanged servers
	semantic *search.Semantic // Options.Semantic, kept from state to state
	list     *lazyList
	// checker is preflight's, for the pool, prepared at the first run.
	checker func() *preflight.Checker
	// denied are the registry's tools the permission filter left out,
	// with who denied each (Settings.DeniedBy), found at the first run.
	denied func() map[string]string
}

// assemble assembles tools under settings from scratch, with exempt the
// host's names that are never deferred: what New and new settings need.
// prev is the state it replaces (nil for the first).
func assemble(tools []pool.Tool, settings Settings, exempt []string, prev *state) (*state, error) {
	asm, err := pool.Assemble(tools, Declaration(), settings.poolOptions(exempt))
	if err != nil {
		return nil, err
	}
	return derive(asm, settings, prev), nil
}

// derive is the state of asm. What it holds per pool tool follows what
// changed since prev: after a Reassemble, the servers that joined, left
// or changed are indexed and prepared again and nothing else; after a
// full assembly the index and the reachable set still reuse every
// unchanged server and tool. Either way a server connecting costs that
// server's indexing and preparing, never a script's budget. The
// announcement is rendered at the first request that needs it, preflight's
// checker at the first run that needs it, and both are kept while the
// pool does not change.
func derive(asm *pool.Assembly, settings Settings, prev *state) *state {
	st := &state{settings: settings, asm: asm}
	if prev != nil {
		st.semantic = prev.semantic
	}
	change, known := asm.PoolChange()
	switch {
	case prev == nil:
		st.index = search.NewIndex(nil).Update(asm.Pool())
		st.reach = sandbox.NewToolset(reachable(asm.Pool()))
	case known:
		st.index = prev.index
		for _, server := range change.Servers {
			st.index = st.index.WithServer(server, asm.PoolOf(server))
		}
		st.reach = prev.reach.With(reachable(change.Joined), change.Left)
	default:
		st.index = prev.index.Update(asm.Pool())
		st.reach = prev.reach.Update(reachable(asm.Pool()))
	}
	if known && len(change.Servers) == 0 {
		st.list, st.checker = prev.list, prev.checker
	} else {
		st.list = &lazyList{render: func() *announce.List { return announce.NewList(asm.PoolNames()) }}
		if known {
			st.list.follow(prev.list, change)
		}
		st.checker = sync.OnceValue(func() *preflight.Checker {
			return preflight.New(asm.Pool(), &preflight.Options{SearchSchema: json.RawMessage(search.InputSchema)})
		})
	}
	st.denied = sync.OnceValue(func() map[string]string { return deniedBy(asm.Denied(), settings) })
	return st
}

// lazyList is a state's announcement, rendered at the first request that
// needs it: from the last state's, changed, when that one was rendered.
type lazyList struct {
	once   sync.Once
	list   atomic.Pointer[announce.List]
	render func() *announce.List
}

func (l *lazyList) get() *announce.List {
	l.once.Do(func() {
		l.list.Store(l.render())
		l.render = nil // what it held: the pool's change, the state before
	})
	return l.list.Load()
}

// follow renders l from last changed, when last was rendered.
func (l *lazyList) follow(last *lazyList, change pool.PoolChange) {
	if list := last.list.Load(); list != nil {
		l.render = func() *announce.List { return list.With(pool.Names(change.Joined), change.Left) }
	}
}

// deniedBy maps each tool the permission filter left out (the assembly's
// verdict, not the filter run again) to who denied it; nil when the
// settings cannot say.
func deniedBy(names []string, settings Settings) map[string]string {
	if settings.DeniedBy == nil || len(names) == 0 {
		return nil
	}
	denied := make(map[string]string, len(names))
	for _, name := range names {
		denied[name] = settings.DeniedBy(name)
	}
	return denied
}

// reachable is how the sandbox sees pool tools.
func reachable(tools []pool.Tool) []sandbox.Tool {
	out := make([]sandbox.Tool, len(tools))
	for i, t := range tools {
		out[i] = sandbox.Tool{Name: t.Name, InputSchema: t.InputSchema}
	}
	return out
}

// search answers tools.ToolSearch over this state's pool. It goes through
// no funnel: searching reads the catalogue, it calls no tool.
func (st *state) search(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
	res, err := st.semantic.Search(ctx, st.index, args)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

// New returns a session whose nested calls go through funnel, the host's
// one way of performing a tool call (permission check, hooks, execution).
// It fails if funnel is nil or the initial tools and settings do not
// assemble (see pool.Assemble).
func New(funnel Funnel, opts *Options) (*Session, error) {
	if funnel == nil {
		return nil, errors.New("execlua: New needs a funnel to perform nested calls")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	exempt := slices.Clone(o.Exempt)
	st, err := assemble(o.Tools, o.Settings.clone(), exempt, nil)
	if err != nil {
		return nil, err
	}
	run, err := o.runner()
	if err != nil {
		return nil, err
	}
	s := &Session{
		funnel:    funnel,
		guidance:  slices.Clone(o.Guidance),
		exempt:    exempt,
		limits:    o.Limits,
		run:       run,
		channel:   !o.NoChannel,
		log:       o.Logger,
		preflight: o.Preflight,
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	st.semantic = o.Semantic
	s.cur.Store(st)
	return s, nil
}

// SetTools replaces the registry: builtins and the tools of every MCP server
// connected now, in the order tools[] should list the flat ones. Call it
// whenever a server connects, disconnects or changes its tool list. Only
// the pool, and with it the next announcement, changes; Exec's declaration
// does not (POOL-8, BC-11). An Exec run already under way keeps the pool it
// started with; the next run reaches the new one (POOL-10). If the tools do
// not assemble (an empty or repeated name, a pool tool named ToolSearch or
// parallel) the registry is left as it was and the error says why.
//
// Its cost follows what changed: a server joining, leaving or changing its
// list costs that server's tools, and the same tools again cost one
// comparison. The permission filter is consulted for changed tools only;
// a host whose rules changed calls SetSettings or Update.
func (s *Session) SetTools(tools []Tool) error {
	return s.update(func(st *state) (*state, error) {
		asm, err := st.asm.Reassemble(tools)
		if err != nil || asm == st.asm {
			return st, err
		}
		return derive(asm, st.settings, st), nil
	})
}

// SetSettings replaces the settings after a reload: enableExec, the
// non-deferred lists and the permission filter take effect at the next
// request and the next run (FLAG-5). If the registry does not assemble
// under them, the settings are left as they were and the error says why.
func (s *Session) SetSettings(settings Settings) error {
	return s.update(func(st *state) (*state, error) {
		return assemble(st.asm.Registered(), settings.clone(), s.exempt, st)
	})
}

// Update replaces the registry and the settings at once, with one
// reassembly where SetTools and SetSettings in turn make two: what a host
// calls when it hands over both after any change. If they do not assemble,
// both are left as they were and the error says why.
func (s *Session) Update(tools []Tool, settings Settings) error {
	return s.update(func(st *state) (*state, error) {
		return assemble(tools, settings.clone(), s.exempt, st)
	})
}

func (s *Session) update(next func(*state) (*state, error)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := next(s.cur.Load())
	if err != nil {
		return err
	}
	s.cur.Store(st)
	return nil
}

// Request is what the host sends with one model request, besides the
// conversation.
type Request struct {
	// Tools is tools[]: Exec first when it is declared, then the flat tools.
	// It changes only when the settings or the flat tools do, never when
	// only the pool does (BC-4, BC-11). Read-only.
	Tools []ToolDeclaration
	// Announcement, when not nil, is to be appended to the conversation as
	// an isMeta user message, text unchanged, before the request is sent
	// (BC-2). Earlier messages are never to be edited (BC-4).
	Announcement *Announcement
	// Guidance are the system-prompt lines for the tools this session can
	// use, in the order the Options gave them (POOL-13).
	Guidance []string
	// Assembly answers the host's own questions about the tools: whether a
	// tool is available (Available, which counts pool tools), and where it
	// went (Lookup). Read-only.
	Assembly *Assembly
}

// Request assembles a model request from the registry and settings as they
// are now. history is the conversation as the host will send it, after any
// compaction or rewind, converted to Message; the announcement
// decision reads only that, so a session remembers nothing of what it said
// (BC-6).
func (s *Session) Request(history []Message) *Request {
	st := s.cur.Load()
	r := &Request{Tools: st.asm.Tools, Guidance: st.asm.Guidance(s.guidance), Assembly: st.asm}
	a, ok := announce.Decide(announce.Input{
		HasChannel:  s.channel,
		History:     history,
		List:        st.list.get(),
		ExecEnabled: st.asm.Exec.Enabled(),
	})
	if ok {
		r.Announcement = &a
	}
	return r
}
