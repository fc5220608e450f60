package announce

import (
	"crypto/sha256"
	"iter"
	"slices"
	"strings"

	"github.com/execlua/execlua/internal/toolname"
)

// Kind is what an announcement says about the catalogue.
type Kind string

const (
	// Full lists every pool name.
	Full Kind = "full"
	// Empty says no catalogued tools are available any more.
	Empty Kind = "empty"
	// Closed withdraws the list because Exec is no longer enabled.
	Closed Kind = "closed"
)

// Message is one message of the conversation as the host holds it. Hosts
// convert their own messages; only isMeta messages are searched for markers,
// so the role does not matter and is left out.
type Message struct {
	// IsMeta marks a message the host added for the model's information
	// rather than one the user or the model wrote.
	IsMeta bool
	Text   string
}

// Announcement is a message to append to the conversation as an isMeta user
// message, text unchanged (the marker line is part of it).
type Announcement struct {
	Kind Kind
	Text string
}

// The model-visible wording. Constant on purpose: the same pool must render
// the same bytes in every session and every release until changed here.
const (
	fullLead   = `Catalogued tools your scripts can call, as tools.<name>(args) or tools["<name>"](args); this list replaces any earlier one:`
	searchLine = `Names only: look up a tool's parameters with tools.` + toolname.ToolSearch + `{ query = "<name>" } in the same script, then call it.`
	emptyBody  = "The tool catalogue has changed: no catalogued tools are available right now; later updates may add some. None of the tools listed earlier can be called now."
	closedBody = "The tool catalogue has been withdrawn: the earlier list no longer applies; do not use its entries. Use only the tools declared to you directly."
)

var (
	emptyAnnouncement  = withMarker(Empty, emptyBody, digest(emptyBody))
	closedAnnouncement = withMarker(Closed, closedBody, digest(closedBody))
)

// sortedSet returns names sorted bytewise and de-duplicated, so that
// input order and repeats never change a byte of the list.
func sortedSet(names []string) []string {
	sorted := slices.Clone(names)
	slices.Sort(sorted)
	return slices.Compact(sorted)
}

// fullText renders the Full announcement of names, sorted and
// de-duplicated, in one buffer sized for size bytes of names and their
// newlines: the body, hashed where it lies, then its marker line. n is
// how many names it lists.
func fullText(names iter.Seq[string], size int) (text, hash string, n int) {
	var b strings.Builder
	b.Grow(len(fullLead) + 1 + size + len(searchLine) + 1 + markerLen)
	b.WriteString(fullLead)
	b.WriteByte('\n')
	for name := range names {
		b.WriteString(name)
		b.WriteByte('\n')
		n++
	}
	b.WriteString(searchLine)
	hash = digest(b.String()) // the body: the builder only appends
	b.WriteByte('\n')
	b.WriteString(marker(Full, hash))
	return b.String(), hash, n
}

// fullNames are the names a Full announcement's text lists, in order.
func fullNames(text string) iter.Seq[string] {
	names := text[len(fullLead)+1 : len(text)-len(searchLine)-1-markerLen]
	return func(yield func(string) bool) {
		for len(names) > 0 {
			nl := strings.IndexByte(names, '\n')
			if !yield(names[:nl]) {
				return
			}
			names = names[nl+1:]
		}
	}
}

func withMarker(kind Kind, body, hash string) Announcement {
	return Announcement{Kind: kind, Text: body + "\n" + marker(kind, hash)}
}

// The marker line. It has to survive the host's storage and compaction
// untouched and be impossible to confuse with prose, hence a fixed HTML
// comment with exactly two fields in a fixed order.
const (
	markerPrefix = "<!-- execlua-announce kind="
	markerHash   = " hash="
	markerSuffix = " -->"
	hashLen      = 12
	markerLen    = len(markerPrefix+Full+markerHash+markerSuffix) + hashLen // a Full one
)

func marker(kind Kind, hash string) string {
	return markerPrefix + string(kind) + markerHash + hash + markerSuffix
}

// digest is 48 bits of SHA-256, one letter a..p per nibble: enough to tell
// pools apart, short, and free of digits so the message never appears to
// carry a count (ANN-5).
func digest(body string) string {
	sum := sha256.Sum256([]byte(body))
	var out [hashLen]byte
	for i := range out {
		nibble := sum[i/2] >> 4
		if i%2 == 1 {
			nibble = sum[i/2] & 0x0f
		}
		out[i] = 'a' + nibble
	}
	return string(out[:])
}

// parseMarker reads one line that must be exactly a marker, surrounding
// white space aside. Anything else, including a marker with an unknown kind
// or a malformed hash, is not a marker.
func parseMarker(line string) (Kind, string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), markerPrefix)
	if !ok {
		return "", "", false
	}
	rest, ok = strings.CutSuffix(rest, markerSuffix)
	if !ok {
		return "", "", false
	}
	kind, hash, ok := strings.Cut(rest, markerHash)
	if !ok || len(hash) != hashLen || strings.Trim(hash, "abcdefghijklmnop") != "" {
		return "", "", false
	}
	switch k := Kind(kind); k {
	case Full, Empty, Closed:
		return k, hash, true
	}
	return "", "", false
}

// lastMarker finds the newest valid marker in isMeta messages, scanning from
// the end so that the usual case (a recent announcement) reads little.
func lastMarker(history []Message) (Kind, string, bool) {
	for i := len(history) - 1; i >= 0; i-- {
		m := history[i]
		if !m.IsMeta || !strings.Contains(m.Text, markerPrefix) {
			continue
		}
		for rest := m.Text; ; {
			nl := strings.LastIndexByte(rest, '\n')
			if kind, hash, ok := parseMarker(rest[nl+1:]); ok {
				return kind, hash, true
			}
			if nl < 0 {
				break
			}
			rest = rest[:nl]
		}
	}
	return "", "", false
}
