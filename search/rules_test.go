package search

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/execlua/execlua/pool"
)

// rulePool is a pool every rule of the analyzer has something to do in.
func rulePool() []pool.Tool {
	return []pool.Tool{
		mcpTool("rocketchat", "send_message", "Send a message to a Rocket.Chat channel."),
		mcpTool("whatsapp", "send_message", "Send a WhatsApp message to a contact."),
		mcpTool("twitter", "post_tweet", "Post a tweet."),
		mcpTool("algolia", "saveObject", "Add or replace a record in an index."),
		mcpTool("mailgun", "send_email", "Send an email through Mailgun."),
		mcpTool("mail", "send_email", "Send an email."),
		mcpTool("pd", "list_oncalls", "List who is on call."),
		mcpTool("k8s", "create_cluster", "Create a cluster."),
		mcpTool("k8s", "delete_cluster", "Delete a cluster."),
		mcpTool("airflow", "unpause_dag", "Unpause a DAG."),
		mcpTool("airflow", "list_import_errors", "List the import errors of DAGs."),
		mcpTool("calendar", "create_event", "Create an event on a date."),
		mcpTool("books", "profit_loss_report", "Get the profit and loss report."),
		mcpTool("shop", "get_order", "Get an order by id."),
		mcpTool("shop", "list_orders", "List orders."),
		mcpTool("shop", "bulk_update_orders", "Update multiple orders in one batch."),
		mcpTool("home", "get_state", "Get the state of a door or a light."),
		mcpTool("maps", "geocode", "Convert an address into coordinates."),
		mcpTool("browser", "navigate", "Navigate to a URL."),
		mcpTool("cms", "update_entry", "Update an entry."),
		mcpTool("tickets", "search_tickets", "Search tickets by status."),
		mcpTool("vault", "secret_get", "Get a secret from a key vault."),
		mcpTool("fs", "read_file", "Read a file."),
		mcpTool("fs", "read_text", "DEPRECATED: use read_file instead. Read a file as text."),
		mcpTool("github", "list_pull_requests", "List pull requests (PRs) of a repository."),
		mcpTool("bugsnag", "list_errors", "List errors."),
		mcpTool("todo", "TaskList", "List the tasks."),
	}
}

