package serve

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// ErrBusy is an Exec call turned away because too many runs are in flight:
// the client's own, or all clients' together.
var ErrBusy = errors.New("too many Exec runs at once")

// ErrShuttingDown is an Exec call turned away, or a run cancelled, because
// the server is shutting down (Drain).
var ErrShuttingDown = errors.New("the server is shutting down")

// BusyError says which cap turned a call away.
type BusyError struct {
	// PerClient is set when the client's own cap did, else the cap of all
	// clients together did.
	PerClient bool
	Limit     int
}

func (e *BusyError) Error() string {
	if e.PerClient {
		return fmt.Sprintf("too many Exec runs at once: this client already has %d in flight, the most one client may have; wait for one to finish and call again", e.Limit)
	}
	return fmt.Sprintf("too many Exec runs at once: the server already has %d in flight, the most it takes from all its clients; call again shortly", e.Limit)
}

func (e *BusyError) Unwrap() error { return ErrBusy }

// runs are the Exec runs in flight: it enforces the caps and drains them
// at shutdown.
type runs struct {
	max, perClient int

	mu       sync.Mutex
	byClient map[string]int
	cancels  map[*runToken]context.CancelCauseFunc
	draining bool
	idle     chan struct{} // closed once draining and no run is left
}

type runToken struct{ key string }

func newRuns(max, perClient int) *runs {
	return &runs{max: max, perClient: perClient, byClient: map[string]int{}, cancels: map[*runToken]context.CancelCauseFunc{}, idle: make(chan struct{})}
}

// start admits a run of the client key, or says why not. The run's
// context is cancelled, with ErrShuttingDown as its cause, when a drain
// gives up waiting; end must be called when the run is over.
func (r *runs) start(ctx context.Context, key string) (context.Context, func(), error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.draining:
		return nil, nil, ErrShuttingDown
	case r.perClient > 0 && r.byClient[key] >= r.perClient:
		return nil, nil, &BusyError{PerClient: true, Limit: r.perClient}
	case r.max > 0 && len(r.cancels) >= r.max:
		return nil, nil, &BusyError{Limit: r.max}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	tok := &runToken{key: key}
	r.byClient[key]++
	r.cancels[tok] = cancel
	return ctx, func() { r.end(tok) }, nil
}

func (r *runs) end(tok *runToken) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cancels[tok](nil)
	delete(r.cancels, tok)
	if r.byClient[tok.key]--; r.byClient[tok.key] == 0 {
		delete(r.byClient, tok.key)
	}
	if r.draining && len(r.cancels) == 0 {
		close(r.idle)
	}
}

// inFlight counts the runs in flight.
func (r *runs) inFlight() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.cancels)
}

func (r *runs) isDraining() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.draining
}

// drain refuses new runs, waits for those in flight until ctx ends, then
// cancels the rest and waits for them to return. It reports how many runs
// it had to cancel.
func (r *runs) drain(ctx context.Context) int {
	r.mu.Lock()
	if !r.draining {
		r.draining = true
		if len(r.cancels) == 0 {
			close(r.idle)
		}
	}
	r.mu.Unlock()
	select {
	case <-r.idle:
		return 0
	case <-ctx.Done():
	}
	r.mu.Lock()
	cancelled := len(r.cancels)
	for _, cancel := range r.cancels {
		cancel(ErrShuttingDown)
	}
	r.mu.Unlock()
	<-r.idle
	return cancelled
}
