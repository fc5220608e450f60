package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/execlua/execlua/internal/cputime"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// FuzzRun: no script, however malformed or hostile, crashes the sandbox
// or runs on past its budget. Seeds are the script corpus.
func FuzzRun(f *testing.F) {
	files, _ := filepath.Glob("../testdata/lua/*.lua")
	hostile, _ := filepath.Glob("../testdata/lua/hostile/*.lua")
	for _, file := range append(files, hostile...) {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src))
	}
	for _, src := range vmSeeds {
		f.Add(src)
	}
	funnel := newFunnel(map[string]toolFunc{"echo": echo, "fail": failing("no")})
	f.Fuzz(func(t *testing.T, code string) {
		req := funnel.request(code)
		var out Outcome
		spent := cputime.Spent(t, func() {
			out = Run(context.Background(), req, &Options{Budget: 50 * time.Millisecond, MaxMemory: 64 << 20, MaxStringBytes: 1 << 20})
		})
		if errors.Is(out.Err, ErrCrashed) {
			t.Fatalf("crashed: %v", out.Err)
		}
		if spent > 5*time.Second {
			t.Fatalf("spent %v of CPU", spent)
		}
	})
}

// vmSeeds are the shapes of issue 22's coroutine, far-key and Lua 5.1
// classes, small enough for the fuzzer to vary.
var vmSeeds = []string{
	`local co co = coroutine.create(function() return coroutine.resume(co) end) return coroutine.resume(co)`,
	`local a, b a = coroutine.wrap(function() b() end) b = coroutine.wrap(function() a() end) return pcall(a)`,
	`local co = coroutine.create(function() return tools.echo{} end) return tools.parallel(function() return coroutine.resume(co) end, function() return coroutine.resume(co, 1) end)`,
	`local t = {[33554431] = 1}`,
	`local b = {} b[1], b[50331647] = 1, 2`,
	`local a = {} for i = 1, 50 do a[2^i] = true end`,
	`local a = {} local b = a a, a[1] = 1, 2 return b[1]`,
	`for i = "1", "3", "1" do end`,
	`return pcall(tools.nosuch, {}), pcall(function() bbbb() end), table.maxn({[2.5] = 1})`,
	`return tostring(setmetatable({}, {__tostring = function() return {} end}))`,
	`local k = {} for i = 1, 100 do k[i] = string.gmatch(("x"):rep(1000) .. i, ".") end`,
}

// fuzzArgs are the argument expressions of FuzzLibraryCalls: numbers at
// the edges, huge and negative counts, and one value of every kind; v is
// the value the previous call returned.
var fuzzArgs = []string{
	"0", "-0", "1", "-1", "2.5", "2^31", "2^53", "-2^53", "2^62", "-2^62", "2^63", "-2^63", "1e308",
	"0/0", "1/0", "-1/0", "nil", "true", `""`, `"%a%"`, `"abc"`, `("x"):rep(1000)`,
	"{}", "{1, 2, 3}", `{a = 1}`, "function(...) return ... end", "v",
}

// libraryFunctions lists every function a script can reach in the
// libraries, by name (string.rep), from a run of the sandbox itself.
func libraryFunctions(t testing.TB) []string {
	out := Run(context.Background(), Request{Code: `
		local names = {}
		for _, lib in ipairs({ "_G", "string", "table", "math", "coroutine" }) do
			for k, v in pairs(lib == "_G" and _G or _G[lib]) do
				if type(v) == "function" then
					names[#names + 1] = (lib == "_G" and "" or lib .. ".") .. k
				end
			end
		end
		names[#names + 1] = "tools.parallel"
		table.sort(names)
		return names`}, nil)
	var names []string
	if err := json.Unmarshal([]byte(out.Result), &names); err != nil || out.Err != nil {
		t.Fatalf("listing functions: %v %v", out.Err, err)
	}
	return names
}

// FuzzLibraryCalls builds whole scripts from a small grammar of library
// calls with extreme arguments, each call protected by pcall and its
// result fed to the next: no script crashes the sandbox or outlives its
// budget.
func FuzzLibraryCalls(f *testing.F) {
	names := libraryFunctions(f)
	position := func(list []string, what, s string) byte {
		i := slices.Index(list, s)
		if i < 0 {
			f.Fatalf("no %s %s", what, s)
		}
		return byte(i)
	}
	index := func(name string) byte { return position(names, "function", name) }
	arg := func(expr string) byte { return position(fuzzArgs, "argument", expr) }
	f.Add([]byte{index("math.random"), 2, arg("-2^62"), arg("2^62")})
	f.Add([]byte{index("string.rep"), 2, arg(`"abc"`), arg("2^31"), index("string.gsub"), 3, arg("v"), arg(`"%a%"`), arg("v")})
	f.Add([]byte{index("table.concat"), 4, arg("{1, 2, 3}"), arg(`""`), arg("-2^63"), arg("2^63")})
	f.Add([]byte{index("coroutine.wrap"), 1, arg("function(...) return ... end"), index("tools.parallel"), 2, arg("v"), arg("v")})
	f.Fuzz(func(t *testing.T, program []byte) {
		var b strings.Builder
		b.WriteString("local v\n")
		for i := 0; i+1 < len(program); {
			name := names[int(program[i])%len(names)]
			n := int(program[i+1]) % 5
			i += 2
			args := []string{name}
			for ; n > 0 && i < len(program); n-- {
				args = append(args, fuzzArgs[int(program[i])%len(fuzzArgs)])
				i++
			}
			fmt.Fprintf(&b, "v = select(2, pcall(%s))\n", strings.Join(args, ", "))
		}
		var out Outcome
		spent := cputime.Spent(t, func() {
			out = Run(context.Background(), Request{Code: b.String()}, &Options{Budget: 50 * time.Millisecond, MaxMemory: 64 << 20, MaxStringBytes: 1 << 20})
		})
		if errors.Is(out.Err, ErrCrashed) {
			t.Fatalf("crashed:\n%s\n%v", b.String(), out.Err)
		}
		// This catches a builtin that runs on past the budget; the hostile
		// corpus measures the overrun.
		if spent > 50*time.Millisecond+stopSlack {
			t.Fatalf("spent %v of CPU:\n%s", spent, b.String())
		}
	})
}
