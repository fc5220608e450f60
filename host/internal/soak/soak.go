package soak

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/execlua/execlua/host"
)

// Env sets the runs per worker of a soak (make soak).
const Env = "EXECLUA_SOAK"

// Runs is how many runs each worker of a soak makes: Env when set, else
// def, a size that fits make test.
func Runs(t testing.TB, def int) int {
	t.Helper()
	v := os.Getenv(Env)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive number of runs per worker", Env, v)
	}
	return n
}

// Script makes n calls on servers picked at random by rng: most answer
// (text, echo), one in twenty crashes its server (never "web", which a
// soak serves over HTTP), one in twenty hangs until the call timeout.
// Every call is caught; the script returns a line per call, "ok" or the
// call's error on one line.
func Script(rng *rand.Rand, n int, servers ...string) string {
	var b strings.Builder
	b.WriteString("local out = {}\n")
	for range n {
		srv := servers[rng.IntN(len(servers))]
		tool := "text"
		switch r := rng.IntN(20); {
		case r == 0 && srv != "web":
			tool = "crash"
		case r == 1:
			tool = "hang"
		case r < 6:
			tool = "echo"
		}
		fmt.Fprintf(&b, "local ok, err = pcall(tools.mcp__%s__%s, {})\nout[#out+1] = ok and \"ok\" or (tostring(err):gsub(\"\\n\", \" | \"))\n", srv, tool)
	}
	b.WriteString("return table.concat(out, \"\\n\")\n")
	return b.String()
}

// Restarts is each of h's servers' restarts so far, by name.
func Restarts(h *host.Host) map[string]int {
	out := map[string]int{}
	for _, st := range h.Servers() {
		out[st.Name] = st.Restarts
	}
	return out
}
