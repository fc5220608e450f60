package sandbox

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/execlua/execlua/internal/luavm"
	"github.com/execlua/execlua/internal/toolname"
	"github.com/execlua/execlua/render"
	glua "github.com/yuin/gopher-lua"
)

// pending is one submitted nested call. A call refused before it reaches
// the host is born done.
type pending struct {
	call Call
	done bool
	out  Output
	err  error
	// returned is set on the run's goroutine once the call's goroutine has
	// handed it back; a call not returned when the run stops is abandoned.
	returned bool
}

func (r *run) known(name string) bool {
	return r.req.Tools.lookup(name) != nil
}

// maxSuggestions bounds the names one error suggests.
const maxSuggestions = 3

// suggest returns the MCP tools a script may have meant by calling name,
// a tool's own name without its mcp__<server>__ prefix (any case), as
// models write it from a server's documentation: tools.list_notes for
// mcp__notes__list_notes.
func (r *run) suggest(name string) []string {
	var meant []string
	suffix := "__" + strings.ToLower(name)
	for _, t := range r.req.Tools.Tools() {
		// A server's name may hold __ too: the tool's own name is the end.
		if rest, ok := strings.CutPrefix(t.Name, toolname.MCPPrefix); ok && strings.HasSuffix(strings.ToLower(rest), suffix) {
			meant = append(meant, t.Name)
		}
	}
	slices.Sort(meant)
	return meant[:min(len(meant), maxSuggestions)]
}

// submit converts a call's arguments and records the call. A name outside
// the pool (ORCH-4) is refused here, before anything reaches the host, and
// is recorded and counts, as a refused call does (SUM-7). Arguments that
// are not plain data are refused here too and are not calls: they are not
// recorded and do not count. Everything else counts, refused or not.
func (r *run) submit(L *glua.LState, name string, args glua.LValue) (int, error) {
	var tool *toolEntry // nil for ToolSearch
	if name != SearchName {
		if tool = r.req.Tools.lookup(name); tool == nil {
			r.record(name)
			if r.req.OnCall != nil {
				r.req.OnCall(name)
			}
			return 0, r.refuse(&UnknownToolError{Name: name, DeniedBy: r.req.Denied[name]})
		}
	}
	encoded, err := r.encodeArgs(L, name, tool, args)
	if err != nil {
		return 0, r.refuse(err)
	}
	r.record(name)
	if r.req.OnCall != nil {
		r.req.OnCall(name)
	}
	r.nextID++
	p := r.newPending()
	p.call = Call{Name: name, Args: encoded}
	r.keep(r.nextID, p)
	switch {
	case len(r.calls) > r.opts.MaxCalls:
		p.done, p.err = true, &CallLimitError{Limit: r.opts.MaxCalls}
	case name == SearchName:
		p.done = true
		if r.req.Search == nil {
			p.err = fmt.Errorf("tools.%s is not available in this session", SearchName)
			break
		}
		res, err := r.req.Search(r.budget, encoded)
		p.out, p.err = Output{Structured: res}, err
	}
	return r.nextID, nil
}

// record adds a call to the run's list, as an index into the names
// called: a run of many calls grows a list that holds no pointers, which
// the GC neither scans nor has to be told about when it is copied.
func (r *run) record(name string) {
	i := r.lastName
	if len(r.names) == 0 || r.names[i] != name {
		var ok bool
		if i, ok = r.nameIndex[name]; !ok {
			if r.nameIndex == nil {
				r.nameIndex = map[string]int32{}
			}
			i = int32(len(r.names))
			r.names = append(r.names, name)
			r.nameIndex[name] = i
		}
		r.lastName = i
	}
	r.calls = append(r.calls, i)
}

// callNames is the run's calls by name, in order.
func (r *run) callNames() []string {
	if len(r.calls) == 0 {
		return nil
	}
	out := make([]string, len(r.calls))
	for i, n := range r.calls {
		out[i] = r.names[n]
	}
	return out
}

// keep, find and drop hold the submitted calls by id until collected.
// The latest is held apart from the map: most calls are made one at a
// time and collected before the next, and then no map is touched.
func (r *run) keep(id int, p *pending) {
	if r.latest != nil {
		if r.pending == nil {
			r.pending = map[int]*pending{}
		}
		r.pending[r.latestID] = r.latest
	}
	r.latestID, r.latest = id, p
}

func (r *run) find(id int) *pending {
	if r.latest != nil && r.latestID == id {
		return r.latest
	}
	return r.pending[id]
}

func (r *run) drop(id int) {
	if r.latest != nil && r.latestID == id {
		r.latest = nil
		return
	}
	delete(r.pending, id)
}

// newPending and recycle keep the records of collected calls for reuse:
// most runs make their calls one after another.
func (r *run) newPending() *pending {
	if n := len(r.spare); n > 0 {
		p := r.spare[n-1]
		r.spare = r.spare[:n-1]
		return p
	}
	return &pending{}
}

func (r *run) recycle(p *pending) {
	*p = pending{}
	r.spare = append(r.spare, p)
}

// keptCallErrs bounds the errors refuse remembers: a script may catch
// refusals in a loop for as long as its budget lasts.
const keptCallErrs = 64

// refuse remembers an error handed to the script, so that the error the
// script ends with can be traced back to it (errors.Is through Lua). Only
// the latest ones are kept.
func (r *run) refuse(err error) error {
	if len(r.callErrs) == keptCallErrs {
		r.callErrs = append(r.callErrs[:0], r.callErrs[1:]...)
	}
	r.callErrs = append(r.callErrs, err)
	return err
}

