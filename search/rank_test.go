package search

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/execlua/execlua/pool"
)

func annotated(t pool.Tool, readOnly, destructive bool) pool.Tool {
	t.Annotations = pool.Annotations{ReadOnlyHint: &readOnly, DestructiveHint: &destructive}
	return t
}

// A tool's own name without its mcp__<server>__ prefix is an exact name;
// when it names several tools, all of them come first (SRCH-3, revised
// multi-word rule).
func TestBareNames(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("github", "list_issues", "List issues in a GitHub repository."),
		mcpTool("gitlab", "list_issues", "List issues in a GitLab project."),
		mcpTool("github", "list_issue_comments", "List issues' comments; lists issues too."),
		mcpTool("github", "get_pull_request", "Get a pull request."),
	}
	wantFirst(t, tools, map[string]string{"get_pull_request": "mcp__github__get_pull_request"})
	got := names(doSearch(t, tools, q("list_issues")))
	if len(got) < 2 || got[0] == "mcp__github__list_issue_comments" || got[1] == "mcp__github__list_issue_comments" {
		t.Errorf("list_issues: got %v, want both list_issues tools first", got)
	}
}

// Singular and plural stay a signal: the word as written wins.
func TestPluralIsASignal(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("gh", "list_issues", "List issues."),
		mcpTool("gh", "get_issue", "Get one issue."),
	}
	wantFirst(t, tools, map[string]string{
		"issues": "mcp__gh__list_issues",
		"issue":  "mcp__gh__get_issue",
	})
}

// A word's forms meet whatever its ending: movie and movies, reply and
// replied; near spellings of such a word still reach it (flakey, flaky).
func TestFormsOfWordsEndingInYOrIe(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("tmdb", "search_movies", "Search for movies by title."),
		mcpTool("tmdb", "get_tv_details", "Get the details of a show, as for a movie."),
		mcpTool("mail", "list_replies", "List the replies to a message."),
		mcpTool("mail", "list_messages", "List the messages of a thread and who replied."),
		mcpTool("ci", "list_flaky_tests", "List the flaky tests of a project."),
	}
	wantFirst(t, tools, map[string]string{
		"tmdb movie":   "mcp__tmdb__search_movies",
		"who replied":  "mcp__mail__list_replies",
		"flakey tests": "mcp__ci__list_flaky_tests",
	})
}

// One edit away counts for words of five letters or more, two letters
// swapped for four, and only when the word itself is no word of the pool.
func TestNearSpellings(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("pw", "browser_take_screenshot", "Take a screenshot of the page."),
		mcpTool("net", "relay", "Relay a packet."),
		mcpTool("net", "delay", "Delay a packet."),
	}
	wantFirst(t, tools, map[string]string{"screenshoot": "mcp__pw__browser_take_screenshot"})
	if got := names(doSearch(t, tools, q("relay"))); len(got) != 1 {
		t.Errorf("relay: got %v, want the relay tool alone (delay is one edit away, but relay is a word of the pool)", got)
	}
	if got := names(doSearch(t, tools, q("rlay"))); len(got) != 0 {
		t.Errorf("rlay: got %v, want nothing (four letters: only two letters swapped)", got)
	}
	if got := names(doSearch(t, tools, q("rleay"))); len(got) != 1 {
		t.Errorf("rleay: got %v, want the relay tool alone (two letters swapped)", got)
	}
	tools = append(tools, mcpTool("todo", "list_items", "List the items."))
	wantFirst(t, tools, map[string]string{"lsit items": "mcp__todo__list_items", "lsit": "mcp__todo__list_items"})
}

// A word with no e to drop is no form of words whose e the stemmer
// dropped: taks is not take, and reaches task, two letters swapped; a
// real form (taking) still reaches take.
func TestFoldedE(t *testing.T) {
	t.Parallel()
	tools := []pool.Tool{
		mcpTool("pw", "browser_take_screenshot", "Take a screenshot of the page."),
		mcpTool("todo", "get_tasks", "Get the tasks of a project."),
	}
	wantFirst(t, tools, map[string]string{
		"todo taks":           "mcp__todo__get_tasks",
		"taks":                "mcp__todo__get_tasks",
		"taking a screenshot": "mcp__pw__browser_take_screenshot",
	})
	ruleMatters(t, tools, "taks", "mcp__todo__get_tasks", "folds")
}

