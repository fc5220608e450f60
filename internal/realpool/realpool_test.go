package realpool

import "testing"

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
