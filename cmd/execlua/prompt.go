package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/execlua/execlua/host"
)

// newPrompter answers permission questions for calls no rule covers: on a
// terminal it asks (allow once, always, deny); without one it denies, or
// allows once with --yes.
func newPrompter(c *cli.Context) host.Prompter {
	if c.Bool("yes") {
		return fixedAnswer(host.AllowOnce)
	}
	if isTerminal(c.App.Reader) && isTerminal(c.App.ErrWriter) {
		return &terminalPrompter{in: bufio.NewReader(c.App.Reader), out: c.App.ErrWriter}
	}
	return &noTerminal{out: c.App.ErrWriter}
}

// noTerminal denies what it cannot ask about, and says once on stderr how
// to allow such calls, so a piped script's refusal is not a riddle. The
// script, and the model, read errNobodyToAsk: that nobody was asked, not
// that a user refused.
type noTerminal struct {
	once sync.Once
	out  io.Writer
}

var errNobodyToAsk = errors.New("no permission rule allows it and there is no terminal to ask on (run with --yes, or add an allow rule to the settings)")

func (p *noTerminal) Ask(_ context.Context, q host.PermissionQuestion) (host.PermissionAnswer, error) {
	p.once.Do(func() {
		fmt.Fprintf(p.out, "execlua: no terminal to ask whether to allow %s, so it was denied\n  hint: pass --yes, or add an allow rule (\"permissions\": {\"allow\": [%q]}) to your settings\n", q.Tool.Name, q.Tool.Name)
	})
	return host.Deny, errNobodyToAsk
}

// fixedAnswer gives the same answer to every question.
type fixedAnswer host.PermissionAnswer

func (a fixedAnswer) Ask(context.Context, host.PermissionQuestion) (host.PermissionAnswer, error) {
	return host.PermissionAnswer(a), nil
}

// terminalPrompter asks on the terminal, one question at a time: calls in
// parallel branches wait their turn.
type terminalPrompter struct {
	mu  sync.Mutex
	in  *bufio.Reader
	out io.Writer
}

func (p *terminalPrompter) Ask(ctx context.Context, q host.PermissionQuestion) (host.PermissionAnswer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		fmt.Fprintf(p.out, "\r\x1b[KAllow %s %s?\n  [y] yes, once   [a] yes, always (saves a rule)   [n] no: ", q.Tool.Name, canonical(q.Args))
		line, err := p.in.ReadString('\n')
		if err != nil && line == "" {
			return host.Deny, err
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return host.AllowOnce, nil
		case "a", "always":
			return host.AllowAlways, nil
		case "n", "no", "":
			return host.Deny, nil
		}
		if ctx.Err() != nil {
			return host.Deny, ctx.Err()
		}
	}
}
