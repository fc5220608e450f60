// Command ops is a small operations program that lets an operator script
// its own Go functions: restart services and read their health. The Go
// functions become typed tools (execlua.Func), and lua.Runner runs the
// operator's Lua against them, printing as the script prints.
//
//	go run ./examples/ops                 # runs restart.lua
//	go run ./examples/ops my-script.lua
package main

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/lua"
)

//go:embed restart.lua
var restartScript string

func main() {
	if execlua.IsWorker() {
		os.Exit(execlua.ServeWorker())
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// fleet is the services this program manages: in memory, for the example.
type fleet struct {
	mu       sync.Mutex
	status   map[string]string
	restarts map[string]int
}

type serviceArgs struct {
	Service string `json:"service" jsonschema:"the service's name" enum:"api,web,worker,db"`
}

type restartArgs struct {
	serviceArgs
	Reason string `json:"reason,omitempty" jsonschema:"why, for the audit log"`
}

type health struct {
	Service  string `json:"service"`
	Status   string `json:"status" jsonschema:"up, degraded or down"`
	Healthy  bool   `json:"healthy"`
	Restarts int    `json:"restarts"`
}

type serviceList struct {
	Services []string `json:"services"`
}

func (f *fleet) list(context.Context, struct{}) (serviceList, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	names := make([]string, 0, len(f.status))
	for name := range f.status {
		names = append(names, name)
	}
	slices.Sort(names)
	return serviceList{Services: names}, nil
}

func (f *fleet) health(_ context.Context, in serviceArgs) (health, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	status, ok := f.status[in.Service]
	if !ok {
		return health{}, fmt.Errorf("no service %q in this fleet", in.Service)
	}
	return health{Service: in.Service, Status: status, Healthy: status == "up", Restarts: f.restarts[in.Service]}, nil
}

func (f *fleet) restart(_ context.Context, in restartArgs) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.status[in.Service]; !ok {
		return "", fmt.Errorf("no service %q in this fleet", in.Service)
	}
	f.status[in.Service] = "up"
	f.restarts[in.Service]++
	return "restarted " + in.Service, nil
}

// tools describes the fleet's functions as tools.
func (f *fleet) tools() (*execlua.GoTools, error) {
	return execlua.NewGoTools(
		execlua.Func("list_services", "List the fleet's services.", f.list),
		execlua.Func("health", "Read one service's health.", f.health),
		execlua.Func("restart", "Restart one service.", f.restart),
	)
}

// run runs the script named by args[0], or restart.lua, and prints the
// script's lines as they come and its result at the end.
func run(args []string, stdout, stderr io.Writer) int {
	script := restartScript
	if len(args) > 0 {
		src, err := os.ReadFile(args[0])
		if err != nil {
			fmt.Fprintln(stderr, "ops:", err)
			return 2
		}
		script = string(src)
	}
	f := &fleet{
		status:   map[string]string{"api": "up", "web": "degraded", "worker": "down", "db": "up"},
		restarts: map[string]int{},
	}
	ops, err := f.tools()
	if err != nil {
		fmt.Fprintln(stderr, "ops:", err)
		return 2
	}
	r, err := lua.NewRunner(ops.Tools(), ops, &lua.RunnerOptions{
		Limits:  execlua.Limits{Budget: time.Second},
		Timeout: 10 * time.Second,
		Print:   func(line string) { fmt.Fprintln(stdout, "|", line) },
	})
	if err != nil {
		fmt.Fprintln(stderr, "ops:", err)
		return 2
	}
	res, err := r.Run(context.Background(), script)
	if err != nil {
		fmt.Fprintln(stderr, "ops:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%d calls; result: %s\n", len(res.Calls), res.Value)
	return 0
}
