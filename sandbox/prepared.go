package sandbox

import (
	"sync"

	"github.com/execlua/execlua/internal/luavm"
)

// DefaultPreparedStates is how many Lua states the process keeps prepared
// ahead of runs unless SetPreparedStates says otherwise.
const DefaultPreparedStates = 2

// SetPreparedStates sets how many Lua states the process keeps prepared
// ahead of runs, off the request's path: each has the libraries and the
// prelude installed (about 40 KiB of heap; see the README), and is handed
// to one run and never reused. A run that finds none ready prepares its
// own. A taken state is replaced by a goroutine that prepares one and
// ends. 0 keeps none; the default is DefaultPreparedStates.
func SetPreparedStates(n int) {
	prepared.mu.Lock()
	prepared.want = max(n, 0)
	for len(prepared.ready) > prepared.want {
		last := len(prepared.ready) - 1
		prepared.ready[last].Close()
		prepared.ready = prepared.ready[:last]
	}
	prepared.mu.Unlock()
	prepared.refill()
}

// preparedStates are the states made ahead of runs.
type preparedStates struct {
	mu     sync.Mutex
	want   int
	ready  []*luavm.State
	making int // being prepared
	// made is signalled whenever a state is ready, for the benchmarks
	// that measure a run with the states warm (waitReady).
	made *sync.Cond
}

var prepared = func() *preparedStates {
	p := &preparedStates{want: DefaultPreparedStates}
	p.made = sync.NewCond(&p.mu)
	return p
}()

// take returns a prepared state, or a fresh one when none is ready, and
// has the states taken replaced in the background.
func (p *preparedStates) take() *luavm.State {
	p.mu.Lock()
	var st *luavm.State
	if n := len(p.ready); n > 0 {
		st = p.ready[n-1]
		p.ready = p.ready[:n-1]
	}
	p.mu.Unlock()
	p.refill()
	if st == nil {
		st = luavm.Prepare()
	}
	return st
}

// refill has the states missing prepared, each by a goroutine of its own.
func (p *preparedStates) refill() {
	p.mu.Lock()
	short := p.want - len(p.ready) - p.making
	p.making += max(short, 0)
	p.mu.Unlock()
	for range short {
		go p.prepare()
	}
}

// prepare makes one state ready. Preparing is the same for every state,
// so a panic here would have been a panic of the run's: the state is
// dropped and the run that takes none prepares its own, as a crash.
func (p *preparedStates) prepare() {
	var st *luavm.State
	defer func() {
		recover()
		p.mu.Lock()
		defer p.mu.Unlock()
		p.making--
		if st != nil && len(p.ready) < p.want {
			p.ready = append(p.ready, st)
			p.made.Broadcast()
		} else if st != nil {
			st.Close()
		}
	}()
	st = luavm.Prepare()
}

// waitReady waits until the wanted states are all prepared.
func (p *preparedStates) waitReady() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.ready) < p.want && p.making > 0 {
		p.made.Wait()
	}
}
