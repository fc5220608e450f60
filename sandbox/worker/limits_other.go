//go:build !linux

package worker

import (
	"errors"
	"io"
	"os"
	"time"

	"github.com/execlua/execlua/sandbox"
)

// Outside Linux a worker sets no operating-system limits; the memory cap
// rests on Go's memory limit and the sandbox's guard, the hard kill on the
// host's timer.
func restrictProcess() error                              { return nil }
func limitProcess(uint64, *sandbox.Options) error         { return nil }
func residentMemory(int) (uint64, error)                  { return 0, errors.ErrUnsupported }
func killedByLimit(*os.ProcessState, time.Duration) error { return nil }

func stdio() (io.Reader, io.Writer) { return os.Stdin, os.Stdout }

func newRawPipe(f *os.File) io.ReadWriter { return f }

func newTicker(d time.Duration) ticker { return newGoTicker(d) }
