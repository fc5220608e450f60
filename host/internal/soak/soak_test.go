package soak

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/execlua/execlua/internal/luavm"
)

// Scripts compile, make the calls asked for, and call every kind of tool
// but never crash web.
func TestScript(t *testing.T) {
	const scripts, n = 40, 60 // a script of more calls has more locals than Lua allows
	rng := rand.New(rand.NewPCG(1, 2))
	var all strings.Builder
	for range scripts {
		script := Script(rng, n, "s1", "web")
		if _, err := luavm.Compile(script); err != nil {
			t.Fatalf("a script does not compile: %v", err)
		}
		if got := strings.Count(script, "pcall("); got != n {
			t.Errorf("%d calls, want %d", got, n)
		}
		all.WriteString(script)
	}
	for _, call := range []string{"mcp__s1__crash", "mcp__s1__hang", "mcp__web__hang", "mcp__s1__echo", "mcp__web__text"} {
		if !strings.Contains(all.String(), call) {
			t.Errorf("no call of %s in %d scripts", call, scripts)
		}
	}
	if strings.Contains(all.String(), "mcp__web__crash") {
		t.Error("a script crashes web")
	}
}

// Runs is the default unless Env says otherwise.
func TestRuns(t *testing.T) {
	t.Setenv(Env, "")
	if got := Runs(t, 7); got != 7 {
		t.Errorf("Runs = %d without %s, want 7", got, Env)
	}
	t.Setenv(Env, "30")
	if got := Runs(t, 7); got != 30 {
		t.Errorf("Runs = %d with %s=30, want 30", got, Env)
	}
}
