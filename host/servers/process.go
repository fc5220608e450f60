package servers

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/execlua/execlua/host/internal/proc"
	"github.com/execlua/execlua/host/settings"
	"github.com/mark3labs/mcp-go/client/transport"
)

// stopGrace is how long a server has to exit after its stdin closed
// before its process group is killed.
const stopGrace = 2 * time.Second

// process is a stdio server's process. The host owns it, not the
// transport, so that it learns at once when the server exits.
type process struct {
	cmd    *exec.Cmd
	stdout *os.File // the host's end
	stderr *tail
	// stderrDone is closed when the last writer of stderr is gone.
	stderrDone chan struct{}
	exited     chan struct{}
	err        error // the exit status, once exited is closed
}

// startProcess starts a stdio server and returns a transport over its
// stdin and stdout. onExit is called once the process has exited.
func startProcess(cfg settings.ServerConfig, cwd string, onExit func(error)) (*process, transport.Interface, error) {
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Dir = cwd
	if cfg.Cwd != "" {
		cmd.Dir = cfg.Cwd
	}
	cmd.Env = os.Environ()
	for k, v := range cfg.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	p := &process{cmd: cmd, stderr: &tail{}, stderrDone: make(chan struct{}), exited: make(chan struct{})}
	proc.Group(cmd)

	// Pipes of our own rather than cmd's: Wait would close cmd's pipes
	// under the transport still reading, and would wait for a stderr that
	// a server's children may hold open long after it exited.
	var pipes [6]*os.File // stdin r, w; stdout r, w; stderr r, w
	for i := 0; i < len(pipes); i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(pipes[:i])
			return nil, nil, err
		}
		pipes[i], pipes[i+1] = r, w
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pipes[0], pipes[3], pipes[5]
	err := cmd.Start()
	closeAll([]*os.File{pipes[0], pipes[3], pipes[5]}) // the child's ends
	if err != nil {
		closeAll([]*os.File{pipes[1], pipes[2], pipes[4]})
		return nil, nil, fmt.Errorf("could not start %q: %w", cfg.Command, err)
	}
	p.stdout = pipes[2]
	go func() {
		_, _ = io.Copy(p.stderr, pipes[4]) // ends when the last writer is gone
		pipes[4].Close()
		close(p.stderrDone)
	}()
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
		onExit(exitError(p.err))
	}()
	return p, transport.NewIO(pipes[2], pipes[1], nil), nil
}

func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// exitError says how a server's process ended.
func exitError(err error) error {
	if err == nil {
		return fmt.Errorf("the server process exited")
	}
	return fmt.Errorf("the server process ended: %w", err)
}

// stderrSettle bounds the wait for a server's stderr to be complete: for
// the process to exit (a server may close its stdout first) and for what
// it wrote to be read to the end (its children may hold stderr open).
const stderrSettle = time.Second

// stderrTail returns the last lines the process wrote to stderr: all of
// them once it has exited and they are read, or what there is after
// stderrSettle; "" for no process.
func (p *process) stderrTail() string {
	if p == nil {
		return ""
	}
	settled := time.NewTimer(stderrSettle)
	defer settled.Stop()
	select {
	case <-p.exited:
		select {
		case <-p.stderrDone:
		case <-settled.C:
		}
	case <-settled.C:
	}
	return p.stderr.String()
}

// liveStderr is what a running process wrote to stderr so far; "" for no
// process.
func (p *process) liveStderr() string {
	if p == nil {
		return ""
	}
	return p.stderr.String()
}

// stop waits a little for a process whose stdin was closed to exit, then
// kills its process group.
func (p *process) stop() {
	if p == nil {
		return
	}
	select {
	case <-p.exited:
	case <-time.After(stopGrace):
		_ = proc.Kill(p.cmd) // it may have exited meanwhile
		<-p.exited
	}
	p.stdout.Close()
}

// exitStatus waits up to d for the process to exit and says how it ended,
// or nil.
func (p *process) exitStatus(d time.Duration) error {
	if p == nil {
		return nil
	}
	select {
	case <-p.exited: // first, so that d = 0 reads an exit already there
		return exitError(p.err)
	default:
	}
	wait := time.NewTimer(d)
	defer wait.Stop()
	select {
	case <-p.exited:
		return exitError(p.err)
	case <-wait.C:
		return nil
	}
}
