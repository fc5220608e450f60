package host_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/internal/fixture"
	"github.com/execlua/execlua/host/settings"
	"github.com/mark3labs/mcp-go/server"
)

// BenchmarkNestedCall is one nested call through the whole host: the
// sandbox, the funnel (lookup, permission check, hook lookup), mcp-go's
// client and transport, and the fixture server answering with structured
// content. Reported per call; the sandbox alone is sandbox's
// BenchmarkNestedCall.
func BenchmarkNestedCall(b *testing.B) {
	for _, tc := range []struct {
		name string
		opts func(b *testing.B) host.Options
	}{
		{"in-process", func(*testing.B) host.Options {
			return host.Options{InProcess: map[string]*server.MCPServer{"fx": fixture.New(false).Server}}
		}},
		{"stdio", func(b *testing.B) host.Options {
			return host.Options{Servers: map[string]host.ServerConfig{"fx": stdioConfig(b)}}
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			o := tc.opts(b)
			o.NoWatch = true
			o.Managed = &settings.File{Permissions: settings.Permissions{Allow: []string{"mcp__fx"}}}
			h, err := host.New(context.Background(), &o)
			if err != nil {
				b.Fatal(err)
			}
			defer h.Close()
			s, err := h.NewSession(&execlua.Options{Limits: execlua.Limits{MaxCalls: 1000}})
			if err != nil {
				b.Fatal(err)
			}
			const calls = 100
			input, _ := json.Marshal(map[string]string{"code": `for i = 1, 100 do local r = tools.mcp__fx__structured{ i = i }; assert(r.value == 42) end`})
			for b.Loop() {
				if res := h.RunExec(b.Context(), s, input, nil); res.IsError {
					b.Fatal(res.Text)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/calls, "ns/call")
		})
	}
}
