package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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
	OK      bool   `json:"ok"`
	Text    string `json:"text"`
	Summary string `json:"summary"`
	// Calls are the nested calls in order, refused ones included.
	Calls  []callOutput `json:"calls"`
	Images []savedImage `json:"images"`
	Error  *string      `json:"error"`
}

// savedImage is one image a tool returned: its MIME type, its size in
// bytes, and File, where --images wrote it.
type savedImage struct {
	MIMEType string `json:"mimeType"`
	Bytes    int    `json:"bytes"`
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
	live := newProgress(c.App.ErrWriter)
	env.reports.to(live.report)
	input, _ := json.Marshal(map[string]string{"code": code})
	res := env.runExec(c.Context, input, &execlua.RunOptions{Progress: live.update, OnCallDone: live.callDone})
	env.reports.to(nil)
	live.done(res.Summary)
	if hint := limitHint(res.Err); hint != "" {
		fmt.Fprintf(c.App.ErrWriter, "hint: %s\n", hint)
	}

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
		out := runOutput{OK: !failed, Text: res.Text, Summary: res.Summary, Calls: callOutputs(res.Records), Images: images}
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
	if err := textScript(path, data); err != nil {
		return "", err
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

// textScript refuses a file that is not Lua source: precompiled bytecode,
// or binary data (a NUL byte near the start), which the compiler would
// otherwise answer with a puzzling syntax error.
func textScript(path string, data []byte) error {
	head := data[:min(len(data), 8192)]
	why := ""
	switch {
	case bytes.HasPrefix(head, []byte("\x1bLua")):
		why = "it is precompiled Lua bytecode, and only Lua source is run"
	case bytes.IndexByte(head, 0) >= 0:
		why = "it holds NUL bytes, as binary files do"
	default:
		return nil
	}
	if path == "-" {
		path = "stdin"
	}
	return usageErr("give the .lua source file, or - to read the script from stdin", "%s is not a Lua script: %s", path, why)
}

// limitHint names the flag to change when a run hit one of its limits.
func limitHint(err error) string {
	switch {
	case errors.Is(err, execlua.ErrBudgetExceeded):
		return "the script ran out of its time budget; raise --budget (script time only: waiting for tools does not count)"
	case errors.Is(err, execlua.ErrNestedWaitExceeded):
		return "the run waited for tools longer than --max-wait allows; raise --max-wait"
	case errors.Is(err, execlua.ErrMemoryExceeded):
		return "the script ran out of memory; make it hold less at once"
	}
	return ""
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
		data, err := decodeBase64(img.Data)
		if err != nil {
			return nil, fmt.Errorf("image %d: %w", i+1, err)
		}
		out[i].Bytes = len(data)
		if dir == "" {
			continue
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