// Annotations decide between tools that match alike: a query that reads
// does not get the destructive tool first, a query that destroys does;
// the alphabet would say otherwise both times.
func TestAnnotationsBreakTies(t *testing.T) {
	tools := []pool.Tool{
		annotated(mcpTool("s3", "purge_bucket_objects", "Objects of a bucket."), false, true),
		annotated(mcpTool("s3", "scan_bucket_objects", "Objects of a bucket."), true, false),
	}
	wantFirst(t, tools, map[string]string{
		"bucket objects":      "mcp__s3__scan_bucket_objects",
		"show bucket objects": "mcp__s3__scan_bucket_objects",
	})
	tools = []pool.Tool{
		annotated(mcpTool("s3", "a_bucket_objects", "Objects of a bucket."), true, false),
		annotated(mcpTool("s3", "b_bucket_objects", "Objects of a bucket."), false, true),
	}
	wantFirst(t, tools, map[string]string{"erase bucket objects": "mcp__s3__b_bucket_objects"})
}

// The curated synonyms link the verbs and nouns tools are named with.
func TestSynonyms(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("k8s", "uninstall_helm_chart", "Uninstall a chart."),
		mcpTool("pw", "browser_select_option", "Select an option."),
		mcpTool("fs", "read_file", "Read a file."),
		mcpTool("gh", "create_pull_request", "Open a pull request."),
		mcpTool("chat", "post_message", "Post a message."),
	}
	wantFirst(t, tools, map[string]string{
		"remove helm chart": "mcp__k8s__uninstall_helm_chart",
		"pick an option":    "mcp__pw__browser_select_option",
		"download file":     "mcp__fs__read_file",
		"new pull request":  "mcp__gh__create_pull_request",
		"send message":      "mcp__chat__post_message",
	})
}

// A noun whose stem is a verb (listing, settings, news) keeps its
// relations to itself: the verb list does not reach products, nor new
// headlines, while the noun still does.
func TestNounsThatStemToVerbs(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("shop", "product_catalog", "Products."),
		mcpTool("feed", "top_headlines", "Top headlines."),
	}
	for _, query := range []string{"list", "new"} {
		if got := names(doSearch(t, tools, q(query))); len(got) != 0 {
			t.Errorf("%s: got %v, want nothing", query, got)
		}
	}
	wantFirst(t, tools, map[string]string{"listing": "mcp__shop__product_catalog", "news": "mcp__feed__top_headlines"})
}

// Two words the pool writes as one are that word: on-call is oncall, no
// call; task list is tasklist and still task and list.
func TestCompoundWords(t *testing.T) {
	t.Parallel()
	tools := []pool.Tool{
		mcpTool("pd", "list_oncalls", "List the entries of the rotation for a schedule."),
		mcpTool("phone", "make_call", "Place a phone call to a number."),
		mcpTool("phone", "list_calls", "List the calls of this week."),
		mcpTool("todo", "TaskList", "Show the list."),
		mcpTool("todo", "list_tasks", "List the tasks."),
	}
	wantFirst(t, tools, map[string]string{
		"who is on-call this week": "mcp__pd__list_oncalls",
		"on call":                  "mcp__pd__list_oncalls",
		"task list":                "mcp__todo__TaskList",
	})
	ruleMatters(t, tools, "who is on-call this week", "mcp__pd__list_oncalls", "compound")
}

// A verb's object chooses its sense: open a pull request creates one,
// open a file reads it, open a door unlocks it; open alone means them all.
func TestVerbSenses(t *testing.T) {
	t.Parallel()
	tools := []pool.Tool{
		mcpTool("gh", "create_pull_request", "Create a pull request."),
		mcpTool("gh", "get_pull_request", "Get a pull request."),
		mcpTool("fs", "read_file", "Read a file."),
		mcpTool("fs", "create_file", "Create a file."),
		mcpTool("home", "unlock", "Unlock a lock or a door."),
		mcpTool("home", "get_door_state", "Get the state of a door."),
	}
	wantFirst(t, tools, map[string]string{
		"open a pull request": "mcp__gh__create_pull_request",
		"open a file":         "mcp__fs__read_file",
		"open the door":       "mcp__home__unlock",
	})
	without := searchWithout(t, tools, "senses")
	got := []string{
		names(without(q("open a pull request")))[0],
		names(without(q("open a file")))[0],
		names(without(q("open the door")))[0],
	}
	if slices.Equal(got, []string{"mcp__gh__create_pull_request", "mcp__fs__read_file", "mcp__home__unlock"}) {
		t.Errorf("without senses the same tools come first (%v): the test does not test them", got)
	}
}

// An SQL statement in a query is a value that implies an SQL query, a
// read for SELECT: its tables and columns pull no tools of their own.
func TestSQLStatementsAreValues(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("sqlite", "read_query", "Execute a SELECT query on the SQLite database."),
		mcpTool("sqlite", "write_query", "Execute an INSERT, UPDATE or DELETE query."),
		mcpTool("shop", "list_orders", "List the orders of the shop, with their totals."),
	}
	wantFirst(t, tools, map[string]string{
		"SELECT id, total FROM orders WHERE total > 100":         "mcp__sqlite__read_query",
		"UPDATE orders SET total = 0 WHERE id = 7 in the sqlite": "mcp__sqlite__write_query",
		"select the orders with a total over 100":                "mcp__shop__list_orders",
	})
}