// Each rule of the analyzer fires on a query it is written for, notes
// what it did, and does nothing when it is turned off. Every rule that
// can be turned off has a case here.
func TestRulesFire(t *testing.T) {
	t.Parallel()
	var many strings.Builder // forty words, each once
	many.WriteString("list")
	for i := range 40 {
		fmt.Fprintf(&many, " w%d", i)
	}
	cases := []struct{ rule, query, did string }{
		{"dotted-server", "post on rocket.chat", `"rocket.chat" -> rocketchat`},
		{"acronym", "list open PRs", `"PRs" -> PR`},
		{"keywords-intent", "cluster delete", "the intent is destroys"},
		{"implies", "read notes.md", "implies file"},
		{"sql-spoken", "delete rows older than 2020 from the events table", "implies sql"},
		{"label", "algolia: add a record", "look in algolia"},
		{"through", "send the report via mailgun", "look in mailgun"},
		{"phrasal", "spin up a cluster", `"spin up" -> create, start, launch`},
		{"compound", "who is on-call", `"on" "call" -> oncall`},
		{"phrasal-apart", "turn the dag back on", `"turn" ... "on" -> enable, start`},
		{"medium", "email the report to finance", `"email" sends what follows`},
		{"medium-send", "email the report to finance", "the verb is send"},
		{"object", "tag the prod workspace", `"tag" "the": "tag" is a verb that acts`},
		{"question", "which tickets are open", `"which" asks: it reads`},
		{"state", "are the lights on", "implies state"},
		{"senses", "open the page", `"open" "page" -> navigate, visit, goto`},
		// Core rules, which stay on, note what they did too.
		{"exact-name", "mcp__fs__read_file", `"mcp__fs__read_file" names 1 tool(s)`},
		{"is-value", "read notes.md", `"notes.md" is a value`},
		{"cap", many.String(), "the first 32 keywords are read"},
	}
	x := NewIndex(rulePool())
	var tested []string
	for _, c := range cases {
		tested = append(tested, c.rule)
		var fired []Fired
		x.plan(c.query, &fired)
		if !slices.ContainsFunc(fired, func(f Fired) bool { return f.Rule == c.rule && strings.Contains(f.Did, c.did) }) {
			t.Errorf("%q: rule %s did not note %q; fired %v", c.query, c.rule, c.did, fired)
		}
		off, err := x.WithOptions(&Options{Disable: []string{c.rule}})
		if !slices.Contains(RuleNames(), c.rule) {
			if !errors.Is(err, ErrUnknownName) {
				t.Errorf("core rule %s turned off: err = %v, want ErrUnknownName", c.rule, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		fired = nil
		off.plan(c.query, &fired)
		if slices.ContainsFunc(fired, func(f Fired) bool { return f.Rule == c.rule }) {
			t.Errorf("%q: rule %s fired while off", c.query, c.rule)
		}
	}
	for _, name := range RuleNames() {
		if !slices.Contains(tested, name) {
			t.Errorf("rule %s has no case in TestRulesFire", name)
		}
	}
}

// A search that does not explain notes nothing, and explaining changes
// no plan.
func TestRulesTraceChangesNothing(t *testing.T) {
	t.Parallel()
	x := NewIndex(rulePool())
	for _, query := range []string{"spin up a cluster", "email the report to finance", "is the door open"} {
		var fired []Fired
		a, b := x.plan(query, nil), x.plan(query, &fired)
		a.rk, b.rk = nil, nil
		if len(fired) == 0 || a.head != b.head || a.verb != b.verb || len(a.kws) != len(b.kws) {
			t.Errorf("%q: plans differ with a trace (%d rules fired)", query, len(fired))
		}
	}
}

// TestSQLSpoken: a lowercase request shaped like an SQL statement (its
// verb, the rows or table it acts on, a clause word) implies an SQL query
// that reads or writes; the same verbs about other things imply nothing.
func TestSQLSpoken(t *testing.T) {
	t.Parallel()
	x := NewIndex(rulePool())
	for _, c := range []struct {
		query string
		want  []string // the words implied, in order; nil: the rule does not fire
	}{
		{"insert a row into users with email bob@example.com", []string{"sql", "query", "write"}},
		{"select the rows from orders where total is over 100", []string{"sql", "query", "read"}},
		{"delete the file from the repo", nil},   // no rows or table
		{"list the tables in the database", nil}, // no verb of a statement
		{"insert rows for the new hires", nil},   // no clause word
		{"with rows from the orders table", nil}, // with starts no spoken statement
	} {
		var fired []Fired
		x.plan(c.query, &fired)
		var got []string
		for _, f := range fired {
			if f.Rule == "sql-spoken" {
				got = append(got, strings.TrimPrefix(f.Did, "implies "))
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: sql-spoken implied %q, want %q", c.query, got, c.want)
		}
	}
}

// A verb's sense gives the query its class, as a phrasal verb's does:
// open a pull request creates (it acts), open the file reads it; a
// question keeps reading (which open pull requests ...). The query's
// first word, of no class of its own, before a determiner is a verb that
// takes an object: the query acts (tag the prod workspace); without the
// determiner, or in a question, it is not read so.
func TestQueryIntent(t *testing.T) {
	t.Parallel()
	x := NewIndex(rulePool())
	for query, want := range map[string]intent{
		"open a pull request":                 acts,
		"open the file":                       reads,
		"which open pull requests are stale?": reads,
		"tag the prod workspace":              acts,
		"tag prod workspace":                  reads,
		"which tag is the latest":             reads,
	} {
		if p := x.plan(query, nil); p.intent != want {
			t.Errorf("%q: intent %s, want %s", query, intentNames[p.intent], intentNames[want])
		}
	}
}

// A stop word that a particle makes a phrasal verb (figure out) means
// that verb: it is no stop word, and it weighs as a keyword.
func TestPhrasalStopWordMeansItsVerb(t *testing.T) {
	t.Parallel()
	x := NewIndex(rulePool())
	p := x.plan("figure out why the build fails", nil)
	i := slices.IndexFunc(p.kws, func(k keyword) bool { return k.word == "figure" })
	if i < 0 || p.kws[i].stop || p.kws[i].weight != 1 || !slices.Contains(p.kws[i].also, "find") {
		t.Errorf("figure of figure out: %+v, want a keyword of weight 1 meaning find", p.kws)
	}
	if j := slices.IndexFunc(p.kws, func(k keyword) bool { return k.word == "out" }); j < 0 || !p.kws[j].stop {
		t.Errorf("out of figure out is no stop word: %+v", p.kws)
	}
}
