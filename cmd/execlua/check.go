package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/execlua/execlua/preflight"
	"github.com/execlua/execlua/search"
)

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "check a script's literal calls against the tools, without running it",
		ArgsUsage: "SCRIPT|-",
		Description: `Reads the script (a file, or - for stdin) once, as preflight does before a
run, and reports every call written out literally that cannot work: a tool
the script cannot reach (with the nearest names), a missing required
argument, one the tool does not take, a literal of the wrong type or a value
its enum does not allow, arguments that are not one table, a call with a
colon. Nothing is called. Exit status: 0 no problem found, 1 problems
(listed on stdout), 2 usage or configuration error.

Example:
   execlua check --demo script.lua
   execlua check --settings .claude/settings.json - < script.lua`,
		Flags:  withCommon(jsonFlag),
		Action: checkAction,
	}
}

// checkOutput is check --json's shape.
type checkOutput struct {
	OK       bool                `json:"ok"`
	Problems []preflight.Problem `json:"problems"`
}

func checkAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return usageErr("give one script file, or - for stdin, after the flags: execlua check script.lua", "check needs exactly one SCRIPT, got %d arguments", c.NArg())
	}
	code, err := readScript(c.Args().First(), c.App.Reader)
	if err != nil {
		return err
	}
	env, err := openHost(c, hostSetup{prompter: newPrompter(c)})
	if err != nil {
		return err
	}
	defer env.close()
	pool := env.session.Request(nil).Assembly.Pool()
	checker := preflight.New(pool, &preflight.Options{SearchSchema: json.RawMessage(search.InputSchema)})
	out := checkOutput{OK: true, Problems: []preflight.Problem{}}
	var pe *preflight.Error
	if err := checker.Check(c.Context, code); errors.As(err, &pe) {
		out = checkOutput{Problems: pe.Problems}
	}
	if c.Bool("json") {
		if err := writeJSON(c.App.Writer, out); err != nil {
			return err
		}
	} else if out.OK {
		fmt.Fprintf(c.App.Writer, "No problems found in the literal calls (%d tools reachable).\n", len(pool))
	} else {
		fmt.Fprintf(c.App.Writer, "%d of the script's calls cannot work as written:\n", len(out.Problems))
		for _, p := range out.Problems {
			fmt.Fprintln(c.App.Writer, p)
		}
	}
	if !out.OK {
		return errScriptFailed
	}
	return nil
}