// A yes-no question asks for a state: are the doors unlocked reads the
// state, it does not unlock them.
func TestYesNoQuestionsAskForAState(t *testing.T) {
	t.Parallel()
	tools := []pool.Tool{
		annotated(mcpTool("home", "turn_on", "Turns on/opens a device or entity."), false, false),
		annotated(mcpTool("home", "get_context", "Real-time information about the current state of devices, sensors and areas."), true, false),
	}
	wantFirst(t, tools, map[string]string{
		"are the doors unlocked": "mcp__home__get_context",
		"are the lights on":      "mcp__home__get_context",
		"open the garage door":   "mcp__home__turn_on",
	})
	ruleMatters(t, tools, "are the lights on", "mcp__home__get_context", "state")
}

// What looks like an argument weighs as a value: quoted text, #channels,
// paths and ids do not pull tools their words name.
func TestValuesWeighLess(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("chat", "post_message", "Post a message to a channel."),
		mcpTool("gh", "list_releases", "List releases."),
		mcpTool("gh", "get_release_notes", "Get release notes."),
	}
	wantFirst(t, tools, map[string]string{
		`post "release notes ready" to #releases`: "mcp__chat__post_message",
	})
}

// An argument's name or description is a field of its own, below the
// description for a single keyword (SRCH-5): it finds the tool a task
// sentence's value belongs to; a schema that is no object with properties
// adds nothing.
func TestSchemaWords(t *testing.T) {
	logs := mcpTool("k8s", "kubectl_logs", "Print the logs of a container.")
	logs.InputSchema = json.RawMessage(`{"type":"object","properties":{"pod":{"type":"string","description":"Name of the pod"},"namespace":{"type":"string"}}}`)
	events := mcpTool("k8s", "kubectl_events", "List events of a pod.")
	events.InputSchema = json.RawMessage(`[1, 2]`)
	tools := []pool.Tool{logs, events, mcpTool("k8s", "kubectl_top", "Show the namespace usage.")}
	wantFirst(t, tools, map[string]string{
		"pod":       "mcp__k8s__kubectl_events",
		"namespace": "mcp__k8s__kubectl_top",
		"container logs for web-1 in namespace prod": "mcp__k8s__kubectl_logs",
	})
	if got := names(doSearch(t, tools, q("pod"))); len(got) != 2 || got[1] != "mcp__k8s__kubectl_logs" {
		t.Errorf("pod: got %v, want kubectl_events (description) and then kubectl_logs (an argument's description)", got)
	}
}

// Derived forms reach one another below the word itself (deployment and
// deploy, notification and notify, different and differences, compliant
// and compliance); a phrasal verb means its verb (spin
// up creates, tear down deletes), and its particle is no keyword of its
// own.
func TestDerivedFormsAndPhrasalVerbs(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("ci", "deploy", "Ship the build."),
		mcpTool("ci", "build_status", "Show the status of the build."),
		mcpTool("push", "notify", "Push to a phone."),
		mcpTool("push", "list_phones", "List the phones."),
		mcpTool("cloud", "create_stack", "Create a stack."),
		mcpTool("cloud", "delete_stack", "Delete a stack."),
		mcpTool("cloud", "describe_stack", "Describe a stack."),
		mcpTool("cloud", "update_stack", "Update a stack."),
		mcpTool("git", "git_diff", "Shows differences between branches or commits."),
		mcpTool("git", "git_log", "Shows the commit logs of the main branch."),
		mcpTool("audit", "check_compliance", "Check the compliance of a stack."),
	}
	wantFirst(t, tools, map[string]string{
		"what is different between main and dev": "mcp__git__git_diff",
		"is the stack compliant":                 "mcp__audit__check_compliance",
		"deployment of the build":                "mcp__ci__deploy",
		"notifications":                          "mcp__push__notify",
		"spin up a stack":                        "mcp__cloud__create_stack",
		"tear down the stack":                    "mcp__cloud__delete_stack",
		"look up a stack":                        "mcp__cloud__describe_stack",
	})
}

// A question reads: the tool named for reading wins what matches alike.
func TestQuestionsRead(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("clock", "convert_time", "Convert time between timezones."),
		mcpTool("clock", "get_current_time", "Get current time in a specific timezone."),
	}
	wantFirst(t, tools, map[string]string{"what time is it": "mcp__clock__get_current_time"})
}
