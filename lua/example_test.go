package lua_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/lua"
)

// A Go program runs a script of its own in the safe environment: data in
// through Globals, printed lines through Print, return values out as JSON.
func ExampleRun() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := lua.Run(ctx, `
		local words = {}
		for w in string.gmatch(text, "%a+") do
			words[#words + 1] = string.upper(w)
		end
		print(#words .. " words, os is " .. type(os))
		return words, { n = #words }
	`, &lua.Options{
		Globals: map[string]any{"text": "a safe Lua, of its own"},
		Print:   func(line string) { fmt.Println("print:", line) },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range out {
		fmt.Println(string(v))
	}

	_, err = lua.Run(ctx, `return { cb = print }`, nil)
	fmt.Println(err, errors.Is(err, lua.ErrNotData))
	// Output:
	// print: 6 words, os is nil
	// ["A","SAFE","LUA","OF","ITS","OWN"]
	// {"n":6}
	// result[1].cb is a function; only nil, booleans, numbers, strings and plain tables can be passed to a tool true
}

// An ops program lets an operator script its Go functions: a Runner gives
// the script those tools, prints as it prints, and refuses a literal
// mistake before anything runs.
func ExampleRunner() {
	type service struct {
		Name string `json:"name" enum:"api,web"`
	}
	ops, err := execlua.NewGoTools(execlua.Func("restart", "Restart a service.",
		func(_ context.Context, in service) (string, error) { return "restarted " + in.Name, nil }))
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := lua.NewRunner(ops.Tools(), ops, &lua.RunnerOptions{
		Timeout: 5 * time.Second,
		Print:   func(line string) { fmt.Println("|", line) },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := r.Run(context.Background(), `print(tools.restart{ name = "api" }) return "done"`)
	fmt.Println(string(res.Value), err)

	_, err = r.Run(context.Background(), "tools.restart{ name = \"api\" }\ntools.restart{ name = \"db\" }")
	fmt.Println(err)
	// Output:
	// | restarted api
	// "done" <nil>
	// the script was not run and no tool was called: 1 call cannot work as written
	// line 2: tools.restart{...}: args.name: want one of "api", "web", got "db"
	// Fix it and run the script again.
}
