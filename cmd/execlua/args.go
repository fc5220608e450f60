package main

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// flagsFirst moves a command's flags ahead of its arguments, so that
// `execlua run script.lua --json` means what it says: urfave/cli v2 stops
// reading flags at a command's first argument. A flag that takes a value
// keeps the word after it; "--" ends the flags, and what follows it stays
// an argument. A word like a flag that names none of the command's moves
// too, so that urfave/cli reports it as the unknown flag it is.
func flagsFirst(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	cmd := app.Command(args[1])
	if cmd == nil {
		return args
	}
	var flags, rest []string
	words := args[2:]
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "--" {
			rest = append(rest, words[i:]...)
			break
		}
		if !isFlagLike(w) {
			rest = append(rest, w)
			continue
		}
		flags = append(flags, w)
		if takesValue(commandFlag(cmd, w)) && !strings.Contains(w, "=") && i+1 < len(words) {
			i++
			flags = append(flags, words[i])
		}
	}
	return slices.Concat(args[:2], flags, rest)
}

func isFlagLike(w string) bool { return len(w) > 1 && w[0] == '-' }

// commandFlag returns cmd's flag that w sets ("-y", "--json",
// "--record=f"), or nil.
func commandFlag(cmd *cli.Command, w string) cli.Flag {
	name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
	for _, f := range cmd.Flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}

func takesValue(f cli.Flag) bool {
	v, ok := f.(interface{ TakesValue() bool }) // nil and bool flags do not
	return ok && v.TakesValue()
}
