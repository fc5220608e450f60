package search

import (
	"slices"
	"strings"
	"testing"

	"github.com/execlua/execlua/pool"
)

// A word ending in a colon is a label, no value: it qualifies what
// follows.
func TestLabels(t *testing.T) {
	t.Parallel()
	tools := []pool.Tool{
		mcpTool("snowflake", "list_warehouses", "List the warehouses."),
		mcpTool("bigquery", "list_datasets", "List the datasets and warehouses."),
	}
	wantFirst(t, tools, map[string]string{
		"snowflake: list warehouses": "mcp__snowflake__list_warehouses",
	})
}

// A name's verb is never a stop word: like in like_tweet is left
// uncovered by a query that does not like anything.
func TestNameVerbIsNoStopWord(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("twitter", "like_tweet", "Like a tweet."),
		mcpTool("twitter", "post_tweet", "Post a new tweet."),
	}
	wantFirst(t, tools, map[string]string{
		"tweet: we are live on product hunt today": "mcp__twitter__post_tweet",
		"like a tweet": "mcp__twitter__like_tweet",
	})
}

// The particle of a phrasal verb is no prefix (down of tear down is not
// download), and a capitalized word the vocabulary knows (VM) reaches
// the pool through it.
func TestParticleIsNoPrefix(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("digitalocean", "droplet-delete", "Delete a Droplet."),
		mcpTool("wordpress", "deletePost", "Delete a post for good."),
		mcpTool("files", "download_file", "Download a file."),
	}
	wantFirst(t, tools, map[string]string{"tear down the VM for good": "mcp__digitalocean__droplet-delete"})
}

// r/name is a subreddit, as owner/name is a repository.
func TestSubredditsAndRepositories(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("reddit", "get_subreddit_info", "Get information about a community."),
		mcpTool("github", "get_repository", "Get information about a repository."),
	}
	wantFirst(t, tools, map[string]string{
		"info about r/golang":  "mcp__reddit__get_subreddit_info",
		"info about golang/go": "mcp__github__get_repository",
	})
}

// Two words the pool writes as one are that word, unless one of them
// names a server: in box is no inbox when Box is a server.
func TestServerIsNoCompoundPart(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("gmail", "read_inbox", "Read the inbox."),
		mcpTool("box", "box_read_file", "Read the text of a file stored in Box."),
	}
	wantFirst(t, tools, map[string]string{
		"read a contract stored in box": "mcp__box__box_read_file",
	})
}

// With one keyword among stop words, the stop words set no tier (SRCH-5):
// a name made of stop words (who_am_i) does not outrank the keyword's
// own match.
func TestStopWordsSetNoTier(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("box", "who_am_i", "Get the current user."),
		mcpTool("books", "search_vendors", "Search the vendors we buy from."),
	}
	wantFirst(t, tools, map[string]string{
		"who do we buy from": "mcp__books__search_vendors",
		"who am i":           "mcp__box__who_am_i",
	})
}

// A question with no verb of its own asks to read: a tool named to
// change something is not its answer, even when the question names that
// change (what streams can I join lists them).
func TestQuestionsAskNoChange(t *testing.T) {
	t.Parallel()
	tools := []pool.Tool{
		mcpTool("zulip", "subscribe_to_stream", "Join a stream."),
		mcpTool("zulip", "list_streams", "List the streams of the organization."),
		mcpTool("docs", "createDocument", "Create a new Google Doc."),
		mcpTool("docs", "listGoogleDocs", "List the Google Docs you have."),
	}
	wantFirst(t, tools, map[string]string{
		"what zulip streams can I join":                "mcp__zulip__list_streams",
		"join a zulip stream":                          "mcp__zulip__subscribe_to_stream",
		"which google docs do I have about onboarding": "mcp__docs__listGoogleDocs",
	})
	ruleMatters(t, tools, "what zulip streams can I join", "mcp__zulip__list_streams", "asks")
}

