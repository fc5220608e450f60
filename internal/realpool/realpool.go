package realpool

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
)

//go:embed tools.json
var toolsJSON []byte

// Listing is one tools/list entry of one server, as the server sent it.
type Listing struct {
	Server string
	Name   string
	Entry  json.RawMessage
}

// Servers is the number of servers in one copy of the pool, Tools the
// number of tools.
const (
	Servers = 22
	Tools   = 370
)

// Pool returns n listings: the real pool's servers in name order, each
// server's tools in its own order, copy after copy (servers renamed
// <server>-00, <server>-01, ...) until n are listed. The last copy may end
// part-way through a server.
func Pool(n int) []Listing { return pool(n, false) }

// DistinctPool is Pool with each copy's texts made its own: every
// description in an entry (the tool's, and those in its input schema)
// ends with the word copyNN, NN the copy's number. No whole text then
// repeats from copy to copy, as none would among 10,000 different tools,
// while the words still do, as they do among real tools. It measures what
// a pool costs without any help from the copies.
func DistinctPool(n int) []Listing { return pool(n, true) }

func pool(n int, distinct bool) []Listing {
	servers := load()
	names := make([]string, 0, len(servers))
	for name := range servers {
		names = append(names, name)
	}
	slices.Sort(names)
	out := make([]Listing, 0, n)
	for copyNo := 0; len(out) < n; copyNo++ {
		for _, name := range names {
			entries := servers[name]
			if distinct {
				entries = marked(entries, fmt.Sprintf(" copy%02d", copyNo))
			}
			out = append(out, server(fmt.Sprintf("%s-%02d", name, copyNo), entries)...)
			if len(out) >= n {
				return out[:n]
			}
		}
	}
	return out
}

// Server returns the listings of one real server (its name as in
// tools.json) under the given server name: what a server joining sends.
// It panics on a server tools.json does not have.
func Server(real, as string) []Listing {
	entries, ok := load()[real]
	if !ok {
		panic("realpool: no server " + real)
	}
	return server(as, entries)
}

func server(as string, entries []json.RawMessage) []Listing {
	out := make([]Listing, len(entries))
	for i, e := range entries {
		var head struct{ Name string }
		if err := json.Unmarshal(e, &head); err != nil {
			panic("realpool: tools.json: " + err.Error())
		}
		out[i] = Listing{Server: as, Name: head.Name, Entry: e}
	}
	return out
}

// marked returns entries with word appended to every description: each
// "description" key whose value is a string, at any depth.
func marked(entries []json.RawMessage, word string) []json.RawMessage {
	out := make([]json.RawMessage, len(entries))
	for i, e := range entries {
		var b []byte
		for {
			at := bytes.Index(e, []byte(`"description"`))
			if at < 0 {
				break
			}
			end := at + len(`"description"`)
			if close := descriptionEnd(e[end:]); close >= 0 {
				end += close
				b = append(append(b, e[:end]...), word...)
			} else {
				b = append(b, e[:end]...)
			}
			e = e[end:]
		}
		out[i] = append(b, e...)
	}
	return out
}

// descriptionEnd is where the string value after a "description" key in
// rest ends (the offset of its closing quote), or -1 when rest has no
// string value there (the key is a value itself, or names a property).
func descriptionEnd(rest []byte) int {
	i := 0
	skip := func() {
		for i < len(rest) && (rest[i] == ' ' || rest[i] == '\n' || rest[i] == '\t' || rest[i] == '\r') {
			i++
		}
	}
	skip()
	if i >= len(rest) || rest[i] != ':' {
		return -1
	}
	i++
	skip()
	if i >= len(rest) || rest[i] != '"' {
		return -1
	}
	for i++; i < len(rest); i++ {
		switch rest[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// load decodes tools.json; it is embedded and checked by the tests, so a
// failure is a broken build and panics.
func load() map[string][]json.RawMessage {
	var servers map[string][]json.RawMessage
	if err := json.Unmarshal(toolsJSON, &servers); err != nil {
		panic("realpool: tools.json: " + err.Error())
	}
	return servers
}
