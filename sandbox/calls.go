package sandbox

import (
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/execlua/execlua/lua"
	glua "github.com/yuin/gopher-lua"
)

// pending is one submitted nested call. A call refused before it reaches
// the host is born done.
type pending struct {
	call Call
	done bool
	out  Output
	err  error
}

func (r *run) known(name string) bool {
	_, ok := r.tools[name]
	return ok
}

// submit converts a call's arguments and records the call. A name outside
// the pool (ORCH-4) and arguments that are not plain data are refused
// here, before anything reaches the host, and are not calls: they are not
// recorded and do not count. Everything else counts, refused or not.
func (r *run) submit(L *glua.LState, name string, args glua.LValue) (int, error) {
	tool, known := r.tools[name]
	if !known && name != SearchName {
		return 0, r.refuse(&UnknownToolError{Name: name})
	}
	schemaJSON := tool.InputSchema
	if name == SearchName {
		schemaJSON = r.req.SearchSchema
	}
	encoded, err := r.encodeArgs(L, name, schemaJSON, args)
	if err != nil {
		return 0, r.refuse(err)
	}
	r.calls = append(r.calls, name)
	if r.req.OnCall != nil {
		r.req.OnCall(name)
	}
	r.nextID++
	p := &pending{call: Call{Name: name, Args: encoded}}
	r.pending[r.nextID] = p
	switch {
	case len(r.calls) > r.opts.MaxCalls:
		p.done, p.err = true, &CallLimitError{Limit: r.opts.MaxCalls}
	case name == SearchName:
		p.done = true
		if r.req.Search == nil {
			p.err = fmt.Errorf("tools.%s is not available in this session", SearchName)
			break
		}
		res, err := r.req.Search(encoded)
		p.out, p.err = Output{Structured: res}, err
	}
	return r.nextID, nil
}

// refuse remembers an error handed to the script, so that the error the
// script ends with can be traced back to it (errors.Is through Lua).
func (r *run) refuse(err error) error {
	r.callErrs = append(r.callErrs, err)
	return err
}

func (r *run) encodeArgs(L *glua.LState, name string, schemaJSON []byte, args glua.LValue) ([]byte, error) {
	switch args.(type) {
	case *glua.LNilType:
		return []byte("{}"), nil
	case *glua.LTable:
	default:
		return nil, fmt.Errorf("tools.%s expects one table of arguments (or nothing), got a %s", name, args.Type())
	}
	schema, ok := r.schemas[name]
	if !ok {
		// A schema that does not parse only loses the empty-array rule.
		schema, _ = lua.ParseSchema(schemaJSON)
		r.schemas[name] = schema
	}
	return lua.ToJSON(L, args, schema, "args", r.opts.MaxStringBytes)
}

// perform carries out the calls of one yield, concurrently, with the
// budget clock stopped (the driver paused it). Calls get the run's own
// context, so they are cancelled whenever the run stops. perform returns
// early when the run is stopped (the caller cancelled, a crash) or the
// nested-wait cap is reached; the VM then fails at its next instruction.
func (r *run) perform(ids []int) {
	var todo []*pending
	for _, id := range ids {
		if p := r.pending[id]; p != nil && !p.done {
			todo = append(todo, p)
		}
	}
	if len(todo) == 0 {
		return
	}
	var limit <-chan time.Time
	if r.opts.MaxNestedWait > 0 {
		timer := time.NewTimer(r.opts.MaxNestedWait - r.waited)
		defer timer.Stop()
		limit = timer.C
	}
	started := time.Now()
	defer func() { r.waited += time.Since(started) }()

	results := make([]pending, len(todo))
	finished := make(chan struct{}, len(todo))
	for i, p := range todo {
		go func() {
			defer func() {
				if v := recover(); v != nil {
					r.stop(fmt.Errorf("%w: the funnel panicked on %s: %v\n%s", ErrCrashed, p.call.Name, v, debug.Stack()))
				}
				finished <- struct{}{}
			}()
			results[i].out, results[i].err = r.req.Funnel.Call(r.budget, p.call)
		}()
	}
	for range todo {
		select {
		case <-finished:
		case <-r.budget.Done():
			return
		case <-limit:
			r.stop(&NestedWaitError{Limit: r.opts.MaxNestedWait})
			return
		}
	}
	for i, p := range todo {
		p.done, p.out, p.err = true, results[i].out, results[i].err
	}
}

// performNow is perform for a call made where no yield can reach the
// driver: the VM is blocked in a Go frame, so the clock is stopped here.
func (r *run) performNow(ids []int) {
	r.clock.pause()
	defer r.clock.start()
	r.perform(ids)
	if err := r.stopReason(); err != nil {
		r.st.L.RaiseError("%s", err.Error())
	}
}

// collect hands a performed call's output to the script: structured
// content as a table when present, else the text blocks joined, else nil.
func (r *run) collect(L *glua.LState, id int) (glua.LValue, error) {
	p := r.pending[id]
	delete(r.pending, id)
	if p == nil || !p.done {
		return glua.LNil, fmt.Errorf("the call was not performed")
	}
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
	case len(p.out.Structured) > 0:
		v, err := lua.FromJSON(L, p.out.Structured)
		if err != nil {
			return glua.LNil, fmt.Errorf("%s returned structured content that is not valid JSON", p.call.Name)
		}
		return v, nil
	case len(p.out.Text) > 0:
		return glua.LString(strings.Join(p.out.Text, "\n")), nil
	}
	return glua.LNil, nil
}
