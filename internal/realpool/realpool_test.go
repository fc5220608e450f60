package realpool

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPool(t *testing.T) {
	if got := len(load()); got != Servers {
		t.Errorf("%d servers, want %d", got, Servers)
	}
	if got := len(Pool(Tools)); got != Tools {
		t.Errorf("one copy lists %d tools, want %d", got, Tools)
	}
	p := Pool(10_000)
	seen := map[string]bool{}
	for _, l := range p {
		key := l.Server + "/" + l.Name
		if seen[key] || l.Name == "" || len(l.Entry) == 0 {
			t.Fatalf("listing %q repeated or empty", key)
		}
		seen[key] = true
	}
	if len(p) != 10_000 {
		t.Errorf("Pool(10000) lists %d", len(p))
	}
	if got := len(Server("playwright", "late")); got != 24 {
		t.Errorf("playwright lists %d tools, want 24", got)
	}
}

// DistinctPool lists what Pool lists, each description of copy NN ending
// with the word copyNN, so that no text of one copy is one of another's.
func TestDistinctPool(t *testing.T) {
	same, distinct := Pool(2*Tools), DistinctPool(2*Tools)
	texts := map[string]int{} // description -> copy
	for i, l := range distinct {
		copyNo := i / Tools
		word := []string{" copy00", " copy01"}[copyNo]
		if l.Server != same[i].Server || l.Name != same[i].Name {
			t.Fatalf("listing %d is %s/%s, Pool's %s/%s", i, l.Server, l.Name, same[i].Server, same[i].Name)
		}
		var got, want any
		if err := json.Unmarshal(l.Entry, &got); err != nil {
			t.Fatalf("%s/%s: %v", l.Server, l.Name, err)
		}
		_ = json.Unmarshal(same[i].Entry, &want)
		n := 0
		walkDescriptions(got, func(d string) {
			n++
			if !strings.HasSuffix(d, word) {
				t.Errorf("%s/%s: description %q does not end with %q", l.Server, l.Name, d, word)
			}
			if c, ok := texts[d]; ok && c != copyNo {
				t.Errorf("%s/%s: description %q in copies %d and %d", l.Server, l.Name, d, c, copyNo)
			}
			texts[d] = copyNo
		})
		walkDescriptions(want, func(string) { n-- })
		if n != 0 {
			t.Errorf("%s/%s: %d descriptions more than Pool's", l.Server, l.Name, n)
		}
	}
	if len(texts) < Tools {
		t.Errorf("%d descriptions, want at least %d", len(texts), Tools)
	}
}

// walkDescriptions calls f with every string under a "description" key.
func walkDescriptions(v any, f func(string)) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if s, ok := e.(string); ok && k == "description" {
				f(s)
			}
			walkDescriptions(e, f)
		}
	case []any:
		for _, e := range v {
			walkDescriptions(e, f)
		}
	}
}