func (r *run) encodeArgs(L *glua.LState, name string, tool *toolEntry, args glua.LValue) ([]byte, error) {
	call := render.CallForm(name) // copyable as written: tools["get-item"]
	switch args.(type) {
	case *glua.LNilType:
		return []byte("{}"), nil
	case *glua.LTable:
	default:
		if tool == nil { // ToolSearch, whose query is required
			return nil, fmt.Errorf("%s expects one table of arguments, got a %s: call it as %s{ query = \"...\" }", call, args.Type(), call)
		}
		return nil, fmt.Errorf("%s expects one table of arguments (or nothing), got a %s: call it as %s{ name = value, ... }", call, args.Type(), call)
	}
	var schema *luavm.Schema
	if tool != nil {
		schema = tool.schema()
	} else {
		if r.searchSchema == nil {
			r.searchSchema, _ = luavm.ParseSchema(r.req.SearchSchema)
		}
		schema = r.searchSchema
	}
	encoded, err := r.st.ToJSON(L, args, schema, "args", r.opts.MaxStringBytes)
	if err == nil && encoded[0] != '{' {
		// A sequence, or tools.null: MCP arguments are one object.
		return nil, fmt.Errorf("%s takes one table of named arguments, not a list: call it as %s{ name = value, ... }", call, call)
	}
	return encoded, err
}

// perform carries out the calls of one yield with the budget clock stopped
// (the driver paused it). Calls get the run's own context, so they are
// cancelled whenever the run stops, the nested-wait cap included. A single
// call is performed inline on the VM goroutine, in the vmCalling phase, so
// that Run's goroutine can leave it to a funnel that ignores its context
// (leave); several fan out, and perform returns early when the run is
// stopped, naming those still out as abandoned. The VM then fails at its
// next instruction.
func (r *run) perform(ids []int, paused time.Time) {
	if r.budget.Err() != nil {
		return
	}
	todo := r.todo[:0]
	for _, id := range ids {
		if p := r.find(id); p != nil && !p.done {
			todo = append(todo, p)
		}
	}
	r.todo = todo
	if len(todo) == 0 {
		return
	}
	r.callStart = paused
	if r.opts.MaxNestedWait > 0 {
		capped := time.AfterFunc(r.opts.MaxNestedWait-r.waited, func() {
			r.stop(&NestedWaitError{Limit: r.opts.MaxNestedWait})
		})
		defer capped.Stop()
	}
	if len(todo) == 1 {
		r.calling = todo[0].call.Name
		if !r.phase.CompareAndSwap(vmRunning, vmCalling) {
			return // stopped: Run waits for the VM to end
		}
		r.call(r.budget, todo[0])
		if r.back(vmCalling) {
			r.waited += time.Since(r.callStart)
		}
		return
	}
	defer func() { r.waited += time.Since(r.callStart) }()
	finished := make(chan *pending, len(todo))
	for _, p := range todo {
		go func() {
			r.call(r.budget, p)
			finished <- p
		}()
	}
	for left := len(todo); left > 0; left-- {
		select {
		case p := <-finished:
			p.returned = true
		case <-r.budget.Done():
			for _, p := range todo {
				if !p.returned {
					r.abandoned = append(r.abandoned, p.call.Name)
				}
			}
			return
		}
	}
}

// call performs one call through the funnel; a panic there is a crash.
func (r *run) call(ctx context.Context, p *pending) {
	defer func() {
		if v := recover(); v != nil {
			r.stop(fmt.Errorf("%w: the funnel panicked on %s: %v\n%s", ErrCrashed, p.call.Name, v, debug.Stack()))
			p.done, p.err = true, ErrCrashed
		}
	}()
	p.out, p.err = r.req.Funnel.Call(ctx, p.call)
	p.done = true
}

// performNow is perform for a call made where no yield can reach the
// driver: the VM is blocked in a Go frame, so the clock is stopped here.
func (r *run) performNow(ids []int) {
	paused := r.clock.pause()
	defer r.clock.start()
	r.perform(ids, paused)
	if err := r.stopReason(); err != nil {
		r.st.L.RaiseError("%s", err.Error())
	}
}

// collect hands a performed call's output to the script: structured
// content as a table when present, else the text blocks joined, else nil.
func (r *run) collect(L *glua.LState, id int) (glua.LValue, error) {
	if err := r.stopReason(); err != nil {
		// The call may have been abandoned, its goroutine still writing.
		return glua.LNil, err
	}
	p := r.find(id)
	r.drop(id)
	if p == nil || !p.done {
		return glua.LNil, fmt.Errorf("the call was not performed")
	}
	defer r.recycle(p)
	for _, img := range p.out.Images {
		if len(r.images) < r.opts.MaxImages {
			r.images = append(r.images, img)
		} else {
			r.dropped++
		}
	}
	if p.err != nil {
		return glua.LNil, r.refuse(p.err)
	}
	switch {
	case p.out.Decoded != nil:
		v, err := luavm.FromGo(L, p.out.Decoded)
		if err != nil {
			return glua.LNil, fmt.Errorf("%s: tool output cannot be converted: %w", p.call.Name, err)
		}
		return v, nil
	case len(p.out.Structured) > 0:
		v, err := r.st.FromJSON(L, p.out.Structured)
		if err != nil {
			return glua.LNil, fmt.Errorf("%s returned structured content that is not valid JSON", p.call.Name)
		}
		return v, nil
	case len(p.out.Text) > 0:
		return glua.LString(strings.Join(p.out.Text, "\n")), nil
	}
	return glua.LNil, nil
}
