//go:build !unix

package proc

import "os/exec"

func group(*exec.Cmd) {}

// Kill kills cmd's process.
func Kill(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
