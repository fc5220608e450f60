package host

import (
	"context"
	"sync"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host/servers"
)

// ToolProgress is one progress notification an MCP server sent about a
// nested call.
type ToolProgress = servers.Progress

// WithProgress returns a context whose MCP calls ask their server for
// progress and pass each notification to fn, in order, as it arrives (fn
// must return quickly). A gateway forwards them to its client with it;
// RunExec feeds them into RunOptions.Progress on its own.
func WithProgress(ctx context.Context, fn func(ToolProgress)) context.Context {
	return servers.WithProgress(ctx, fn)
}

// liveProgress makes the servers' progress part of a run's live summary:
// the summary the run last gave, plus a line with the call's progress
// ("mcp__fs__index: 3/10 scanning"). Summaries and progress are passed on
// one at a time, as both come from different goroutines.
func liveProgress(ctx context.Context, opts *execlua.RunOptions) (context.Context, *execlua.RunOptions) {
	if opts == nil || opts.Progress == nil {
		return ctx, opts
	}
	var mu sync.Mutex
	last := ""
	show := opts.Progress
	o := *opts
	o.Progress = func(summary string) {
		mu.Lock()
		defer mu.Unlock()
		last = summary
		show(summary)
	}
	ctx = WithProgress(ctx, func(p ToolProgress) {
		mu.Lock()
		defer mu.Unlock()
		show(last + "\n" + execlua.MCPPrefix + p.Server + "__" + p.Tool + ": " + p.String())
	})
	return ctx, &o
}
