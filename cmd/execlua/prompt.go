package main

import (
	"bufio"
	"context"
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
	return fixedAnswer(host.Deny)
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
