package realpool

import (
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
func Pool(n int) []Listing {
	servers := load()
	names := make([]string, 0, len(servers))
	for name := range servers {
		names = append(names, name)
	}
	slices.Sort(names)
	out := make([]Listing, 0, n)
	for copyNo := 0; len(out) < n; copyNo++ {
		for _, name := range names {
			out = append(out, server(fmt.Sprintf("%s-%02d", name, copyNo), servers[name])...)
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

// load decodes tools.json; it is embedded and checked by the tests, so a
// failure is a broken build and panics.
func load() map[string][]json.RawMessage {
	var servers map[string][]json.RawMessage
	if err := json.Unmarshal(toolsJSON, &servers); err != nil {
		panic("realpool: tools.json: " + err.Error())
	}
	return servers
}
