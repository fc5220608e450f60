package cputime

import "testing"

// Work done shows in the process's CPU time, which never goes back.
func TestProcessGrows(t *testing.T) {
	before, err := Process()
	if err != nil {
		t.Fatal(err)
	}
	x := 0
	for i := range 50_000_000 {
		x ^= i * i
	}
	after, err := Process()
	if err != nil {
		t.Fatal(err)
	}
	if after <= before {
		t.Errorf("CPU time %v after a busy loop (%d), %v before", after, x, before)
	}
}
