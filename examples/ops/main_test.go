package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The example's own script restarts the two unhealthy services, in
// parallel, and reads them back up; its printed lines come as printed.
func TestOpsRestartsUnhealthyServices(t *testing.T) {
	var out, errs strings.Builder
	if code := run(nil, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	want := `| api	up
| db	up
| web	degraded
| worker	down
| web	after restart:	up
| worker	after restart:	up
9 calls; result: {"now":{"web":"up","worker":"up"},"restarted":2}
`
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}

// An operator's mistake is refused before anything restarts, each call
// named by its line.
func TestOpsRefusesAMistakenScript(t *testing.T) {
	script := filepath.Join(t.TempDir(), "bad.lua")
	src := "tools.restart{ service = \"api\" }\ntools.restart{ service = \"mail\" }\ntools.helth{ service = \"db\" }\n"
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs strings.Builder
	if code := run([]string{script}, &out, &errs); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	for _, want := range []string{
		`line 2: tools.restart{...}: args.service: want one of "api", "web", "worker", "db", got "mail"`,
		"line 3: tools.helth: no tool of that name; did you mean tools.health?",
	} {
		if !strings.Contains(errs.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs.String())
		}
	}
	if out.Len() != 0 {
		t.Errorf("something ran: %s", out.String())
	}
}
