package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/execlua/execlua"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run a Lua script as Exec would",
		ArgsUsage: "SCRIPT|-",
		Description: `Runs the script (a file, or - for stdin) against the configured servers.
The result text goes to stdout; the live summary of tool calls to stderr.
Calls with no matching permission rule are asked on the terminal, and denied
without one unless --yes. Exit status: 0 success, 1 failed script, 2 usage or
configuration error.

Example:
   execlua run --demo script.lua
   echo 'return tools.mcp__demo__echo{ hi = 1 }' | execlua run --demo --yes --json -
   execlua run --dry-run --record calls.json script.lua
   execlua run --replay calls.json script.lua`,
		Flags: withCommon(
			jsonFlag,
			budgetFlag,
			maxCallsFlag,
			maxWaitFlag,
			&cli.StringFlag{Name: "images", Usage: "write the images tools returned into `DIR`", TakesFile: true},
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "allow calls that no permission rule covers, without asking"},
			&cli.BoolFlag{Name: "dry-run", Usage: "perform only read-only calls; answer the others without performing them and list them"},
			&cli.StringFlag{Name: "record", Usage: "write every call and its output to `FILE`", TakesFile: true},
			&cli.StringFlag{Name: "replay", Usage: "answer calls from a --record `FILE`, with no server running", TakesFile: true},
			isolationFlag,
		),
		Action: runAction,
	}
}

// runOutput is run --json's shape.
type runOutput struct {
	OK      bool         `json:"ok"`
	Text    string       `json:"text"`
	Summary string       `json:"summary"`
	Calls   []string     `json:"calls"`
	Images  []savedImage `json:"images"`
	Error   *string      `json:"error"`
}

// savedImage is one image a tool returned; File is where --images wrote it.
type savedImage struct {
	MIMEType string `json:"mimeType"`
	File     string `json:"file,omitempty"`
}

func runAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return usageErr("give one script file, or - for stdin, after the flags: execlua run --json script.lua", "run needs exactly one SCRIPT, got %d arguments", c.NArg())
	}
	if c.IsSet("record") && c.IsSet("replay") {
		return usageErr("record while running against servers, then replay the file", "--record and --replay cannot be used together")
	}
	if c.IsSet("record") {
		if err := writable(c.String("record")); err != nil {
			return usageErr("give --record a path you can write to", "cannot write the recording: %v", err)
		}
	}
	code, err := readScript(c.Args().First(), c.App.Reader)
	if err != nil {
		return err
	}
	if dir := c.String("images"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return usageErr("give --images a directory you can write to", "cannot create the images directory: %v", err)
		}
	}

	setup := hostSetup{prompter: newPrompter(c)}
	var (
		dry *dryRun
		rec *recorder
		rep *replayer
	)
	switch {
	case c.IsSet("replay"):
		rep, err = loadRecording(c.String("replay"))
		if err != nil {
			return usageErr("give a file written by 'execlua run --record FILE'", "cannot replay: %v", err)
		}
		setup.replay = rep
	case c.IsSet("record"):
		rec = &recorder{}
		setup.execute = append(setup.execute, rec.wrap)
	}
	if c.Bool("dry-run") {
		dry = &dryRun{}
		// The dry run sits outside the recorder: skipped calls are not
		// performed, so there is nothing of them to record.
		setup.execute = append(setup.execute, dry.wrap)
	}
	env, err := openHost(c, setup)
	if err != nil {
		return err
	}
	defer env.close()

	if err := env.execAvailable(); err != nil {
		return err
	}
	live := newLiveSummary(c.App.ErrWriter)
	input, _ := json.Marshal(map[string]string{"code": code})
	res := env.runExec(c.Context, input, &execlua.RunOptions{Progress: live.update})
	live.done(res.Summary)

	images, err := saveImages(res.Images, c.String("images"))
	if err != nil {
		return usageErr("give --images a directory you can write to", "cannot write an image: %v", err)
	}
	if rec != nil {
		if err := rec.save(c.String("record"), env.tools()); err != nil {
			return usageErr("give --record a path you can write to", "cannot write the recording: %v", err)
		}
	}
	failed := res.IsError
	errText := ""
	if res.IsError {
		errText = firstLine(res.Text)
		if res.Err != nil {
			errText = res.Err.Error()
		}
	}
	if rep != nil {
		if missing := rep.unmatched(); len(missing) > 0 {
			failed = true
			fmt.Fprintf(c.App.ErrWriter, "replay: %d %s had no recording:\n", len(missing), plural(len(missing), "call", "calls"))
			writeCalls(c.App.ErrWriter, missing)
			if errText == "" {
				errText = fmt.Sprintf("%v: %s", errNoRecording, missing[0].Name)
			}
		}
	}
	if dry != nil {
		if skipped := dry.calls(); len(skipped) == 0 {
			fmt.Fprintln(c.App.ErrWriter, "dry run: no call would have changed anything")
		} else {
			fmt.Fprintf(c.App.ErrWriter, "dry run: %d %s would have changed something:\n", len(skipped), plural(len(skipped), "call", "calls"))
			writeCalls(c.App.ErrWriter, skipped)
		}
	}

	if c.Bool("json") {
		out := runOutput{OK: !failed, Text: res.Text, Summary: res.Summary, Calls: res.Calls, Images: images}
		if out.Calls == nil {
			out.Calls = []string{}
		}
		if failed {
			out.Error = &errText
		}
		if err := writeJSON(c.App.Writer, out); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(c.App.Writer, res.Text)
		for _, img := range images {
			if img.File != "" {
				fmt.Fprintf(c.App.ErrWriter, "image: %s\n", img.File)
			}
		}
		if len(images) > 0 && c.String("images") == "" {
			fmt.Fprintf(c.App.ErrWriter, "%d %s returned; --images DIR saves them\n", len(images), plural(len(images), "image", "images"))
		}
	}
	if failed {
		return errScriptFailed
	}
	return nil
}

