package execlua

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/execlua/execlua/announce"
)

// Non-functional: many runs proceed at once, each on its own Lua state,
// while the host reloads settings, servers come and go and requests are
// assembled. Run under -race.
func TestConcurrentRunsAndReloads(t *testing.T) {
	f := &fakeFunnel{}
	s := newSession(t, f, &Options{Tools: with(builtins(), githubTools())})
	script := input(`local a, b = tools.parallel(
  function() return tools.WebFetch{ n = 1 } end,
  function() return tools.TaskCreate{ n = 2 } end)
return a .. "|" .. b`)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 10 {
				var last string
				res := s.Run(t.Context(), script, &RunOptions{Progress: func(summary string) { last = summary }})
				switch {
				case errors.Is(res.Err, ErrUnavailable):
				case res.IsError:
					t.Errorf("run failed: %s", res.Text)
				case res.Text != `WebFetch {"n":1}|TaskCreate {"n":2}` || last != res.Summary:
					t.Errorf("run: text %q, last live summary %q, summary %q", res.Text, last, res.Summary)
				}
			}
		})
	}
	wg.Go(func() {
		var history []announce.Message
		for i := range 40 {
			if err := s.SetSettings(Settings{Local: Layer{EnableExec: ptr(i%3 != 0)}}); err != nil {
				t.Error(err)
			}
			tools := builtins()
			if i%2 == 0 {
				tools = with(tools, githubTools())
			}
			if err := s.SetTools(tools); err != nil {
				t.Error(err)
			}
			if r := s.Request(history); r.Announcement != nil {
				history = append(history, announce.Message{IsMeta: true, Text: r.Announcement.Text})
			}
			history = append(history, announce.Message{Text: fmt.Sprint("turn ", i)})
		}
	})
	wg.Wait()
}
