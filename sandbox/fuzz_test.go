package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/execlua/execlua/internal/cputime"
	"github.com/execlua/execlua/internal/jsontext"
	"github.com/execlua/execlua/pool"
	"github.com/execlua/execlua/search"
)

// FuzzRun: no script, however malformed or hostile, crashes the sandbox
// or runs on past its budget; its error is bounded (MaxErrorChars), and
// what it returns, unless a single string or cut, is valid JSON with no
// key twice in an object. Seeds are the script corpus and the shapes of
// issue 22 (megabytes handed to the host, keys of one JSON name).
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
	for _, seed := range []string{
		`return {[1] = "int", ["1"] = "str"}`,
		`return {[true] = 1, ["true"] = 2, [print] = 3, [type] = 4, [1e15] = 5, [1e15 + 1] = 6}`,
		`return {[2] = "a", ["2"] = "b", x = {[1] = 1, ["1"] = 2}}, {[1] = 1, ["1"] = 2}`,
		`error(("x"):rep(2^20))`,
		`error(setmetatable({}, { __tostring = function() return ("y"):rep(2^20) end }))`,
		`local n = "mcp__" .. ("x"):rep(2^20 - 5) return tools[n]{}`,
		`return tools.ToolSearch{ query = ("x"):rep(2^20) }`,
		`return tools.ToolSearch{ query = ("ab "):rep(300) }`,
		`return tools.ToolSearch{ query = "select:" .. ("echo,"):rep(200) }`,
		`local w = {} for i = 1, 40000 do w[i] = "w" .. i end return tools.ToolSearch{ query = table.concat(w, " ") }`,
	} {
		f.Add(seed)
	}
	for _, src := range vmSeeds {
		f.Add(src)
	}
	funnel := newFunnel(map[string]toolFunc{"echo": echo, "fail": failing("no")})
	var catalogue []pool.Tool
	for _, tool := range funnel.toolList() {
		catalogue = append(catalogue, pool.Tool{Name: tool.Name, Description: "a test tool"})
	}
	index := search.NewIndex(catalogue)
	opts := &Options{Budget: 50 * time.Millisecond, MaxMemory: 64 << 20, MaxStringBytes: 1 << 20}
	f.Fuzz(func(t *testing.T, code string) {
		req := funnel.request(code)
		req.Search = func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			res, err := index.SearchContext(ctx, args)
			if err != nil {
				return nil, err
			}
			return json.Marshal(res)
		}
		req.SearchSchema = json.RawMessage(search.InputSchema)
		var out Outcome
		spent := cputime.Spent(t, func() { out = Run(context.Background(), req, opts) })
		if errors.Is(out.Err, ErrCrashed) {
			t.Fatalf("crashed: %v", out.Err)
		}
		if spent > 5*time.Second {
			t.Fatalf("spent %v of CPU", spent)
		}
		if out.Err != nil && utf8.RuneCountInString(out.Err.Error()) > opts.MaxErrorChars()+100 {
			t.Fatalf("an error of %d characters", utf8.RuneCountInString(out.Err.Error()))
		}
		if out.HasResult && !out.StringResult && out.ResultChars == utf8.RuneCountInString(out.Result) {
			doc, err := jsontext.Parse(out.Result)
			if err != nil {
				t.Fatalf("the result is not JSON (%v): %s", err, out.Result)
			}
			if key, twice := doc.RepeatedKey(); twice {
				t.Fatalf("the result has key %q twice: %s", key, out.Result)
			}
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
