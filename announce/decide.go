package announce

import (
	"iter"
	"slices"
)

// Input is everything the broadcast decision may depend on. Nothing else is
// consulted, and nothing is remembered between calls.
type Input struct {
	// HasChannel reports whether the host can append isMeta messages and
	// read them back. Without it Decide always returns nothing: an unreadable
	// history must never be taken for a pool that emptied (BC-10).
	HasChannel bool
	// History is the conversation as the host gives it now, after any
	// compaction or rewind. Decide only reads it.
	History []Message
	// Names are the pool's tool names, in any order, repeats allowed.
	Names []string
	// List, when not nil, is the pool's names rendered once by NewList and
	// stands for Names, which are then not read: a host that decides for
	// every request over the same pool renders and hashes it only once.
	List *List
	// ExecEnabled reports that Exec is switched on, not excluded and not
	// denied. It stays true while an empty pool keeps Exec out of tools[]:
	// that is an emptied pool (Empty), not a closed channel (Closed).
	ExecEnabled bool
}

// Decide returns the message to append to in.History, or false when nothing
// should be said. The decision table is in the package documentation.
func Decide(in Input) (Announcement, bool) {
	if !in.HasChannel {
		return Announcement{}, false
	}
	said, saidHash, _ := lastMarker(in.History)
	switch {
	case !in.ExecEnabled:
		return withdraw(closedAnnouncement, said)
	}
	list := in.List
	if list == nil {
		list = NewList(in.Names)
	}
	switch {
	case list.empty:
		return withdraw(emptyAnnouncement, said)
	case said == Full && saidHash == list.hash:
		return Announcement{}, false
	}
	return list.full, true
}

// List is the Full announcement of one set of names, rendered and hashed.
// It is immutable, so requests in parallel may share it. Its names are the
// lines of its text.
type List struct {
	full  Announcement
	hash  string
	empty bool
}

// NewList renders the Full announcement of names (in any order, repeats
// allowed) for Input.List.
func NewList(names []string) *List {
	sorted := sortedSet(names)
	return listOf(slices.Values(sorted), textSize(sorted))
}

func listOf(sorted iter.Seq[string], size int) *List {
	text, hash, n := fullText(sorted, size)
	if n == 0 {
		return &List{empty: true}
	}
	return &List{full: Announcement{Kind: Full, Text: text}, hash: hash}
}

func textSize(names []string) int {
	n := 0
	for _, name := range names {
		n += len(name) + 1
	}
	return n
}

// With returns NewList of l's names without those of left and with those
// of joined (a name in both stays): what a pool that changed by a server or
// two announces, at the cost of one pass over l's text instead of a sort
// of every name. l is left as it was.
func (l *List) With(joined, left []string) *List {
	add, drop := sortedSet(joined), sortedSet(left)
	if l.empty {
		return listOf(slices.Values(add), textSize(add))
	}
	size := len(l.full.Text) + textSize(add)
	merged := func(yield func(string) bool) {
		for name := range fullNames(l.full.Text) {
			for len(add) > 0 && add[0] < name {
				if !yield(add[0]) {
					return
				}
				add = add[1:]
			}
			for len(drop) > 0 && drop[0] < name {
				drop = drop[1:]
			}
			switch {
			case len(add) > 0 && add[0] == name:
				add = add[1:]
			case len(drop) > 0 && drop[0] == name:
				continue
			}
			if !yield(name) {
				return
			}
		}
		for _, name := range add {
			if !yield(name) {
				return
			}
		}
	}
	return listOf(merged, size)
}

// withdraw sends Empty or Closed only while a list is in effect. With none
// in effect (never announced, or already withdrawn) the model holds no list
// to retract, and a first word about "no tools" would refer to nothing.
func withdraw(a Announcement, said Kind) (Announcement, bool) {
	if said != Full {
		return Announcement{}, false
	}
	return a, true
}