// A verb's particle after its object means the phrasal verb (turn the
// dag back on unpauses it).
func TestSeparatedParticles(t *testing.T) {
	t.Parallel()
	tools := []pool.Tool{
		mcpTool("airflow", "unpause_dag", "Unpause a DAG so that it is scheduled again."),
		mcpTool("airflow", "get_dag_details", "Get the details of a DAG."),
		mcpTool("home", "HassTurnOn", "Turn on a device."),
	}
	wantFirst(t, tools, map[string]string{
		"turn the nightly_etl dag back on": "mcp__airflow__unpause_dag",
	})
	ruleMatters(t, tools, "turn the nightly_etl dag back on", "mcp__airflow__unpause_dag", "phrasal")
}

// Logging, filing or raising a bug creates one; logging hours is still a
// worklog.
func TestLogAndFileSenses(t *testing.T) {
	t.Parallel()
	tools := []pool.Tool{
		mcpTool("shortcut", "stories-create", "Create a new story."),
		mcpTool("shortcut", "stories-search", "Search stories."),
		mcpTool("git", "git_log", "Show the commit log."),
		mcpTool("jira", "add_worklog", "Add a worklog (time spent) to an issue."),
	}
	wantFirst(t, tools, map[string]string{
		`log a bug in shortcut: "Login button misaligned"`: "mcp__shortcut__stories-create",
		`log bug in shortcut: "Login button misaligned"`:   "mcp__shortcut__stories-create",
		"file a bug in shortcut":                           "mcp__shortcut__stories-create",
		"log work hours on a jira issue":                   "mcp__jira__add_worklog",
	})
	// Without a determiner, so that the object rule does not read log as
	// a verb that acts without the sense.
	ruleMatters(t, tools, `log bug in shortcut: "Login button misaligned"`, "mcp__shortcut__stories-create", "senses")
}

// A label that names a server says where to look; a medium as the
// query's verb, before whom it reaches, sends.
func TestLabelsAndMedia(t *testing.T) {
	t.Parallel()
	tools := []pool.Tool{
		mcpTool("shop", "create_product", "Create a new product record."),
		mcpTool("store", "add_product", "Add a new product to the store."),
		mcpTool("algolia", "saveObject", "Add or replace a record in an index."),
		mcpTool("mail", "send_email", "Send an email."),
		annotated(mcpTool("mail", "get_stats", "Email report: delivery statistics."), true, false),
	}
	wantFirst(t, tools, map[string]string{
		"algolia: add a new product record":           "mcp__algolia__saveObject",
		"email this week's report to finance@acme.io": "mcp__mail__send_email",
	})
	ruleMatters(t, tools, "algolia: add a new product record", "mcp__algolia__saveObject", "labelled")
	ruleMatters(t, tools, "email this week's report to finance@acme.io", "mcp__mail__send_email", "medium")
}

// A verb's particle apart from it means the phrasal verb only where the
// meaning survives the split: kick a laptop off the network is no kick
// off. Agent nouns are forms of their verbs (a password generator
// generates).
func TestSplitPhrasalsAndAgentNouns(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("ci", "trigger_pipeline", "Start a new pipeline run."),
		mcpTool("vpn", "delete_device", "Remove a device from the network."),
		mcpTool("vpn", "start_device", "Start a device on the network."),
		mcpTool("vault", "password_read", "Read a password."),
		mcpTool("bw", "generate", "Generate a random password or passphrase."),
	}
	wantFirst(t, tools, map[string]string{
		"kick the stolen laptop off the vpn": "mcp__vpn__delete_device",
		"kick off the nightly pipeline":      "mcp__ci__trigger_pipeline",
		"password generator":                 "mcp__bw__generate",
	})
}

// Buying a domain registers it.
func TestBuyRegisters(t *testing.T) {
	t.Parallel()
	tools := []pool.Tool{
		mcpTool("dns", "domains_check", "Check whether a domain is available."),
		mcpTool("dns", "domains_create", "Register a new domain name."),
	}
	wantFirst(t, tools, map[string]string{
		"buy the domain sunnyside.io": "mcp__dns__domains_create",
		"buy domain sunnyside.io":     "mcp__dns__domains_create",
	})
	ruleMatters(t, tools, "buy domain sunnyside.io", "mcp__dns__domains_create", "senses")
}

