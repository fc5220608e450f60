package servers

import (
	"fmt"
	"time"

	"github.com/execlua/execlua"
)

// State is a server's place in its lifecycle.
type State int

// The states of a server.
const (
	// Starting: its first start since it was configured is under way.
	Starting State = iota
	// Ready: connected; its calls go through.
	Ready
	// Restarting: it exited, lost its connection or failed to start, and
	// is started again after its backoff; calls wait for it.
	Restarting
	// Failed: its configuration cannot work (retried only when it
	// changes), or it failed Options.CrashLimit times in a row (retried
	// every Options.SlowRetry). Calls fail at once.
	Failed
	// Disabled: its entry says "disabled": true; it is never started.
	Disabled
)

var stateNames = [...]string{"starting", "ready", "restarting", "failed", "disabled"}

func (s State) String() string {
	if s < 0 || int(s) >= len(stateNames) {
		return fmt.Sprintf("State(%d)", int(s))
	}
	return stateNames[s]
}

// MarshalText writes the state's name, as status JSON shows it.
func (s State) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a state's name.
func (s *State) UnmarshalText(b []byte) error {
	for i, name := range stateNames {
		if name == string(b) {
			*s = State(i)
			return nil
		}
	}
	return fmt.Errorf("unknown server state %q: expected one of %v", b, stateNames)
}

// Status is one server as [Manager.Status] reports it. Its JSON field
// names are stable: `execlua servers --json`, `execlua tools --json` and
// the health endpoint of `execlua serve` print it as is.
type Status struct {
	Name  string `json:"name"`
	State State  `json:"state"`
	// Transport is "stdio", "http", "sse" or "in-process".
	Transport string `json:"transport"`
	// ToolCount is how many tools it has in the pool: the last ones it
	// listed, kept while it is down.
	ToolCount int `json:"toolCount"`
	// LastError is the last failure (a start, a lost connection), kept
	// after it recovered; Err is the same as an error.
	LastError string `json:"lastError,omitempty"`
	Err       error  `json:"-"`
	// StderrTail is the last lines a stdio server wrote to stderr: the
	// running process's, else those of the last one that ended.
	StderrTail string `json:"stderrTail,omitempty"`
	// Restarts counts the starts after the first one; Failures the failed
	// starts and lost connections since it last worked.
	Restarts int `json:"restarts"`
	Failures int `json:"failures"`
	// WaitingCalls are the calls waiting for it to be ready.
	WaitingCalls int `json:"waitingCalls"`
	// NextStart is when a server that is down is started again.
	NextStart *time.Time `json:"nextStart,omitempty"`
	// Timeouts in force: StartTimeout and CallTimeout in milliseconds (0:
	// no limit).
	StartTimeoutMs int64        `json:"startTimeoutMs"`
	CallTimeoutMs  int64        `json:"callTimeoutMs"`
	Tools          []ToolStatus `json:"tools"`
}

// ToolStatus is one tool of a server with its MCP annotations; a hint is
// left out when the tool did not declare it.
type ToolStatus struct {
	// Name is the pool name, mcp__<server>__<tool>; ServerTool the
	// server's own.
	Name        string `json:"name"`
	ServerTool  string `json:"serverTool"`
	Title       string `json:"title,omitempty"`
	ReadOnly    *bool  `json:"readOnlyHint,omitempty"`
	Destructive *bool  `json:"destructiveHint,omitempty"`
	Idempotent  *bool  `json:"idempotentHint,omitempty"`
	OpenWorld   *bool  `json:"openWorldHint,omitempty"`
}

func toolStatuses(tools []execlua.Tool) []ToolStatus {
	out := make([]ToolStatus, len(tools))
	for i, t := range tools {
		a := t.Annotations
		out[i] = ToolStatus{Name: t.Name, ServerTool: t.ServerTool, Title: a.Title,
			ReadOnly: a.ReadOnlyHint, Destructive: a.DestructiveHint, Idempotent: a.IdempotentHint, OpenWorld: a.OpenWorldHint}
	}
	return out
}
