package execlua_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/render"
)

// A Go function becomes a tool: its schemas come from its types, and its
// arguments are checked before it runs.
func ExampleFunc() {
	type restartArgs struct {
		Service string `json:"service" jsonschema:"the service to restart" enum:"api,web"`
		Force   bool   `json:"force,omitempty"`
	}
	type restarted struct {
		Service string `json:"service"`
		PID     int    `json:"pid"`
	}
	restart := func(_ context.Context, in restartArgs) (restarted, error) {
		return restarted{Service: in.Service, PID: 4242}, nil
	}
	ops, err := execlua.NewGoTools(execlua.Func("restart", "Restart a service.", restart))
	if err != nil {
		fmt.Println(err)
		return
	}
	t := ops.Tools()[0]
	sig, _ := render.Signature(t.Name, t.InputSchema, t.OutputSchema)
	fmt.Print(sig)

	out, err := ops.Call(context.Background(), execlua.Call{Name: "restart", Args: json.RawMessage(`{"service":"api"}`)})
	fmt.Println(string(out.Structured), err)
	_, err = ops.Call(context.Background(), execlua.Call{Name: "restart", Args: json.RawMessage(`{"service":"db","force":"yes"}`)})
	fmt.Println(err)
	// Output:
	// ---@class restart.Args
	// ---@field service "api"|"web" the service to restart
	// ---@field force? boolean
	//
	// ---@param args restart.Args
	// ---@return { service: string, pid: integer }
	// function tools.restart(args) end
	// {"service":"api","pid":4242} <nil>
	// restart was not called, its arguments are not valid: args.service: want one of "api", "web", got "db"; args.force: want boolean, got string
}