// A service written as its domain or with a dot (rocket.chat, monday.com)
// is its server's name, no file name.
func TestDottedServer(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("rocketchat", "get_channel_history", "Get the message history of a channel."),
		mcpTool("mattermost", "search_posts", "Search what people said in posts across channels."),
		mcpTool("monday", "list_boards", "List the boards of the account."),
		mcpTool("trello", "get_boards", "Get the boards of the user, with their lists."),
	}
	wantFirst(t, tools, map[string]string{
		"what did people say in the rocket.chat ops channel": "mcp__rocketchat__get_channel_history",
		"my boards on monday.com":                            "mcp__monday__list_boards",
	})
	// A server written with a hyphen for the dot.
	x := NewIndex(append(tools, mcpTool("booking-com", "getHotelDetails", "Get a hotel's details.")))
	for _, name := range []string{"booking.com", "Booking.com"} {
		if server, ok := x.dottedServer(token{text: name, value: true, implies: "file"}); !ok || !strings.HasPrefix(server, "booking") {
			t.Errorf("%s names %q, %v; want the booking-com server", name, server, ok)
		}
	}
	x = NewIndex([]pool.Tool{mcpTool("booking-com", "getHotelDetails", "Get a hotel's details."), mcpTool("hotels", "get_booking", "Get a booking.")})
	if server, ok := x.dottedServer(token{text: "booking.com", value: true, implies: "file"}); !ok || server != "booking com" {
		t.Errorf("booking.com names %q, %v; want the booking-com server by its hyphen", server, ok)
	}
}

// A server's name first before an object of its own (woocommerce orders
// that ...) is no verb of sending; a medium word after a possessive or
// an article (Karen's email) is a noun.
func TestServerFirstBeforeItsObject(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("woocommerce", "get_orders", "List orders by status: pending, failed or completed."),
		mcpTool("woocommerce", "send_order_note", "Send a note to the customer of an order."),
		mcpTool("whatsapp", "send_message", "Send a message to a contact."),
		mcpTool("whatsapp", "list_chats", "List chats."),
		mcpTool("fastmail", "search_contacts", "Search the address book for contacts by name, email or phone."),
		mcpTool("fastmail", "send_email", "Send an email."),
	}
	wantFirst(t, tools, map[string]string{
		"woocommerce orders that failed":               "mcp__woocommerce__get_orders",
		"what's Karen's email in my fastmail contacts": "mcp__fastmail__search_contacts",
	})
}

// A near spelling may drop or mistype the second letter (hurly, hourly).
func TestSecondLetterTypo(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("nws", "get_forecast", "Get the forecast for a point."),
		mcpTool("nws", "get_hourly_forecast", "Get the hourly forecast for a point."),
	}
	wantFirst(t, tools, map[string]string{"hurly forcast nws": "mcp__nws__get_hourly_forecast"})
}

// A plural asks for many: the tool named in the plural, not the one that
// reads one.
func TestPluralAsksForMany(t *testing.T) {
	t.Parallel()
	tools := []pool.Tool{
		mcpTool("docusign", "get_envelope", "Get an envelope that was completed."),
		mcpTool("docusign", "list_envelopes", "List envelopes by status."),
		mcpTool("docusign", "list_templates", "List the templates completed by the account."),
		mcpTool("docusign", "list_recipients", "List who completed an envelope."),
	}
	wantFirst(t, tools, map[string]string{"docusign envelopes completed this month": "mcp__docusign__list_envelopes"})
	ruleMatters(t, tools, "docusign envelopes completed this month", "mcp__docusign__list_envelopes", "plural")
}