// readScript reads the script from path, or from stdin for "-".
func readScript(path string, stdin io.Reader) (string, error) {
	var (
		data []byte
		err  error
	)
	if path == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return "", usageErr("check the path, or give - to read the script from stdin", "cannot read the script: %v", err)
	}
	code := loaderSkips(string(data))
	if strings.TrimSpace(code) == "" {
		name := path
		if path == "-" {
			name = "on stdin"
		}
		return "", usageErr("write a Lua script, e.g. return tools.ToolSearch{ query = \"\" }", "the script %s is empty", name)
	}
	return code, nil
}

// loaderSkips drops what C Lua's loader skips at the start of a script
// file: a UTF-8 byte order mark, and a first line starting with # (a
// "#!/usr/bin/env -S execlua run" line), which is left empty so that line
// numbers stay the file's.
func loaderSkips(code string) string {
	code = strings.TrimPrefix(code, "\ufeff")
	if strings.HasPrefix(code, "#") {
		_, rest, found := strings.Cut(code, "\n")
		if !found {
			return ""
		}
		return "\n" + rest
	}
	return code
}

// writable says whether path can be written, before a run whose calls
// could not be recorded otherwise; it leaves no file behind.
func writable(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		f, err = os.OpenFile(path, os.O_WRONLY, 0)
		if err == nil {
			return f.Close()
		}
	}
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(path)
}

// saveImages writes each image into dir (when set) as image-N with the
// extension of its MIME type.
func saveImages(images []execlua.Image, dir string) ([]savedImage, error) {
	out := make([]savedImage, len(images))
	for i, img := range images {
		out[i].MIMEType = img.MIMEType
		if dir == "" {
			continue
		}
		data, err := decodeBase64(img.Data)
		if err != nil {
			return nil, fmt.Errorf("image %d: %w", i+1, err)
		}
		name := filepath.Join(dir, fmt.Sprintf("image-%d%s", i+1, imageExt(img.MIMEType)))
		if err := os.WriteFile(name, data, 0o644); err != nil {
			return nil, err
		}
		out[i].File = name
	}
	return out, nil
}

func imageExt(mime string) string {
	switch mime {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "image/svg+xml":
		return ".svg"
	}
	return ".bin"
}

// writeCalls lists calls one a line, indented, with their arguments.
func writeCalls(w io.Writer, calls []execlua.Call) {
	for _, call := range calls {
		fmt.Fprintf(w, "  %s %s\n", call.Name, canonical(call.Args))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// liveSummary shows the summary while a script runs: on a terminal one line
// rewritten in place, elsewhere one plain line per change.
type liveSummary struct {
	w        io.Writer
	terminal bool
	shown    bool
	start    time.Time
}

func newLiveSummary(w io.Writer) *liveSummary {
	return &liveSummary{w: w, terminal: isTerminal(w), start: time.Now()}
}

// oneLine folds the summary's lines ("3 tool calls", then names) into one.
func oneLine(summary string) string {
	head, rest, ok := strings.Cut(summary, "\n")
	if !ok {
		return head
	}
	return head + ": " + strings.ReplaceAll(rest, "\n", ", ")
}

func (l *liveSummary) update(summary string) {
	if l.terminal {
		fmt.Fprintf(l.w, "\r\x1b[K%s", oneLine(summary))
		l.shown = true
		return
	}
	fmt.Fprintln(l.w, oneLine(summary))
}

// done replaces the live line with the final summary and the time taken.
func (l *liveSummary) done(summary string) {
	if l.shown {
		fmt.Fprint(l.w, "\r\x1b[K")
	}
	fmt.Fprintf(l.w, "%s (%s)\n", oneLine(summary), time.Since(l.start).Round(time.Millisecond))
}
