package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/execlua/execlua"
)

func main() {
	// Under --isolation process, this binary is also the worker that runs
	// a script: it is started again as one, and serves that run only.
	if execlua.IsWorker() {
		os.Exit(execlua.ServeWorker())
	}
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK     = 0
	exitFailed = 1 // the script failed (or a replay missed a call)
	exitUsage  = 2 // bad flags, arguments, files or settings
)

// run is the whole program: it parses args, runs one command and returns
// the exit status. Nothing below it exits or writes to the process's own
// streams, so tests can drive it in process as well as through the binary.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	app := newApp(stdin, stdout, stderr)
	err := app.RunContext(ctx, flagsFirst(app, args))
	return exitStatus(err, stderr)
}

// cliError is an error with its exit status and a hint saying what to do.
type cliError struct {
	status int
	err    error
	hint   string
}

func (e *cliError) Error() string { return e.err.Error() }
func (e *cliError) Unwrap() error { return e.err }

// usageErr is a usage or configuration error (exit status 2).
func usageErr(hint string, format string, args ...any) error {
	return &cliError{status: exitUsage, err: fmt.Errorf(format, args...), hint: hint}
}

// errScriptFailed ends a command whose output already said what failed.
var errScriptFailed = &cliError{status: exitFailed, err: errors.New("the script failed")}

// exitStatus prints err as one line plus a hint and maps it to a status.
func exitStatus(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	if err == errScriptFailed {
		return exitFailed
	}
	var ce *cliError
	if !errors.As(err, &ce) {
		// urfave/cli's own errors: an unknown flag, a bad value.
		ce = &cliError{status: exitUsage, err: err, hint: "see 'execlua --help' or 'execlua COMMAND --help'"}
	}
	fmt.Fprintf(stderr, "execlua: %s\n", firstLine(ce.err.Error()))
	if ce.hint != "" {
		fmt.Fprintf(stderr, "hint: %s\n", ce.hint)
	}
	return ce.status
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:  "execlua",
		Usage: "run Lua scripts against MCP servers the way the Exec tool runs them",
		Description: `Example:
   execlua demo
   execlua run --demo script.lua`,
		Reader:          stdin,
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		Version:         version,
		Commands: commands(
			runCommand(),
			checkCommand(),
			toolsCommand(),
			searchCommand(),
			typesCommand(),
			serveCommand(),
			demoCommand(),
		),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErr("the commands are run, check, tools, search, types, serve and demo; see 'execlua --help'", "unknown command %q", c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
		OnUsageError: onUsageError,
		// Errors come back from Run; exitStatus prints them once.
		ExitErrHandler: func(*cli.Context, error) {},
	}
}

// commands gives every command the app's handling of usage errors: one
// line and a hint, in place of urfave/cli's help dump.
func commands(cmds ...*cli.Command) []*cli.Command {
	for _, c := range cmds {
		c.OnUsageError = onUsageError
		c.HideHelpCommand = true
	}
	return cmds
}

func onUsageError(c *cli.Context, err error, _ bool) error {
	hint := "see 'execlua --help'"
	flags := c.App.Flags
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != c.App.Name {
		hint = "see 'execlua " + c.Command.Name + " --help'"
		flags = c.Command.Flags
	}
	if m := badValue.FindStringSubmatch(err.Error()); m != nil {
		if want := expected(flags, m[2]); want != "" {
			return usageErr(hint, "--%s wants %s, not %q", m[2], want, m[1])
		}
	}
	return usageErr(hint, "%v", err)
}

// badValue is urfave/cli's error for a flag value that does not parse,
// which says only "parse error".
var badValue = regexp.MustCompile(`^invalid value "(.*)" for flag -([\w-]+): `)

// expected says what a flag's value must look like.
func expected(flags []cli.Flag, name string) string {
	for _, f := range flags {
		if !slices.Contains(f.Names(), name) {
			continue
		}
		switch f.(type) {
		case *cli.DurationFlag:
			return "a duration with a unit (500ms, 2s, 1m)"
		case *cli.IntFlag:
			return "a whole number"
		}
	}
	return ""
}
