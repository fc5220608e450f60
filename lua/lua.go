package lua

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/execlua/execlua/internal/luavm"
	glua "github.com/yuin/gopher-lua"
)

// ErrNotData is wrapped by every refusal to convert a value that is not
// plain data.
var ErrNotData = luavm.ErrNotData

// ValueError says which part of a value could not be converted, as a path
// in Lua syntax: result[2].items[3].cb.
type ValueError = luavm.ValueError

// ErrCrashed is wrapped when a Go function of the environment panicked;
// the state is thrown away.
var ErrCrashed = errors.New("the Lua environment crashed")

// ScriptError is a script that did not compile or ended with an error.
type ScriptError struct {
	Message string
}

func (e *ScriptError) Error() string { return e.Message }

// Options bounds one run. Nil or zero fields give the defaults.
type Options struct {
	// MaxStringBytes is the longest string a builtin or the `..` operator
	// may build (default 4 MiB).
	MaxStringBytes int
	// MaxCoroutines is how many coroutines the script may create (default
	// 2,000).
	MaxCoroutines int
	// Print receives each line the script prints. Nil discards them.
	Print func(line string)
	// Globals are set before the script starts, each converted from a Go
	// value as encoding/json would decode it.
	Globals map[string]any
}

// Run compiles and runs code in a fresh state and returns the values it
// returned, each as JSON. It stops when ctx is done.
func Run(ctx context.Context, code string, opts *Options) ([]json.RawMessage, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	script, err := luavm.CompileContext(ctx, code)
	if err != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, &ScriptError{Message: err.Error()}
	}
	var crash error
	st := luavm.New(&luavm.Options{
		MaxStringBytes: o.MaxStringBytes,
		MaxCoroutines:  o.MaxCoroutines,
		Print: func(line string, _ int) {
			if o.Print != nil {
				o.Print(line)
			}
		},
		OnCrash: func(err error) { crash = fmt.Errorf("%w: %w", ErrCrashed, err) },
	})
	defer st.Close()
	// The context goes on before any coroutine exists: gopher-lua gives
	// each new thread a child of its creator's context.
	st.L.SetContext(ctx)
	st.InstallPrelude(noTools)
	for _, name := range slices.Sorted(maps.Keys(o.Globals)) {
		v, err := luavm.FromGo(st.L, o.Globals[name])
		if err != nil {
			return nil, fmt.Errorf("global %s cannot be converted: %w", name, err)
		}
		st.L.SetGlobal(name, v)
	}
	fn, args := st.Load(script)
	th, cancel := st.L.NewThread()
	cancel()
	th.SetContext(ctx)
	st.SetMain(th)
	for {
		state, err, _ := st.L.Resume(th, fn, args...)
		if crash != nil {
			return nil, crash
		}
		switch state {
		case glua.ResumeOK:
			return results(st)
		case glua.ResumeError:
			if ctx.Err() != nil {
				return nil, context.Cause(ctx)
			}
			msg, err := st.ErrorMessage(th, err, st.MaxStringBytes())
			if err != nil {
				return nil, err
			}
			return nil, &ScriptError{Message: script.Explain(msg)}
		}
		// With no tools, a yield can only come from the main chunk, which
		// C Lua refuses; the prelude's yield turns this answer into that
		// error.
		args = []glua.LValue{st.YieldError()}
	}
}

// noTools is a host that knows no tool: tools is an empty table.
var noTools = luavm.Host{
	Known: func(string) bool { return false },
	Submit: func(*glua.LState, string, glua.LValue) (int, error) {
		return 0, errors.New("no tools are available")
	},
	Perform: func([]int) {},
	Collect: func(*glua.LState, int) (glua.LValue, error) {
		return glua.LNil, errors.New("no tools are available")
	},
}

func results(st *luavm.State) ([]json.RawMessage, error) {
	values, _ := st.Results()
	out := make([]json.RawMessage, len(values))
	for i, v := range values {
		raw, err := luavm.ToJSON(st.L, v, nil, "result["+strconv.Itoa(i+1)+"]", st.MaxStringBytes())
		if err != nil {
			return nil, err
		}
		out[i] = raw
	}
	return out, nil
}
