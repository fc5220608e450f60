//go:build linux

package leaktest

import (
	"io"
	"os"
	"os/exec"
	"slices"
	"testing"
)

// childEnv makes this test binary a child that waits for its stdin to
// close.
const childEnv = "LEAKTEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A running child is found (from /proc, hence linux) among this process's children, by Children and
// ChildrenOf alike, and is gone from them once waited for.
func TestChildren(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if kids := Children(); !slices.Contains(kids, pid) {
		t.Errorf("Children() = %v, want %d among them", kids, pid)
	}
	if kids := ChildrenOf(os.Getpid()); !slices.Contains(kids, pid) {
		t.Errorf("ChildrenOf(self) = %v, want %d among them", kids, pid)
	}
	if kids := ChildrenOf(pid); len(kids) != 0 {
		t.Errorf("ChildrenOf(child) = %v, want none", kids)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if kids := Children(); slices.Contains(kids, pid) {
		t.Errorf("Children() = %v after Wait, still with %d", kids, pid)
	}
}
