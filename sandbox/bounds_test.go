package sandbox

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// A run whose context passes its deadline ends as one cancelled, with the
// deadline as the cause, as in a worker process: not a bare
// context.DeadlineExceeded.
func TestDeadlineIsACancellation(t *testing.T) {
	f := newFunnel(nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	out := Run(ctx, f.request(`while true do end`), &Options{Budget: time.Minute})
	if !errors.Is(out.Err, ErrCanceled) || !errors.Is(out.Err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want ErrCanceled wrapping context.DeadlineExceeded", out.Err)
	}
	// A budget that ends the run first stays the budget.
	ctx, cancel = context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out = Run(ctx, f.request(`while true do end`), &Options{Budget: 20 * time.Millisecond})
	if !errors.Is(out.Err, ErrBudgetExceeded) || errors.Is(out.Err, ErrCanceled) {
		t.Errorf("err = %v, want the budget", out.Err)
	}
}

// CutMessage keeps keep characters (not bytes) and says how long the
// message was; a name a message repeats is cut the same way.
func TestMessagesAreCut(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		keep int
		want string
	}{
		{"short", 10, "short"},
		{"ééé", 3, "ééé"},
		{"éééé", 3, "ééé\n[Error message truncated: it was 4 characters long.]"},
		{strings.Repeat("x", 5000), 2, "xx\n[Error message truncated: it was 5000 characters long.]"},
	} {
		if got := CutMessage(tc.msg, tc.keep); got != tc.want {
			t.Errorf("CutMessage(%.20q, %d) = %q, want %q", tc.msg, tc.keep, got, tc.want)
		}
	}
	long := &UnknownToolError{Name: "mcp__" + strings.Repeat("é", 1<<20)}
	if msg := long.Error(); len(msg) > 600 || !strings.Contains(msg, "… (a name of 2097157 bytes) is not reachable") || !errors.Is(long, ErrUnknownTool) {
		t.Errorf("a long unknown name: %.300q… (%d bytes)", msg, len(msg))
	}
	if got := (&Options{MaxResultChars: 10}).MaxErrorChars(); got != minErrorChars {
		t.Errorf("MaxErrorChars with a small result limit = %d, want %d", got, minErrorChars)
	}
	if got := (&Options{}).MaxErrorChars(); got != DefaultMaxResultChars {
		t.Errorf("MaxErrorChars by default = %d, want %d", got, DefaultMaxResultChars)
	}
}
