package worker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/execlua/execlua/sandbox"
	"github.com/execlua/execlua/sandbox/worker"
)

// A script runs in a worker process; its nested call comes back to this
// process's funnel. (The test binary serves as the worker: its TestMain
// calls IsWorker and Serve first.)
func ExamplePool_Run() {
	p := worker.New(&worker.Options{Idle: 1})
	defer p.Close()
	funnel := sandbox.FunnelFunc(func(_ context.Context, c sandbox.Call) (sandbox.Output, error) {
		return sandbox.Output{Structured: json.RawMessage(`{"greeting":"hello from the host"}`)}, nil
	})
	out := p.Run(context.Background(), sandbox.Request{
		Code:   `local r = tools.greet{} print(r.greeting) return #r.greeting`,
		Tools:  sandbox.NewToolset([]sandbox.Tool{{Name: "greet"}}),
		Funnel: funnel,
	}, &sandbox.Options{Budget: time.Second})
	fmt.Println(out.Log, out.Result, out.Calls, out.Err)
	// Output: hello from the host 19 [greet] <nil>
}
