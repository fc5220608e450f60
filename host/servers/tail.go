package servers

import (
	"bytes"
	"strings"
	"sync"
)

// tailBytes is how much of a server's stderr is kept.
const tailBytes = 8 << 10

// tailLines is how many of its last lines a report shows.
const tailLines = 20

// tail keeps the last bytes written to it: a server's stderr.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - tailBytes; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// String returns the last lines written.
func (t *tail) String() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := bytes.Split(bytes.TrimRight(t.buf, "\n"), []byte("\n"))
	if len(lines) > tailLines {
		lines = lines[len(lines)-tailLines:]
	}
	return strings.TrimSpace(string(bytes.Join(lines, []byte("\n"))))
}
