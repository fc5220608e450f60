package search

import (
	"errors"
	"slices"
	"testing"

	"github.com/execlua/execlua/pool"
)

// The zero Options are the defaults; an unknown name in Disable is an
// error that names the known ones; a disabled rule changes the ranking of
// the Index made with it and of no other.
func TestOptions(t *testing.T) {
	t.Parallel()
	tools := []pool.Tool{
		mcpTool("gh", "create_pull_request", "Create a pull request."),
		mcpTool("fs", "read_file", "Read a file."),
		mcpTool("fs", "create_file", "Create a file."),
	}
	x, err := NewIndexWith(tools, &Options{})
	if err != nil {
		t.Fatal(err)
	}
	if x.rk.fields != defaultRanking.fields || x.rk.cover != DefaultWeights().Cover {
		t.Errorf("zero Options: weights %+v, want the defaults", x.rk)
	}
	_, err = NewIndexWith(tools, &Options{Disable: []string{"senses", "no-such-rule"}})
	if !errors.Is(err, ErrUnknownName) {
		t.Errorf("unknown name: err = %v, want ErrUnknownName", err)
	}
	without, err := x.WithOptions(&Options{Disable: []string{"senses"}})
	if err != nil {
		t.Fatal(err)
	}
	query := []byte(q("open a file"))
	with, _ := x.Search(query)
	off, _ := without.Search(query)
	if names(with)[0] != "mcp__fs__read_file" || slices.Equal(names(with), names(off)) {
		t.Errorf("open a file: with senses %v, without %v; want read_file first, and the senses to matter", names(with), names(off))
	}
	w := DefaultWeights()
	w.Name = 0
	noNames, err := x.WithOptions(&Options{Weights: &w})
	if err != nil || noNames.rk.fields[fName] != 0 || x.rk.fields[fName] != 3 {
		t.Errorf("Weights: %v; name weight %v, and the first index's %v", err, noNames.rk.fields[fName], x.rk.fields[fName])
	}
	for _, name := range append(RuleNames(), SignalNames()...) {
		if _, err := x.WithOptions(&Options{Disable: []string{name}}); err != nil {
			t.Errorf("Disable %q: %v", name, err)
		}
	}
	if !slices.IsSorted(SignalNames()) {
		t.Errorf("SignalNames not sorted: %v", SignalNames())
	}
}
