package execlua_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/execlua/execlua"
)

// Scripts run in worker processes: the host's own binary, whose main
// starts with
//
//	if execlua.IsWorker() {
//		os.Exit(execlua.ServeWorker())
//	}
//
// (here the test binary's TestMain). Results are the same as in-process;
// a run that overruns its budget or its memory cap is killed.
func ExampleIsolation() {
	workers := execlua.NewWorkerPool(nil)
	defer workers.Close()
	funnel := execlua.FunnelFunc(func(ctx context.Context, c execlua.Call) (execlua.Output, error) {
		return execlua.Output{Structured: json.RawMessage(`{"number":7}`)}, nil
	})
	issue, err := execlua.NewMCPTool("github", json.RawMessage(`{"name":"get_issue","inputSchema":{"type":"object"}}`))
	if err != nil {
		panic(err)
	}
	s, err := execlua.New(funnel, &execlua.Options{Tools: []execlua.Tool{issue}, Isolation: execlua.Process, Workers: workers})
	if err != nil {
		panic(err)
	}
	res := s.Run(context.Background(), json.RawMessage(`{"code":"return tools.mcp__github__get_issue{}.number"}`), nil)
	fmt.Println(res.Text, res.Summary)
	// Output:
	// 7 1 tool call
	// mcp__github__get_issue
}
