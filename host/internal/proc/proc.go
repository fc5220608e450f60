package proc

import (
	"os/exec"
	"time"
)

// waitDelay bounds how long Wait waits for pipes a killed command's
// children still hold.
const waitDelay = time.Second

// Group makes cmd run in its own process group, killed whole by Kill and,
// for a command made with exec.CommandContext, when its context ends, so a
// child it started (a shell's sleep, npx's node) cannot outlive it holding
// the pipes open. A process group also keeps the terminal's Ctrl-C from
// reaching it behind the host's back.
func Group(cmd *exec.Cmd) {
	group(cmd)
	if cmd.Cancel != nil { // made with a context
		cmd.Cancel = func() error { return Kill(cmd) }
		cmd.WaitDelay = waitDelay
	}
}
