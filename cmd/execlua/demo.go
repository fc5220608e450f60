package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
)

func demoCommand() *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "start the demo servers, show what the model sees, run a sample script",
		Description: `Starts the built-in demo servers (demo, notes, weather), prints tools[] and
the announcement a model would get, then runs a script that searches, calls
tools in parallel, handles a refused call with pcall and returns a table.
In the demo, read-only calls are allowed and every other call is refused.

Example:
   execlua demo
   make demo`,
		Flags:  withCommon(),
		Action: demoAction,
	}
}

// demoScript is what a model might write against the demo servers.
const demoScript = `-- Find the note tools without knowing their names.
local found = tools.ToolSearch{ query = "notes", max_results = 4 }
print("ToolSearch found " .. found.total .. " tools, first " .. found.matches[1].name)

-- Three calls in flight at once: two forecasts and a slow call.
local lisbon, oslo, slow = tools.parallel(
  function() return tools.mcp__weather__forecast{ city = "Lisbon", days = 2 } end,
  function() return tools.mcp__weather__forecast{ city = "Oslo", days = 2 } end,
  function() return tools.mcp__demo__sleep{ ms = 300 } end)

-- A call the user refuses: pcall catches the refusal and the script goes on.
local ok, err = pcall(tools.mcp__notes__delete_note, { id = 2 })
print(ok and "deleted note 2" or ("not deleted: " .. tostring(err)))

local work = tools.mcp__notes__list_notes{ tag = "work" }
return {
  warmer = lisbon.days[1].high > oslo.days[1].high and "Lisbon" or "Oslo",
  slept_ms = slow.slept,
  work_notes = #work.notes,
  deleted = ok,
}`

// readOnlyPrompter allows the calls of read-only tools and refuses the rest,
// saying so: the demo's stand-in for a user at the prompt.
type readOnlyPrompter struct {
	mu  sync.Mutex
	log []string
}

func (p *readOnlyPrompter) Ask(_ context.Context, q host.PermissionQuestion) (host.PermissionAnswer, error) {
	if q.Tool.Annotations.ReadOnly() {
		return host.AllowOnce, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.log = append(p.log, fmt.Sprintf("refused %s %s", q.Tool.Name, canonical(q.Args)))
	return host.Deny, nil
}

func demoAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageErr("demo takes no arguments: execlua demo", "unexpected argument %q", c.Args().First())
	}
	prompter := &readOnlyPrompter{}
	env, err := openHost(c, hostSetup{prompter: prompter, demo: true})
	if err != nil {
		return err
	}
	defer env.close()

	w := c.App.Writer
	req := env.session.Request(nil)
	fmt.Fprintln(w, "== tools[]: what every request declares")
	for _, d := range req.Tools {
		fmt.Fprintf(w, "  %-12s %s\n", d.Name, firstLine(d.Description))
	}
	fmt.Fprintln(w, "  (Exec's description in full: execlua tools --demo)")
	if req.Announcement != nil {
		fmt.Fprintln(w, "\n== The announcement appended to the conversation (names only)")
		fmt.Fprintln(w, indent(req.Announcement.Text))
	}
	fmt.Fprintln(w, "\n== A script the model writes (read-only calls are allowed, others refused)")
	fmt.Fprintln(w, indent(demoScript))

	fmt.Fprintln(w, "\n== Running it")
	live := newProgress(w)
	input, _ := json.Marshal(map[string]string{"code": demoScript, "description": "weather and notes"})
	res := env.runExec(c.Context, input, &execlua.RunOptions{Progress: live.update})
	live.done(res.Summary)
	prompter.mu.Lock()
	for _, line := range prompter.log {
		fmt.Fprintln(w, "  permission: "+line)
	}
	prompter.mu.Unlock()

	fmt.Fprintln(w, "\n== The result the model gets")
	fmt.Fprintln(w, indent(res.Text))
	fmt.Fprintln(w, "\n== What the user sees in place of the script")
	fmt.Fprintln(w, indent(execlua.CollapsedLine(input)))
	fmt.Fprintln(w, indent(strings.TrimSpace(res.Summary)))
	fmt.Fprintln(w, "\nNext: execlua run --demo script.lua, execlua search --demo QUERY, execlua --help")
	if res.IsError {
		return errScriptFailed
	}
	return nil
}