// A phone number says it is one (+14155550123, 415-908-3801), and a date
// is none (2026-11-01).
func TestPhoneNumbers(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("twilio", "lookup_phone_number", "Look up the carrier and caller name of a phone number."),
		mcpTool("dns", "lookup_domain", "Look up the records of a domain."),
		mcpTool("cal", "list_events", "List the events between two dates."),
	}
	wantFirst(t, tools, map[string]string{
		"look up +1 415-908-3801": "mcp__twilio__lookup_phone_number",
		"look up +14155550123":    "mcp__twilio__lookup_phone_number",
	})
	x := NewIndex(tools)
	for _, query := range []string{"look up +1 415-908-3801", "call (415)908-3801"} {
		if !slices.ContainsFunc(x.plan(query, nil).kws, func(k keyword) bool { return k.word == "phone" }) {
			t.Errorf("%q: the number does not imply a phone", query)
		}
	}
	for _, f := range []string{"2026-11-01", "5-10", "10.0.0.1", "v1.2.3"} {
		if phoneNumber(f) {
			t.Errorf("%s is taken for a phone number", f)
		}
	}
}

// A pair written with a hyphen joins even when short (to-do, todo), and
// a joined pair joins the next word too, for the longer word alone
// (to-do lists, todolists).
func TestHyphenatedPairsJoin(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("basecamp", "get_todos", "Get the to-dos of a to-do list."),
		mcpTool("basecamp", "get_todolists", "Get the to-do lists of a project's to-do set."),
		mcpTool("basecamp", "list_projects", "List the projects."),
	}
	wantFirst(t, tools, map[string]string{
		"basecamp: to-do lists": "mcp__basecamp__get_todolists",
		"basecamp to-dos":       "mcp__basecamp__get_todos",
	})
	kws := NewIndex(tools).plan("to-do lists", nil).kws
	for _, w := range []string{"todo", "todolists"} {
		if !slices.ContainsFunc(kws, func(k keyword) bool { return k.word == w }) {
			t.Errorf("to-do lists: no keyword %s", w)
		}
	}
	// Two stop words apart are no word: for me is no forme (form).
	forms := append(slices.Clip(tools), mcpTool("forms", "list_forms", "List the forms."))
	if kws := NewIndex(forms).plan("bookmark this page for me", nil).kws; slices.ContainsFunc(kws, func(k keyword) bool { return k.word == "forme" }) {
		t.Errorf("for me joined into forme: %+v", kws)
	}
}

// An id weighs as a value even when a tool's description gives it as an
// example; names with digits (s3, base64, i18n) stay words.
func TestIDsAreValues(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("front", "get_conversation", "Get a conversation by id, such as cnv_y4xb93i."),
		mcpTool("front", "send_reply", "Reply to a conversation."),
		mcpTool("aws", "s3_list_buckets", "List the S3 buckets."),
	}
	wantFirst(t, tools, map[string]string{"reply on front conversation cnv_y4xb93i": "mcp__front__send_reply"})
	for _, w := range []string{"y4xb93i", "5KsDBWseXY6Qeg"} {
		if !idLike(w) {
			t.Errorf("%s is no id", w)
		}
	}
	for _, w := range []string{"s3", "ec2", "base64", "i18n", "gpt4o", "x509"} {
		if idLike(w) {
			t.Errorf("%s is taken for an id", w)
		}
	}
}

// fields splits a query at spaces and marks where a clause begins.
func TestFields(t *testing.T) {
	t.Parallel()
	if fs, clauses := fields("a b,c ; d — e -f"); !slices.Equal(fs, []string{"a", "b", "c", "d", "e", "-f"}) || !slices.Equal(clauses, []bool{false, false, true, true, true, false}) {
		t.Errorf("fields: got %q %v", fs, clauses)
	}
}

// A server named after via, using, in or on says where to look, as a
// label does.
func TestServerAfterVia(t *testing.T) {
	t.Parallel()
	tools := []pool.Tool{
		mcpTool("okta", "reset_password", "Reset a user's password and send the reset email."),
		mcpTool("mailgun", "send_email", "Send an email."),
	}
	query := "send the password reset email via mailgun"
	wantFirst(t, tools, map[string]string{query: "mcp__mailgun__send_email"})
	ruleMatters(t, tools, query, "mcp__mailgun__send_email", "through")
}

