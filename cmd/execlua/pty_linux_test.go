//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY returns a pseudo-terminal's two ends.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { master.Close() })
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetUint32(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return master, slave
}

// PERM-1 on a terminal: a call no rule covers is asked; "always" lets it
// through and saves an allow rule for the leaf tool in the settings file,
// so the next call is not asked. The live summary is one rewritten line.
func TestTerminalAsksAndSavesTheRule(t *testing.T) {
	dir := t.TempDir()
	settings := write(t, dir, "settings.json", "{}\n")
	script := write(t, dir, "s.lua", `tools.mcp__demo__echo{ a = 1 } return tools.mcp__demo__echo{ a = 2 }`)
	master, slave := openPTY(t)
	cmd := exec.CommandContext(t.Context(), binary, "run", "--demo", "--settings", settings, script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir)
	var stdout bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, &stdout, slave
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()

	// Read the terminal until the question, answer it, then read to the end.
	var screen bytes.Buffer
	buf := make([]byte, 4096)
	answered := false
	for {
		n, err := master.Read(buf)
		screen.Write(buf[:n])
		if !answered && strings.Contains(screen.String(), "[n] no: ") {
			answered = true
			if _, err := master.Write([]byte("a\n")); err != nil {
				t.Fatal(err)
			}
		}
		if err != nil {
			break // EIO once the child has gone and the slave is closed
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("run: %v\nterminal:\n%q", err, screen.String())
	}
	if stdout.String() != `{"a":2}`+"\n" {
		t.Errorf("stdout = %q", stdout.String())
	}
	term := screen.String()
	if strings.Count(term, "Allow mcp__demo__echo") != 1 || !strings.Contains(term, `Allow mcp__demo__echo {"a":1}?`) {
		t.Errorf("terminal should ask once, for the first call:\n%q", term)
	}
	if !strings.Contains(term, "\r\x1b[K2 tool calls: mcp__demo__echo, mcp__demo__echo") {
		t.Errorf("terminal has no rewritten summary line:\n%q", term)
	}
	saved, err := os.ReadFile(filepath.Join(dir, "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(saved), `"mcp__demo__echo"`) {
		t.Errorf("settings after 'always' = %s", saved)
	}
}
