package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/execlua/execlua/host/internal/proc"
	"github.com/execlua/execlua/host/settings"
)

// answer is what one hook said.
type answer struct {
	hook string // its command or URL
	// blocking is the stderr of a command that exited 2 (or a default
	// text when it wrote none).
	blocking string
	// failed is a failure that blocks (onFailure "block"); a failure that
	// does not block leaves the answer empty.
	failed error
	out    output
}

// blockingFailure is a failure that refused the call: the model reads it,
// stderr included.
type blockingFailure struct{ Failure }

func (b blockingFailure) Error() string {
	if b.Stderr == "" {
		return b.Failure.Error()
	}
	return b.Failure.Error() + ": " + b.Stderr
}

// maxHookOutput bounds what is read of a hook's stdout, stderr or HTTP
// answer.
const maxHookOutput = 1 << 20

// runOne runs one hook with the encoded input and reads its answer.
func (r *Runner) runOne(ctx context.Context, event, tool string, h settings.HookCommand, body []byte) answer {
	a := answer{hook: h.Label()}
	timeout := r.opts.Timeout
	if h.Timeout > 0 {
		timeout = time.Duration(h.Timeout * float64(time.Second))
	}
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var (
		stdout []byte
		stderr string
		exit2  bool
		err    error
	)
	if h.Type == "http" {
		stdout, err = r.post(hctx, h, body)
	} else {
		stdout, stderr, exit2, err = r.command(hctx, h, body)
	}
	switch {
	case hctx.Err() == context.DeadlineExceeded && ctx.Err() == nil:
		err = fmt.Errorf("timed out after %v", timeout)
	case ctx.Err() != nil:
		return a // the call itself was cancelled
	case exit2:
		a.blocking = stderr
		if a.blocking == "" {
			a.blocking = "blocked (the hook exited with status 2 and wrote nothing to stderr)"
		}
		return a
	}
	if err != nil {
		f := Failure{Event: event, Tool: tool, Command: a.hook, Err: err, Stderr: stderr,
			Blocked: h.OnFailure == "block" && (event == PreToolUse || event == PermissionRequest)}
		if r.opts.OnFailure != nil {
			r.opts.OnFailure(f)
		}
		if f.Blocked {
			a.failed = blockingFailure{f}
		}
		return a
	}
	a.out = parseOutput(stdout)
	return a
}

// command runs a command hook: sh -c, the input on stdin, in Cwd with
// CLAUDE_PROJECT_DIR set. exit2 reports exit status 2, which is an
// answer, not a failure.
func (r *Runner) command(ctx context.Context, h settings.HookCommand, body []byte) (stdout []byte, stderr string, exit2 bool, err error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", h.Command)
	cmd.Dir = r.opts.Cwd
	cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+r.projectDir())
	cmd.Stdin = bytes.NewReader(body)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	proc.Group(cmd)
	err = cmd.Run()
	stderr = strings.TrimSpace(string(errOut.Bytes()[:min(errOut.Len(), maxHookOutput)]))
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 2 && ctx.Err() == nil {
		return nil, stderr, true, nil
	}
	if errors.As(err, &exit) && exit.ExitCode() == 127 {
		err = fmt.Errorf("%w (the command was not found)", err)
	}
	return out.Bytes(), stderr, false, err
}

// projectDir is CLAUDE_PROJECT_DIR: Cwd, or the process's directory.
func (r *Runner) projectDir() string {
	if r.opts.Cwd != "" {
		return r.opts.Cwd
	}
	dir, _ := os.Getwd()
	return dir
}

// post sends an HTTP hook's request: the input as a JSON body, the
// headers with their allowed variables expanded. An answer other than
// 2xx is a failure.
func (r *Runner) post(ctx context.Context, h settings.HookCommand, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range h.Headers {
		req.Header.Set(k, r.expandHeader(v, h.AllowedEnvVars))
	}
	resp, err := r.opts.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxHookOutput))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("the endpoint answered %s: %.200s", resp.Status, bytes.TrimSpace(data))
	}
	return data, nil
}

// envRef is $VAR or ${VAR} in a header value.
var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)`)

// expandHeader replaces $VAR and ${VAR} by the variable's value when
// allowed names it, and by "" otherwise, so that a settings file cannot
// send a variable the user did not list.
func (r *Runner) expandHeader(v string, allowed []string) string {
	lookup := r.opts.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	return envRef.ReplaceAllStringFunc(v, func(ref string) string {
		m := envRef.FindStringSubmatch(ref)
		name := m[1] + m[2]
		if !slices.Contains(allowed, name) {
			return ""
		}
		val, _ := lookup(name)
		return val
	})
}
