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

// newPrompter answers permission questions: on a terminal it asks
// (allow once, always, deny); without one it denies. --yes allows, once,
// the calls no rule names, and only those: an ask rule or a hook that asks
// wants a person, so those still ask on a terminal, or are denied
// without one.
func newPrompter(c *cli.Context) host.Prompter {
	var person host.Prompter = noTerminal{}
	if isTerminal(c.App.Reader) && isTerminal(c.App.ErrWriter) {
		person = &terminalPrompter{in: bufio.NewReader(c.App.Reader), out: c.App.ErrWriter}
	}
	if c.Bool("yes") {
		return yes{person}
	}
	return person
}

// yes allows the calls no rule names and passes the rest on.
type yes struct{ person host.Prompter }

func (y yes) Ask(ctx context.Context, q host.PermissionQuestion) (host.PermissionAnswer, error) {
	if q.Cause == host.NoRuleMatched {
		return host.AllowOnce, nil
	}
	return y.person.Ask(ctx, q)
}

// noTerminal denies what it cannot ask about. The script, and the model,
// read why: nobody was asked, not that a user refused; the CLI prints the
// refusal with a hint on stderr.
type noTerminal struct{}

// errNobodyToAsk is what every refusal of noTerminal matches.
var errNobodyToAsk = errors.New("there is no terminal to ask on")

// nobodyToAsk is noTerminal's refusal of one question.
type nobodyToAsk struct{ q host.PermissionQuestion }

func (e *nobodyToAsk) Error() string {
	switch e.q.Cause {
	case host.AskRuleMatched:
		return fmt.Sprintf("%s, and %v (--yes does not answer a call an ask rule names)", e.q.Why, errNobodyToAsk)
	case host.HookAsked:
		return fmt.Sprintf("%s, and %v (--yes does not answer a call a hook asks about)", e.q.Why, errNobodyToAsk)
	}
	return fmt.Sprintf("no permission rule allows it and %v (run with --yes, or add an allow rule to the settings)", errNobodyToAsk)
}
func (e *nobodyToAsk) Unwrap() error { return errNobodyToAsk }

// hint says how to let the call through.
func (e *nobodyToAsk) hint() string {
	switch e.q.Cause {
	case host.AskRuleMatched:
		return "answer on a terminal, or remove the ask rule named above"
	case host.HookAsked:
		return "answer on a terminal, or change the hook named above"
	}
	return fmt.Sprintf("pass --yes, or add an allow rule (\"permissions\": {\"allow\": [%q]}) to your settings", e.q.Tool.Name)
}

func (noTerminal) Ask(_ context.Context, q host.PermissionQuestion) (host.PermissionAnswer, error) {
	return host.Deny, &nobodyToAsk{q}
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