// A server's name written in its own style (QuickBooks, Rocket.Chat) is
// the server, not a person's or a company's name.
func TestServerInItsOwnStyle(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("quickbooks", "create_bill", "Create a bill from a vendor."),
		mcpTool("aws", "ec2_describe_instances", "Describe the EC2 instances of the hosting account."),
		mcpTool("rocketchat", "get_channel_history", "Get the message history of a channel."),
		mcpTool("mattermost", "search_posts", "Search what people said in posts across channels."),
	}
	wantFirst(t, tools, map[string]string{
		"record what we owe AWS for hosting in QuickBooks": "mcp__quickbooks__create_bill",
		"what did people say in the Rocket.Chat channel":   "mcp__rocketchat__get_channel_history",
	})
	if kws := NewIndex(tools).plan("bills in QuickBooks", nil).kws; !slices.ContainsFunc(kws, func(k keyword) bool { return k.word == "quickbooks" && k.weight == 1 }) {
		t.Errorf("QuickBooks weighs as a value: %+v", kws)
	}
}

// A #tag is a channel or a hashtag.
func TestHashtags(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("mastodon", "get_hashtag_timeline", "Get the public posts with a hashtag."),
		mcpTool("mastodon", "get_home_timeline", "Get the latest statuses of the accounts you follow."),
		mcpTool("ticktick", "update_task", "Update a task: title, due date, priority."),
		mcpTool("monday", "move_item_to_group", "Move an item to another group of a board."),
	}
	wantFirst(t, tools, map[string]string{
		"show the latest mastodon posts tagged #rustlang": "mcp__mastodon__get_hashtag_timeline",
		"move ticktick task 63b7 due date to next monday": "mcp__ticktick__update_task",
	})
}

// Never mind something cancels it.
func TestNeverMind(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("uber", "cancel_ride", "Cancel a ride."),
		mcpTool("uber", "get_ride_status", "Get the status of a ride: driver, arrival time."),
	}
	wantFirst(t, tools, map[string]string{"never mind the ride, I found a taxi": "mcp__uber__cancel_ride"})
	if kws := NewIndex(tools).plan("never mind the ride", nil).kws; !slices.Contains(kws[0].also, "cancel") {
		t.Errorf("never mind does not mean cancel: %+v", kws[0])
	}
}

// Putting something on a list or a calendar adds it there, however long
// the thing put is.
func TestPutOnACalendar(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("calendar", "create_event", "Create an event on the calendar."),
		mcpTool("kv", "put_item", "Put an item into a table."),
	}
	wantFirst(t, tools, map[string]string{"put piano lesson for the kids on the calendar every Wednesday 4pm": "mcp__calendar__create_event"})
	p := NewIndex(tools).plan("put piano lesson for the kids on the calendar", nil)
	if !slices.Contains(p.kws[p.head].sense, "add") {
		t.Errorf("put ... on the calendar does not add: %+v", p.kws[p.head])
	}
}

// A past verb reaches the nouns derived from it: who is connected asks
// for the connections.
func TestPastVerbsReachTheirNouns(t *testing.T) {
	t.Parallel()
	tools := []pool.Tool{
		mcpTool("broker", "list_connections", "List the clients' connections."),
		mcpTool("broker", "get_overview", "Get an overview of the broker: version and nodes."),
		mcpTool("appstore", "connect_app", "Link an app to the store."),
	}
	wantFirst(t, tools, map[string]string{"who is connected to the broker": "mcp__broker__list_connections"})
	ruleMatters(t, tools, "who is connected to the broker", "mcp__broker__list_connections", "nouns")
}

