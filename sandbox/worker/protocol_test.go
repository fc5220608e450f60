package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/execlua/execlua/sandbox"
	"github.com/google/go-cmp/cmp"
)

// Every frame type reads back as it was written, through a pipe.
func TestFramesRoundTrip(t *testing.T) {
	frames := []*message{
		{Type: msgHello, Version: Version, PID: 42},
		{Type: msgRun, Run: &runRequest{Code: "return 1", Tools: []string{"t", "u"},
			HasFunnel: true, Options: sandbox.Options{Budget: time.Second, MaxCalls: 3}}},
		{Type: msgCall, ID: 7, Name: "mcp__a__b", Args: json.RawMessage(`{"x":[1,null]}`)},
		{Type: msgSearch, ID: 8, Args: json.RawMessage(`{"query":"q"}`)},
		{Type: msgSchema, ID: 12, Name: "mcp__a__b"},
		{Type: msgCalled, Name: "ToolSearch"},
		{Type: msgPrinted, Name: "a\tb\nc", Lines: []string{"a\tb", "c"}, Chars: 1 << 40},
		{Type: msgPrinted, Chars: 9},
		{Type: msgAbandon, ID: 9},
		{Type: msgCancel},
		{Type: msgResult, ID: 7, Out: sandbox.Output{Structured: json.RawMessage(`null`), Text: []string{"a", ""},
			Images: []sandbox.Image{{MIMEType: "image/png", Data: "aGk="}}}},
		{Type: msgResult, ID: 10, Out: sandbox.Output{Text: []string{"only text"}}},
		{Type: msgResult, ID: 11, Failed: true, Name: "denied by a hook"},
		{Type: msgOutcome, Outcome: encodeOutcome(sandbox.Outcome{Result: "1", HasResult: true, Calls: []string{"t"}})},
	}
	var buf bytes.Buffer
	w := newConn(nil, &buf)
	for _, m := range frames {
		if err := w.send(m, true); err != nil {
			t.Fatal(err)
		}
	}
	r := newConn(&buf, nil)
	for _, want := range frames {
		got, err := r.receive()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("frame %q (-sent +received):\n%s", want.Type, diff)
		}
	}
}

// Errors keep their kind across the pipe: the typed errors with their
// numbers, the funnel's own errors by call id, and the caller's cause for
// a cancellation.
func TestErrorsRoundTrip(t *testing.T) {
	hostErr := errors.New("the host's own error")
	byID := func(id int) error {
		if id == 3 {
			return hostErr
		}
		return nil
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("stop pressed"))
	for _, err := range []error{
		&sandbox.BudgetError{Budget: time.Second},
		&sandbox.NestedWaitError{Limit: time.Minute},
		&sandbox.MemoryError{Limit: 64 << 20},
		&sandbox.CallLimitError{Limit: 5},
		&sandbox.UnknownToolError{Name: "mcp__x__y"},
		&sandbox.ScriptError{Message: "script:1: the host's own error", Cause: &hostError{id: 3, msg: "the host's own error"}},
		&sandbox.ScriptError{Message: "script:1: boom"},
		sandbox.ErrNoFunnel,
	} {
		back := decodeError(ctx, encodeError(err), byID)
		if back.Error() != err.Error() {
			t.Errorf("%v came back as %v", err, back)
		}
		for _, target := range []error{sandbox.ErrBudgetExceeded, sandbox.ErrNestedWaitExceeded, sandbox.ErrMemoryExceeded,
			sandbox.ErrCallLimit, sandbox.ErrUnknownTool, sandbox.ErrScript, sandbox.ErrNoFunnel} {
			if errors.Is(err, target) != errors.Is(back, target) {
				t.Errorf("errors.Is(%v, %v) changed across the pipe", err, target)
			}
		}
	}
	if back := decodeError(ctx, encodeError(&sandbox.ScriptError{Cause: &hostError{id: 3}}), byID); !errors.Is(back, hostErr) {
		t.Errorf("the funnel's error did not come back: %v", back)
	}
	back := decodeError(ctx, encodeError(canceled(context.Background())), byID)
	if !errors.Is(back, sandbox.ErrCanceled) || back.Error() != "run canceled: stop pressed" {
		t.Errorf("a cancellation came back as %v", back)
	}
	crash := decodeError(ctx, encodeError(errors.Join(sandbox.ErrCrashed, errors.New("detail"))), byID)
	if !errors.Is(crash, sandbox.ErrCrashed) || crash.Error() != "sandbox crashed\ndetail" {
		t.Errorf("a crash came back as %v", crash)
	}
}

// A stream of bytes from a broken worker gives errors, never a panic, and
// never a frame larger than the protocol allows.
func FuzzFrames(f *testing.F) {
	var buf bytes.Buffer
	c := newConn(nil, &buf)
	c.send(&message{Type: msgResult, ID: 1, Out: sandbox.Output{Text: []string{"x"}, Images: []sandbox.Image{{MIMEType: "a", Data: "b"}}}}, true)
	c.send(&message{Type: msgCall, ID: 2, Name: "t", Args: json.RawMessage(`{}`)}, true)
	f.Add(buf.Bytes())
	f.Add([]byte("\x00\x00\x00\x02o{"))
	f.Add([]byte("\xff\xff\xff\xffR"))
	f.Fuzz(func(t *testing.T, stream []byte) {
		r := newConn(bytes.NewReader(stream), nil)
		for {
			m, err := r.receive()
			if err != nil {
				return
			}
			var out bytes.Buffer
			if err := newConn(nil, &out).send(m, true); err != nil {
				t.Fatalf("a received frame does not send again: %v", err)
			}
		}
	})
}
