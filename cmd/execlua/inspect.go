package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/render"
	"github.com/execlua/execlua/search"
)

func toolsCommand() *cli.Command {
	return &cli.Command{
		Name:  "tools",
		Usage: "show tools[] and the announcement a new conversation would get",
		Description: `Shows what a host sends the model: the declared tools (Exec's description
in full) and the names-only announcement appended to a new conversation.
--json prints them exactly as a host would send them.

Example:
   execlua tools --demo
   execlua tools --mcp-config .mcp.json --json`,
		Flags:  withCommon(jsonFlag),
		Action: toolsAction,
	}
}

// toolsOutput is tools --json's shape.
type toolsOutput struct {
	Tools        []declaredTool `json:"tools"`
	Announcement *metaMessage   `json:"announcement"`
	// Servers are the MCP servers' status, as `execlua servers --json`
	// prints it.
	Servers []host.ServerStatus `json:"servers"`
}

type declaredTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// metaMessage is the announcement as the isMeta user message a host
// appends to the conversation.
type metaMessage struct {
	Role    string `json:"role"`
	IsMeta  bool   `json:"isMeta"`
	Content string `json:"content"`
}

func toolsAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageErr("tools takes no arguments: execlua tools --json", "unexpected argument %q", c.Args().First())
	}
	env, err := openHost(c, hostSetup{prompter: newPrompter(c)})
	if err != nil {
		return err
	}
	defer env.close()
	req := env.session.Request(nil)
	out := toolsOutput{Tools: make([]declaredTool, len(req.Tools)), Servers: serverStatus(env.host)}
	for i, d := range req.Tools {
		out.Tools[i] = declaredTool{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema}
	}
	if req.Announcement != nil {
		out.Announcement = &metaMessage{Role: "user", IsMeta: true, Content: req.Announcement.Text}
	}
	if c.Bool("json") {
		return writeJSON(c.App.Writer, out)
	}
	writeTools(c.App.Writer, out)
	return nil
}

// writeTools prints tools[] for a person: Exec's description in full (it is
// what the model reads about scripting), the first line of every other.
func writeTools(w io.Writer, out toolsOutput) {
	fmt.Fprintf(w, "tools[] (%d):\n", len(out.Tools))
	for _, t := range out.Tools {
		if t.Name == execlua.Name {
			fmt.Fprintf(w, "\n%s\n%s\n\n", t.Name, indent(t.Description))
			continue
		}
		fmt.Fprintf(w, "  %s  %s\n", t.Name, firstLine(t.Description))
	}
	if out.Announcement == nil {
		fmt.Fprintln(w, "\nNo announcement: the pool is empty or Exec is off.")
		return
	}
	fmt.Fprintf(w, "\nAnnouncement (an isMeta user message appended to the conversation):\n%s\n", indent(out.Announcement.Content))
}

func indent(text string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(text, "\n"), "\n", "\n    ")
}

func searchCommand() *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "run ToolSearch and print the matches with their signatures",
		ArgsUsage: "QUERY",
		Description: `Searches the pool the way tools.ToolSearch does in a script: keywords, or
select:NameA,NameB for exactly the tools named; an empty query lists the
pool, as many tools as --max-results (5 by default). --json prints the
value a script would get. --explain shows why the results rank as they
do: the query rules that fired, the keywords and the words each reaches,
and per result its field matches, its signals and the tie-break before
the next (docs/search.md, "Reading --explain"); with --json, as JSON.

Example:
   execlua search --demo "list notes"
   execlua search --demo --json select:mcp__demo__echo
   execlua search --demo --explain "spin up a note"`,
		Flags: withCommon(
			jsonFlag,
			&cli.IntFlag{Name: "max-results", Usage: "how many matches a keyword query returns (ToolSearch's max_results)", DefaultText: "5"},
			&cli.BoolFlag{Name: "explain", Usage: "show why the results rank as they do"},
		),
		Action: searchAction,
	}
}

// searchResult is what tools.ToolSearch returns to a script.
type searchResult struct {
	Matches []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Signature   string `json:"signature"`
	} `json:"matches"`
	Total int `json:"total"`
}

func searchAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return usageErr(`give the query as one argument: execlua search "list notes"`, "search needs exactly one QUERY, got %d arguments", c.NArg())
	}
	env, err := openHost(c, hostSetup{prompter: newPrompter(c)})
	if err != nil {
		return err
	}
	defer env.close()
	if err := env.execAvailable(); err != nil {
		return err
	}
	if c.Bool("explain") {
		return explainSearch(c, env)
	}
	// The search runs as a script would run it, so that the answer is
	// exactly what tools.ToolSearch gives, validation included.
	code := "return tools.ToolSearch{ query = " + render.Quote(c.Args().First())
	if c.IsSet("max-results") {
		code += fmt.Sprintf(", max_results = %d", c.Int("max-results"))
	}
	input, _ := json.Marshal(map[string]string{"code": code + " }"})
	res := env.session.Run(c.Context, input, nil)
	if res.IsError {
		return usageErr("see 'execlua search --help'", "%s", res.Text)
	}
	if c.Bool("json") {
		var v any
		if err := json.Unmarshal(res.Value, &v); err != nil {
			return err
		}
		return writeJSON(c.App.Writer, v)
	}
	var found searchResult
	if err := json.Unmarshal(res.Value, &found); err != nil {
		return err
	}
	w := c.App.Writer
	switch {
	case found.Total == 0:
		fmt.Fprintf(w, "no tool matches %q\n", c.Args().First())
		return nil
	case len(found.Matches) < found.Total:
		fmt.Fprintf(w, "%d of %d matching tools (--max-results N shows more):\n", len(found.Matches), found.Total)
	default:
		fmt.Fprintf(w, "%d matching %s:\n", found.Total, plural(found.Total, "tool", "tools"))
	}
	for _, m := range found.Matches {
		fmt.Fprintln(w)
		if m.Description != "" {
			fmt.Fprintf(w, "-- %s\n", firstLine(m.Description))
		}
		fmt.Fprintln(w, m.Signature)
	}
	return nil
}

// explainSearch prints why the query ranks the session's pool as it
// does: the pool's index, built as the session builds it, explains the
// same args a script would pass.
func explainSearch(c *cli.Context, env *env) error {
	args := map[string]any{"query": c.Args().First()}
	if c.IsSet("max-results") {
		args["max_results"] = c.Int("max-results")
	}
	input, _ := json.Marshal(args)
	e, err := search.NewIndex(env.session.Request(nil).Assembly.Pool()).Explain(input)
	if err != nil {
		return usageErr("see 'execlua search --help'", "%v", err)
	}
	if c.Bool("json") {
		return writeJSON(c.App.Writer, e)
	}
	_, err = fmt.Fprint(c.App.Writer, e)
	return err
}

func typesCommand() *cli.Command {
	return &cli.Command{
		Name:  "types",
		Usage: "write a LuaCATS definition file for lua-language-server",
		Description: `Writes a ---@meta file declaring every pool tool's signature, tools.ToolSearch,
tools.parallel and print, so that lua-language-server completes and checks
scripts before they run. Put it where the language server looks (the
workspace, or Lua.workspace.library).

Example:
   execlua types --demo -o tools.d.lua`,
		Flags: withCommon(
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` instead of stdout", TakesFile: true},
		),
		Action: typesAction,
	}
}

func typesAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageErr("give the output file with -o: execlua types -o tools.d.lua", "unexpected argument %q", c.Args().First())
	}
	env, err := openHost(c, hostSetup{prompter: newPrompter(c)})
	if err != nil {
		return err
	}
	defer env.close()
	text, err := metaFile(env.session.Request(nil).Assembly.Pool())
	if err != nil {
		return usageErr("a server published a schema that cannot be rendered", "%v", err)
	}
	if path := c.String("output"); path != "" {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return usageErr("give -o a path you can write to", "cannot write the definitions: %v", err)
		}
		return nil
	}
	_, err = io.WriteString(c.App.Writer, text)
	return err
}