// Plurals no ending rule folds meet their singular: indices and index,
// menus and menu (whose -us is no status's).
func TestIrregularPlurals(t *testing.T) {
	for plural, one := range map[string]string{"indices": "index", "menus": "menu", "children": "child", "status": "status"} {
		if got, want := stem(plural), stem(one); got != want {
			t.Errorf("stem(%q) = %q, want %q as for %q", plural, got, want, one)
		}
	}
	tools := []pool.Tool{
		mcpTool("pos", "get_menus", "Get the published menus of a restaurant."),
		mcpTool("pos", "get_stock", "Get the stock of menu items."),
	}
	wantFirst(t, tools, map[string]string{"what is on our menu": "mcp__pos__get_menus"})
}

// Ties go to the tool to start from, one named for searching or listing
// (a server's name alone).
func TestTiesBrowse(t *testing.T) {
	news := []pool.Tool{
		mcpTool("news", "get_edition", "Get an edition."),
		mcpTool("news", "get_item", "Get an item."),
		mcpTool("news", "search_content", "Search content."),
	}
	wantFirst(t, news, map[string]string{"news": "mcp__news__search_content", "news api": "mcp__news__search_content"})
}

// Fixing or correcting a detail edits it.
func TestFixingEdits(t *testing.T) {
	wantFirst(t, []pool.Tool{
		mcpTool("db", "add_documents", "Add documents with metadata to a collection."),
		mcpTool("db", "update_documents", "Change documents in a collection."),
	}, map[string]string{"fix the metadata of some documents": "mcp__db__update_documents"})
	wantFirst(t, []pool.Tool{
		mcpTool("tree", "search_persons", "Search persons by name and birth date."),
		mcpTool("tree", "update_person", "Change a person's details."),
	}, map[string]string{"correct my grandfather's birth place": "mcp__tree__update_person"})
}

// A medium word in a question (what text is on the page) sends nothing;
// a vendor reaches the products
// its servers are named for (vmware, vsphere); a gem is a package.
func TestMediaBatchesAndVendors(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("site", "publish_site", "Publish the site: send the text of its pages live."),
		mcpTool("site", "get_page_content", "Get the text of a page."),
		mcpTool("proxmox", "start_vm", "Start a VM."),
		mcpTool("vsphere", "power_on_vm", "Power on a virtual machine."),
		mcpTool("packages", "search_packages", "Search the package registry."),
		mcpTool("pdf", "extract_text", "Extract the text of a PDF."),
	}
	wantFirst(t, tools, map[string]string{
		"what text is on the pricing page": "mcp__site__get_page_content",
		"start the vmware vm":              "mcp__vsphere__power_on_vm",
		"find a ruby gem for pdf":          "mcp__packages__search_packages",
	})
}

// An argument written out (run_date=2026-12-01) is a value, its name too.
func TestArgumentsAreValues(t *testing.T) {
	tools := []pool.Tool{
		mcpTool("jobs", "run_job_now", "Trigger a job run now."),
		mcpTool("jobs", "get_run", "Get a job run by id: its state and start date."),
	}
	wantFirst(t, tools, map[string]string{"trigger job 123 with run_date=2026-12-01": "mcp__jobs__run_job_now"})
}

// Self in a name is the user: the events I signed up for are the self
// events.
func TestSelfIsMe(t *testing.T) {
	wantFirst(t, []pool.Tool{
		mcpTool("meetup", "list_group_events", "List the events of a group."),
		mcpTool("meetup", "get_self_events", "List the events of the member."),
	}, map[string]string{"which events have i signed up for": "mcp__meetup__get_self_events"})
}

// A misspelt first word is still the query's first word, through its
// near spellings: refnd sale starts like refund_sale.
func TestMisspeltFirstWord(t *testing.T) {
	x := NewIndex([]pool.Tool{
		mcpTool("shop", "get_sale", "Get a sale."),
		mcpTool("shop", "refund_sale", "Refund a sale."),
	})
	p := x.plan("refnd sale", nil)
	if p.head < 0 || !p.headStem(stem("refund")) || p.headStem(stem("sale")) {
		t.Errorf("refnd sale: refund is not the first word: %+v", p.kws)
	}
	if p := x.plan("refund sale", nil); !p.headStem(stem("refund")) {
		t.Errorf("refund sale: refund is not the first word")
	}
}
