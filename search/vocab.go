package search

import (
	"maps"
	"slices"
	"strings"
)

// The curated vocabulary: words a model uses for the words tools are
// named and described with. It is written from general knowledge of the
// kinds of tools MCP servers offer (tasks and tickets, chat, mail,
// calendars, files, code hosting, CI, databases, cloud and containers,
// monitoring and on-call, payments and commerce, CRM and support, docs
// and wikis, the web and browsers, media, maps, smart homes, identity),
// not from any one evaluation query. A match through it counts below the
// word itself: a synonym (verbGroups, nounGroups) or a narrower word
// reaching a broader one (narrower) at Weights.Synonym, a looser relation
// (related) at Weights.Related, a derived form (derive) at Weights.Derived.

// verbGroups are verbs that mean one another in a tool's name.
var verbGroups = [][]string{
	{"delete", "remove", "erase", "destroy", "drop", "uninstall", "trash", "purge", "unlink", "discard", "wipe", "nuke", "ditch", "axe", "scrap", "bin", "toss", "zap"},
	{"create", "add", "new", "make", "insert", "open", "generate", "register", "provision", "fresh"},
	{"write", "save", "store", "put", "overwrite"},
	{"get", "fetch", "read", "retrieve", "show", "view", "see", "display", "download", "describe", "lookup", "list", "load", "inspect", "open", "grab", "peek", "snag"},
	{"list", "enumerate", "show", "browse"},
	{"sql", "query", "select"},
	{"find", "search", "lookup", "query", "locate", "grep", "look", "seek", "discover"},
	{"update", "edit", "modify", "change", "patch", "set", "replace", "alter", "adjust", "amend", "tweak", "mark", "append"},
	{"run", "execute", "exec", "invoke", "call", "trigger", "launch", "evaluate"},
	{"send", "post", "publish", "message", "notify", "ping", "tell", "broadcast", "announce", "dm", "blast"},
	{"select", "pick", "choose"},
	{"replace", "swap", "substitute"},
	{"start", "launch", "boot", "resume", "begin", "power", "unpause"},
	{"stop", "cancel", "kill", "terminate", "halt", "shutdown", "pause", "abort", "suspend"},
	{"upload", "put", "attach"},
	{"download", "save", "export", "dump"},
	{"import", "ingest", "load"},
	{"move", "transfer", "transition", "rename", "relocate", "drag"},
	{"copy", "duplicate", "clone", "fork", "replicate"},
	{"install", "deploy", "apply", "ship", "release", "rollout"},
	{"rerun", "retry", "restart", "reboot", "redeploy", "bounce", "kick"},
	{"reply", "respond", "answer"},
	{"approve", "review", "accept"},
	{"reject", "decline", "deny", "dismiss"},
	{"navigate", "visit", "goto", "open", "browse"},
	{"click", "press", "tap"},
	{"type", "enter", "input", "fill"},
	{"share", "grant", "invite"},
	{"assign", "delegate", "allocate", "reassign"},
	{"close", "resolve", "complete", "finish"},
	{"restore", "recover", "undo", "revert", "rollback", "undelete"},
	{"archive", "hide", "shelve", "sunset"},
	{"schedule", "book", "reserve", "plan", "arrange"},
	{"subscribe", "follow", "watch", "join"},
	{"unsubscribe", "unfollow", "unwatch"},
	{"compare", "diff"},
	{"summarize", "summary", "digest", "overview", "recap"},
	{"count", "tally"},
	{"convert", "transform", "translate"},
	{"sync", "synchronize", "refresh", "reload"},
	{"login", "authenticate", "signin", "auth"},
	{"acknowledge", "ack"},
	{"enable", "activate", "turn", "switch"},
	{"disable", "deactivate"},
	{"pin", "star", "bookmark", "favorite", "fave"},
	{"react", "reaction", "emoji"},
	{"pay", "charge", "bill"},
	{"buy", "purchase", "order"},
	{"fulfill", "fulfillment", "ship", "deliver"},
	{"monitor", "track", "watch", "observe"},
	{"backup", "snapshot"},
	{"scale", "resize"},
	{"connect", "attach", "link"},
	{"disconnect", "detach"},
	{"tag", "label", "categorize"},
	{"comment", "annotate", "remark"},
	{"lock", "secure"},
	{"unlock", "open"},
	{"play", "stream", "listen"},
	{"skip", "next"},
	{"verify", "validate", "check", "test"},
	{"analyze", "profile", "explain"},
	{"merge", "combine", "squash"},
	{"mute", "silence", "snooze"},
	{"escalate", "page"},
	{"scrape", "crawl", "extract"},
	{"ban", "block", "suspend"},
	{"unblock", "unban", "unsuspend", "reinstate"},
	{"unmute", "unsilence"},
	{"unpin", "unstar", "unbookmark"},
	{"flag", "report"},
	{"triage", "prioritize"},
	{"trim", "prune", "truncate"},
	{"repost", "retweet", "reblog", "boost", "reshare"},
	{"like", "heart", "love"},
}

// verbWords are the words of verbGroups, as written.
var verbWords = func() map[string]bool {
	out := map[string]bool{}
	for _, g := range verbGroups {
		for _, w := range g {
			out[w] = true
		}
	}
	return out
}()

// nounGroups are nouns that name one another.
var nounGroups = [][]string{
	{"me", "i", "my", "myself", "whoami", "self"},
	{"directory", "folder", "dir"},
	{"repository", "repo", "codebase"},
	{"pr", "pull"},
	{"database", "db", "datastore"},
	{"kubernetes", "k8s", "kube"},
	{"screenshot", "capture", "picture", "snapshot", "screengrab"},
	{"message", "msg", "chat", "text", "sms", "dm"},
	{"image", "picture", "photo", "img", "pic"},
	{"schedule", "cron", "later"},
	{"history", "log", "logs"},
	{"issue", "ticket", "bug"},
	{"task", "todo", "ticket", "card", "item", "story"},
	{"user", "member", "person", "people", "account", "profile", "teammate", "colleague", "employee", "staff", "someone"},
	{"email", "mail", "message"},
	{"event", "meeting", "appointment"},
	{"column", "field", "schema", "attribute"},
	{"charge", "payment", "transaction"},
	{"invoice", "bill", "receipt"},
	{"subscription", "plan", "membership"},
	{"customer", "client", "buyer", "shopper"},
	{"contact", "lead", "prospect"},
	{"deal", "opportunity"},
	{"company", "organization", "org", "business", "firm"},
	{"product", "sku", "listing", "merchandise"},
	{"order", "purchase"},
	{"sprint", "cycle", "iteration"},
	{"chargeback", "dispute"},
	{"stock", "inventory"},
	{"price", "cost", "spend", "pricing", "fee", "amount"},
	{"webpage", "page", "website", "site"},
	{"url", "link", "address"},
	{"doc", "document", "file"},
	{"wiki", "page", "article"},
	{"note", "memo", "notes"},
	{"dropdown", "option", "select"},
	{"popup", "dialog", "alert", "modal"},
	{"channel", "room", "conversation"},
	{"thread", "conversation"},
	{"label", "tag"},
	{"commit", "change", "revision"},
	{"branch", "ref"},
	{"error", "exception", "crash", "failure", "fault", "fail", "broken"},
	{"alert", "alarm", "warning", "notification", "alerting"},
	{"incident", "outage", "downtime"},
	{"metric", "stat", "statistic", "measurement", "telemetry"},
	{"dashboard", "chart", "panel"},
	{"oncall", "rota", "rotation", "shift"},
	{"slow", "top", "performance", "latency"},
	{"server", "instance", "machine", "host", "vm", "droplet", "vps"},
	{"time", "date", "clock"},
	{"timezone", "zone"},
	{"nearby", "local", "near", "around"},
	{"place", "location", "venue", "spot", "poi"},
	{"direction", "route", "navigation", "directions"},
	{"weather", "forecast"},
	{"spreadsheet", "sheet", "gsheets"},
	{"mongo", "mongodb"},
	{"postgres", "postgresql", "psql"},
	{"ci", "workflow", "pipeline", "job", "build"},
	{"deployment", "deploy", "release", "rollout"},
	{"entity", "node"},
	{"mr", "merge"},
	{"dm", "direct"},
	{"bucket", "storage"},
	{"status", "state", "progress"},
	{"priority", "severity", "urgency"},
	{"deadline", "due"},
	{"secret", "password", "credential", "token", "key"},
	{"role", "permission", "access", "privilege"},
	{"group", "team"},
	{"config", "configuration", "setting", "settings", "preference", "option"},
	{"env", "environment"},
	{"certificate", "cert", "ssl", "tls"},
	{"domain", "dns", "hostname"},
	{"function", "lambda", "serverless"},
	{"queue", "topic"},
	{"package", "dependency", "library", "module", "gem"},
	{"vulnerability", "cve", "advisory"},
	{"video", "clip", "movie"},
	{"song", "track", "music", "audio"},
	{"submission", "response"},
	{"light", "lamp", "bulb", "lights"},
	{"thermostat", "temperature", "heating", "hvac", "climate", "heat"},
	{"comment", "feedback", "remark"},
	{"attachment", "file"},
	{"project", "workspace"},
	{"board", "kanban"},
	{"record", "row", "entry"},
	{"collection", "table"},
	{"volume", "disk"},
	{"cluster", "kubernetes"},
	{"secret", "vault"},
	{"phone", "mobile"},
	{"call", "dial", "ring"},
	{"content", "contents", "body", "text"},
	{"summary", "title", "subject"},
	{"description", "details"},
	{"owner", "author", "creator"},
	{"recipient", "to"},
	{"size", "usage", "quota"},
	{"credit", "balance", "funds"},
	{"embedding", "vector", "embed"},
	{"similar", "similarity", "semantic", "nearest"},
	{"availability", "freebusy", "free", "busy", "slot"},
	{"attendee", "participant", "guest", "invitee", "attend", "attending"},
	{"coordinates", "geocode", "latitude", "longitude"},
	{"mfa", "2fa", "otp", "totp"},
	{"discount", "coupon", "promo", "promotion", "voucher"},
	{"shipping", "shipment", "delivery", "tracking"},
	{"payout", "withdrawal"},
	{"template", "snippet", "boilerplate"},
	{"trace", "span", "tracing"},
	{"artifact", "asset"},
	{"news", "headline", "headlines"},
	{"transcript", "transcription", "caption", "subtitle", "transcribe"},
	{"recommend", "suggest", "recommendation", "suggestion"},
	{"rating", "score", "stars"},
	{"brightness", "dim", "brighten"},
	{"scene", "routine", "automation"},
	{"reminder", "remind", "nudge"},
	{"report", "analytics", "insights", "stats", "statistics"},
	{"engineer", "developer", "responder"},
	{"presence", "online", "away"},
	{"shell", "terminal", "command", "bash", "cli"},
	{"health", "healthcheck", "uptime"},
	{"revenue", "sales", "income", "earnings"},
	{"ticket", "case", "complaint"},
	{"distance", "eta", "duration"},
	{"favorite", "starred", "bookmarked"},
	{"agenda", "itinerary"},
	{"browser", "chrome", "chromium", "firefox", "safari", "headless"},
	{"vendor", "supplier", "seller"},
	{"hn", "hackernews"},
	{"info", "information", "details", "metadata"},
	{"conversation", "convo"},
	{"vacation", "pto", "holiday", "absence", "leave", "timeoff"},
	{"video", "vid"},
	{"presentation", "deck", "slides", "slideshow"},
	{"calendar", "cal"},
	{"appointment", "appt"},
	{"meeting", "mtg"},
	{"production", "prod", "live"},
	{"permission", "perms"},
	{"credential", "creds"},
	{"account", "acct"},
	{"transaction", "txn"},
	{"subscription", "sub"},
	{"infrastructure", "infra"},
	{"address", "addr"},
	{"number", "num"},
	{"birthday", "bday"},
	// Data lineage.
	{"upstream", "parent", "parents", "ancestor"},
	{"downstream", "child", "children", "descendant"},
	{"lineage", "provenance"},
	// People and hiring.
	{"employee", "staff", "personnel", "headcount"},
	{"hire", "recruit"},
	{"candidate", "applicant"},
	{"opening", "requisition", "vacancy"},
	{"payroll", "salary", "wage", "compensation"},
	// Travel.
	{"flight", "airline", "plane"},
	{"hotel", "lodging", "accommodation"},
	{"booking", "reservation"},
	{"trip", "itinerary", "journey"},
	// Trading and crypto.
	{"portfolio", "holding", "holdings"},
	{"crypto", "cryptocurrency", "coin"},
	// Apps, boards and support desks.
	{"dyno", "process"},
	{"variable", "var"},
	{"frame", "artboard"},
	{"macro", "canned"},
	{"agent", "assignee"},
	{"audience", "cohort", "segment"},
	{"application", "app"},
	{"dependency", "deps", "dep"},
	{"vehicle", "car"},
	{"course", "class"},
	{"roster", "enrollment"},
	{"signature", "esignature", "esign"},
	{"signature", "envelope"},
	{"ledger", "books", "bookkeeping", "accounting"},
}

// related are words that often stand for one another in a request
// without meaning the same (a "bug" filed is an issue; a "release" is a
// tag): they count below synonyms.
var related = [][]string{
	{"deploy", "deployment", "build"},
	{"task", "issue"},
	{"card", "issue"},
	{"story", "issue"},
	{"project", "repository"},
	{"conversation", "message"},
	{"chat", "channel"},
	{"member", "team"},
	{"customer", "user"},
	{"contact", "person"},
	{"meeting", "call"},
	{"invite", "attendee"},
	{"draft", "email"},
	{"release", "tag", "version"},
	{"version", "revision"},
	{"log", "event"},
	{"error", "issue"},
	{"alert", "monitor"},
	{"incident", "alert"},
	{"page", "incident"},
	{"container", "image"},
	{"site", "project"},
	{"record", "document"},
	{"cell", "range"},
	{"text", "content"},
	{"wiki", "documentation", "docs"},
	{"balance", "account"},
	{"purchase", "payment"},
	{"refund", "return"},
	{"shipment", "fulfillment", "delivery"},
	{"campaign", "newsletter"},
	{"ticket", "conversation"},
	{"playlist", "queue"},
	{"restaurant", "place"},
	{"address", "location"},
	{"heating", "climate"},
	{"door", "lock"},
	{"signin", "session"},
	{"column", "section", "lane", "stage"},
	{"note", "comment"},
	{"reminder", "remind", "task", "todo"},
	{"music", "playback", "player"},
	{"battery", "charge"},
	{"channel", "stream"},
	{"bill", "cost", "balance", "spend"},
	{"feed", "timeline", "post"},
	{"quote", "price"},
	{"voice", "audio", "recording"},
	{"story", "post", "article"},
	{"folder", "collection"},
	{"visit", "appointment"},
	{"alarm", "siren"},
	{"ticket", "incident"},
	{"now", "realtime", "current", "live"},
	{"exist", "search", "find"},
	{"money", "balance", "fund"},
}

// narrower words reach broader ones, one way: a pod is a Kubernetes
// resource, but a query for resources is not after pods. Tools are often
// named and described by the broader word (kubectl_delete deletes
// "Kubernetes resources").
var narrower = map[string][]string{
	"dollar": {"currency"}, "euro": {"currency"}, "yen": {"currency"}, "pound": {"currency"},
	"voiceover": {"speech", "audio"}, "narration": {"speech", "audio"},
	"pod":          {"kubernetes", "resource"},
	"deployment":   {"resource"},
	"namespace":    {"resource"},
	"service":      {"resource"},
	"container":    {"docker"},
	"assign":       {"update"},
	"rename":       {"update"},
	"reassign":     {"update"},
	"resolve":      {"update", "status"},
	"close":        {"update", "status", "state"},
	"reopen":       {"update", "status", "state"},
	"prioritize":   {"update", "priority"},
	"bug":          {"issue"},
	"feature":      {"issue"},
	"epic":         {"issue"},
	"subtask":      {"issue"},
	"tweet":        {"post"},
	"standup":      {"message"},
	"announcement": {"message"},
	"reminder":     {"event"},
	"birthday":     {"event"},
	"invoice":      {"payment"},
	"refund":       {"payment"},
	"spreadsheet":  {"file", "document"},
	"pdf":          {"file", "document"},
	"csv":          {"file"},
	"json":         {"file"},
	"yaml":         {"file"},
	"readme":       {"file"},
	"folder":       {"file"},
	"photo":        {"file"},
	"attachment":   {"file"},
	"ec2":          {"instance"},
	"s3":           {"object", "bucket"},
	"rds":          {"database"},
	"redis":        {"key", "cache"},
	"cache":        {"key"},
	"endpoint":     {"url"},
	"webhook":      {"url", "event"},
	"tab":          {"browser", "page"},
	"button":       {"element"},
	"link":         {"element"},
	"form":         {"field", "submission"},
	"tomorrow":     {"date"},
	"today":        {"date"},
	"yesterday":    {"date"},
	"week":         {"date"},
	"timestamp":    {"time", "date"},
	"teammate":     {"user"},
	"admin":        {"user"},
	"assignee":     {"user"},
	"reviewer":     {"user"},
	"sender":       {"user"},
	"recipient":    {"user"},
	"mention":      {"user"},
	"emoji":        {"reaction"},
	"shipment":     {"order"},
	"cart":         {"order", "checkout"},
	"song":         {"track"},
	"album":        {"track"},
	"artist":       {"track"},
	"podcast":      {"episode", "show"},
	"vpc":          {"network"},
	"firewall":     {"rule", "network"},
	"ip":           {"address", "network"},
	"tls":          {"certificate"},
	"cron":         {"job", "schedule"},
	"stacktrace":   {"error"},
	"traceback":    {"error"},
	"exception":    {"error"},
	"crash":        {"error"},
	"p1":           {"priority"},
	"urgent":       {"priority"},
	"overdue":      {"due"},
	"unread":       {"message", "email"},
	"inbox":        {"email"},
	"thread":       {"message", "reply"},
	"lgtm":         {"approve"},
	"upsert":       {"insert", "update"},
	"bump":         {"update", "increase"},
	"fly":          {"flight"},
	"land":         {"arrival", "arrive"},
	"cheap":        {"cheapest", "price", "quote"},
	"hike":         {"trail"},
	"hiking":       {"trail"},
	"pim":          {"product"},
	"sighting":     {"observation"},
	"seen":         {"observation"},
	"temp":         {"temperature"},
	"recently":     {"recent"},
	"lately":       {"recent"},
	"waitlist":     {"hold", "waiting"},
	"mileage":      {"odometer"},
	"miles":        {"odometer", "distance"},
	"spotted":      {"observation", "seen"},
	"ep":           {"episode"},
	"nda":          {"contract", "agreement"},
	"apartment":    {"unit", "rental", "property"},
	"shortener":    {"shorten", "link"},
	"blurry":       {"upscale", "sharpen", "enhance"},
	"spent":        {"expense", "transaction", "spend"},
	"forum":        {"community", "topic", "discussion"},
	"latlong":      {"latitude", "coordinates"},
	"latlng":       {"latitude", "coordinates"},
	"webcam":       {"camera"},
	"flash":        {"alert", "blink"},
	"blink":        {"alert"},
	"ac":           {"hvac", "cooling", "climate"},
	"aircon":       {"hvac", "cooling", "climate"},
	"wcag":         {"accessibility"},
	"a11y":         {"accessibility"},
	"mac":          {"computer", "device"},
	"macbook":      {"computer", "device"},
	"laptop":       {"computer", "device"},
	"desktop":      {"computer", "device"},
	"ipad":         {"mobile", "device"},
	"iphone":       {"mobile", "device", "phone"},
	"promql":       {"prometheus", "query"},
	"jql":          {"jira", "query"},
	"soql":         {"salesforce", "query"},
	"esql":         {"elasticsearch", "query"},
	"logql":        {"loki", "query"},
	"kql":          {"kusto", "query"},
	"spl":          {"splunk", "query", "search"},
	"gaql":         {"query"},
	"cypher":       {"neo4j", "query"},
	"hogql":        {"posthog", "query"},
	"transit":      {"direction", "route"},
	"walking":      {"direction", "route"},
	"offboard":     {"deactivate", "user"},
	"onboard":      {"create", "invite", "user"},
	"engineer":     {"user"},
	"developer":    {"user"},
	"book":         {"create"},
	"agenda":       {"event", "calendar"},
	"tail":         {"log"},
	"ssh":          {"exec", "shell", "connect"},
	"replica":      {"scale"},
	"health":       {"status"},
	"rain":         {"weather", "forecast"},
	"raining":      {"weather", "forecast"},
	"snow":         {"weather", "forecast"},
	"sunny":        {"weather", "forecast"},
	"windy":        {"weather", "wind"},
	"humid":        {"weather", "humidity"},
	"hot":          {"weather", "temperature"},
	"cold":         {"weather", "temperature"},
	"chilly":       {"weather", "temperature"},
	"freezing":     {"weather", "temperature"},
	"warm":         {"temperature"},
	"trending":     {"hot", "top", "popular"},
	"mailing":      {"email", "contact"},
	"owe":          {"bill", "payable"},
	"paid":         {"payment", "pay"},
	"subreddit":    {"reddit"},
	"whiteboard":   {"board"},
	"degrees":      {"temperature"},
	"far":          {"distance"},
	"usps":         {"shipment", "tracking", "carrier"},
	"ups":          {"shipment", "tracking", "carrier"},
	"fedex":        {"shipment", "tracking", "carrier"},
	"dhl":          {"shipment", "tracking", "carrier"},
	"parcel":       {"shipment", "package"},
	"pause":        {"status"},
	"resume":       {"status"},
	"unpause":      {"status"},
	"canvas":       {"board"},
	"sticky":       {"note"},
	"skeet":        {"post", "bluesky"},
	"toot":         {"post", "mastodon"},
	"fediverse":    {"mastodon"},
	"insta":        {"instagram"},
	// A vendor reaches the products it names its servers for.
	"vmware":      {"vsphere", "vcenter", "esxi"},
	"oracle":      {"oci"},
	"hashicorp":   {"terraform", "vault", "consul", "nomad"},
	"atlassian":   {"jira", "confluence", "bitbucket", "opsgenie", "statuspage"},
	"ig":          {"instagram"},
	"umbrella":    {"weather", "forecast"},
	"deprovision": {"deactivate", "delete"},
	"blame":       {"log", "history"},
	"unstage":     {"reset"},
	"cc":          {"recipient"},
	"notebook":    {"note"},
	"scrape":      {"fetch", "page"},
	"crawl":       {"fetch", "page"},
	"reschedule":  {"update", "event"},
	"rsvp":        {"respond", "event"},
	"forward":     {"send"},
	// Telling someone on a thread or a ticket is replying or commenting
	// there.
	"tell":       {"reply", "comment"},
	"resend":     {"send"},
	"drive":      {"direction", "route"},
	"commute":    {"direction", "route"},
	"restaurant": {"place"},
	"cafe":       {"place"},
	"hotel":      {"place"},
	"subscriber": {"contact", "member"},
	// A smart home's things are devices; a door, gate, blind or shutter
	// is what home automation calls a cover.
	"door":       {"cover", "device"},
	"garage":     {"cover", "device"},
	"gate":       {"cover", "device"},
	"blind":      {"cover", "device"},
	"shutter":    {"cover", "device"},
	"curtain":    {"cover", "device"},
	"awning":     {"cover", "device"},
	"fan":        {"device"},
	"plug":       {"device"},
	"sensor":     {"device"},
	"appliance":  {"device"},
	"thermostat": {"device"},
	"lamp":       {"device"},
	"speaker":    {"device", "player"},
	"audience":   {"contact", "member"},
}

// phrasal maps a verb and its particle to the verbs the pair means, the
// first giving the query's class (read, change, destroy, run).
var phrasal = map[string][]string{
	"spin up": {"create", "start", "launch"}, "spin down": {"stop", "delete"},
	"tear down": {"delete", "destroy"}, "shut down": {"stop", "shutdown"},
	"shut off": {"stop", "disable"}, "turn on": {"enable", "start"},
	"turn off": {"disable", "stop"}, "switch on": {"enable", "start"},
	"switch off": {"disable", "stop"}, "power on": {"start", "boot"},
	"power off": {"stop", "shutdown"}, "boot up": {"start", "boot"},
	"start up": {"start"}, "bring up": {"start", "show"},
	"take down": {"stop", "remove", "unpublish"}, "kick off": {"start", "trigger", "run"},
	"fire off": {"send", "trigger"}, "roll back": {"rollback", "revert", "undo"},
	"roll out": {"deploy", "rollout", "release"}, "look up": {"lookup", "find", "get"},
	"pull up": {"show", "get", "open"}, "clean up": {"delete", "remove", "purge"},
	"set up": {"create", "setup", "configure"}, "sign up": {"register", "signup", "create"},
	"sign in": {"login", "signin", "authenticate"}, "log in": {"login", "signin", "authenticate"},
	"sign out": {"logout", "signout"}, "log out": {"logout", "signout"},
	"back up": {"backup", "snapshot"}, "fill in": {"fill", "type"},
	"fill out": {"fill", "type"}, "hand off": {"assign", "transfer"},
	"loop in": {"invite", "add", "share"}, "write up": {"create", "write", "draft"},
	"jot down": {"create", "note", "write"}, "note down": {"create", "note", "write"},
	"hang up": {"end", "stop"}, "find out": {"find", "get"},
	"figure out": {"find", "analyze"}, "print out": {"print"},
	"free up": {"delete", "remove"}, "scale up": {"scale"}, "scale down": {"scale"},
	"wind down": {"stop"}, "dig into": {"analyze", "inspect"},
	"check out": {"checkout", "switch"}, "check in": {"checkin", "commit"},
	"get rid": {"delete", "remove"}, "send out": {"send"}, "reach out": {"send", "message"},
	"follow up": {"reply", "remind"}, "go back": {"back"}, "go to": {"navigate", "goto"},
	"write down": {"create", "note", "write"}, "lock out": {"suspend", "lock"},
	"log into": {"login", "signin", "authenticate"}, "check off": {"complete", "close", "done"},
	"tick off": {"complete", "close", "done"}, "cross off": {"complete", "close", "done"}, "sign into": {"login", "signin", "authenticate"},
	"looks like": {"screenshot", "view"}, "look like": {"screenshot", "view"},
	"look into": {"investigate", "acknowledge", "analyze"}, "looking into": {"investigate", "acknowledge", "analyze"},
	"warm up": {"heat", "climate", "start"}, "pull in": {"depend", "dependency", "require"},
	"get out": {"leave", "exit"}, "take off": {"remove", "disable", "unpublish"}, "call off": {"cancel"}, "never mind": {"cancel"}, "money back": {"refund"}, "let know": {"notify", "tell", "announce", "message"}, "fire up": {"start", "launch"}, "shoot over": {"send"},
	"tidy up": {"delete", "clean"}, "wrap up": {"complete", "close", "finish"},
	"pop open": {"open"}, "spin off": {"create", "fork"}, "buy from": {"vendor", "supplier"}, "throw away": {"delete", "remove"}, "throw out": {"delete", "remove"},
}

// apart are phrasal verbs that mean something else with their object
// between (kick off starts something, kick a laptop off the network
// removes it), or nothing (nil).
var apart = map[string][]string{
	"kick off": {"remove", "delete", "disconnect"}, "fire off": nil, "check out": nil,
	"check in": nil, "log in": nil, "log out": nil, "sign in": nil, "sign out": nil,
}

// fixing is fix's and correct's sense: a detail fixed is edited.
var fixing = []sense{
	{objects: stemSet("title", "typo", "name", "spelling", "description", "text", "date", "price", "address", "caption", "subject", "time", "email", "appointment", "event", "meeting", "entry", "record", "metadata", "field", "detail", "info", "label", "tag", "place"), verbs: []string{"update", "edit"}},
}

// senses are the meanings of a verb that depend on its object: open a
// page visits it, open a file reads it, open a pull request creates it,
// open a door unlocks it. When one of the first words after the verb is
// one of a sense's objects, the verb means that sense's verbs (and their
// synonyms) instead of all of its synonyms.
var senses = map[string][]sense{
	"open": {
		{objects: stemSet("page", "webpage", "url", "link", "site", "website", "tab", "browser"), verbs: []string{"navigate", "visit", "goto"}},
		{objects: stemSet("file", "document", "doc", "pdf", "spreadsheet", "attachment", "notebook", "folder", "directory"), verbs: []string{"read", "view"}},
		{objects: stemSet("pr", "pull", "issue", "ticket", "bug", "case", "incident", "account", "branch"), verbs: []string{"create", "new"}},
		{objects: stemSet("door", "garage", "gate", "blind", "shutter", "curtain", "valve", "window", "cover"), verbs: []string{"unlock", "turn", "enable"}},
	},
	"buy": {
		{objects: stemSet("domain", "license", "seat", "plan", "subscription", "number"), verbs: []string{"register", "create", "purchase"}},
		{objects: stemSet("bitcoin", "btc", "eth", "ether", "crypto", "coin", "token", "share", "stock", "etf"), verbs: []string{"order", "trade", "create"}},
	},
	"log": {
		{objects: stemSet("bug", "issue", "ticket", "incident", "defect", "call", "meeting", "expense", "activity", "story", "task"), verbs: []string{"create", "add", "record"}},
	},
	"file": {
		{objects: stemSet("bug", "issue", "ticket", "report", "complaint", "claim", "expense", "request", "incident", "defect"), verbs: []string{"create", "submit"}},
	},
	"raise": {
		{objects: stemSet("bug", "issue", "ticket", "incident", "alert", "invoice", "request", "pr", "flag"), verbs: []string{"create", "open"}},
	},
	"start": {
		{objects: stemSet("board", "whiteboard", "doc", "document", "page", "spreadsheet", "sheet", "thread", "project", "note", "draft", "list"), verbs: []string{"create", "new"}},
	},
	"page": {
		{objects: stemSet("team", "engineer", "oncall", "person", "someone", "responder", "me", "him", "her", "them", "whoever"), verbs: []string{"alert", "notify", "escalate", "incident"}},
	},
	"put": {
		{objects: stemSet("list", "todo", "todolist", "calendar", "agenda", "board", "schedule", "backlog"), verbs: []string{"add", "create"}, far: true},
	},
	"fix":     fixing,
	"correct": fixing,
	"declare": {
		{objects: stemSet("incident", "outage", "emergency"), verbs: []string{"create"}},
	},
	"drop": {
		{objects: stemSet("reservation", "booking", "appointment", "ride", "trip", "order", "subscription", "meeting", "class", "plan"), verbs: []string{"cancel"}},
	},
	"track": {
		{objects: stemSet("time", "hours", "hour", "minutes"), verbs: []string{"log", "record", "create"}},
	},
	"load": {
		{objects: stemSet("page", "webpage", "url", "link", "site", "website", "tab"), verbs: []string{"navigate", "visit", "goto"}},
	},
	"close": {
		{objects: stemSet("page", "webpage", "tab", "browser", "window", "popup", "dialog"), verbs: []string{"close"}},
		{objects: stemSet("door", "garage", "gate", "blind", "shutter", "curtain", "valve", "cover"), verbs: []string{"lock", "disable"}},
	},
}

// madeStates are the states something is made (make it live): the verbs
// that make it so.
var madeStates = map[string][]string{
	"live": {"publish", "update"}, "public": {"publish", "update"}, "private": {"update", "set"},
	"protected": {"update", "set"}, "default": {"update", "set"}, "visible": {"publish", "update"},
	"hidden": {"update", "hide"}, "active": {"update", "activate"}, "inactive": {"update", "deactivate"},
	"primary": {"update", "set"}, "admin": {"update", "assign"}, "owner": {"update", "assign"},
}

// intoVerbs mean another verb when the query says into what: turn a name
// into coordinates converts it, break a file into parts splits it.
var intoVerbs = map[string]string{
	"turn": "convert", "make": "convert", "change": "convert",
	"break": "split", "divide": "split", "chop": "split", "cut": "split",
}

// abbreviations are written forms that stand for words (P&L).
var abbreviations = map[string]string{
	"p&l": "profit loss", "pnl": "profit loss", "a/r": "receivable", "a/p": "payable",
	"ytd": "year date", "q&a": "question answer",
	"kb": "knowledge base", "mdm": "device management",
}

type sense struct {
	objects map[string]bool // stems
	verbs   []string
	far     bool // an object anywhere after the verb, not only among its first three words
}

func stemSet(ws ...string) map[string]bool {
	out := map[string]bool{}
	for _, w := range ws {
		out[stem(w)] = true
	}
	return out
}

// derive returns, as stems, the verbs a noun derives from: deploy for
// deployment, notify for notification, execute for execution, since
// tools are named for what they do and requests often name the thing.
// The stemmer keeps them apart on purpose (an execution is not
// executing), so they count as their own kind of match, below the word
// itself. The way back is weaker and only from a past form (nounsOf):
// subscribing someone to a list is no subscription.
func derive(word string) []string {
	var out []string
	s := stem(word)
	if s != word {
		out = forms(s, out) // notifications, execute: notification, execut
	}
	return forms(word, out)
}

// forms appends the verbs noun word derives from to out.
func forms(word string, out []string) []string {
	add := func(w string) {
		if s := stem(w); len(w) >= 3 && w != word && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	// A base of three letters is kept only when it ends in y (pay,
	// employ): comment is no com.
	trim := func(s string) (string, bool) {
		b, ok := strings.CutSuffix(word, s)
		return b, ok && (len(b) >= 4 || len(b) == 3 && b[2] == 'y')
	}
	if b, ok := trim("ment"); ok { // deployment, payment
		add(b)
	}
	if b, ok := trim("ication"); ok { // notification, verification
		add(b + "y")
	}
	if b, ok := trim("iption"); ok { // subscription, description
		add(b + "ibe")
	}
	if b, ok := trim("ation"); ok { // creation, configuration, invitation, transformation
		add(b + "e")
		add(b)
	}
	if b, ok := trim("ion"); ok { // execution, deletion, connection
		add(b + "e")
		add(b)
	}
	if b, ok := trim("ator"); ok { // generator, validator, translator
		add(b + "ate")
	}
	if b, ok := trim("al"); ok && strings.ContainsRune("vw", rune(b[len(b)-1])) { // removal, approval, renewal
		add(b)
		add(b + "e")
	}
	return out
}

// nounsOf returns, as stems, the nouns derived from verb word
// (connection for connected, deployment for deploy): the way back from
// derive, weaker, as what a verb names is often no such thing.
func nounsOf(word string) []string {
	s := stem(word)
	if len(s) < 4 || !strings.HasSuffix(word, "ed") {
		return nil
	}
	out := []string{stem(s + "ion"), stem(s + "ation"), stem(s + "ment")}
	if b, ok := strings.CutSuffix(s, "i"); ok { // notifi: notification
		out = append(out, stem(b+"ication"))
	}
	if b, ok := strings.CutSuffix(s, "b"); ok { // subscrib: subscription
		out = append(out, stem(b+"ption"))
	}
	return out
}

// tableKey is the key a word's relations are found under: its stem, or
// the word itself when the stem is another word's, a verb's (listing,
// settings, news and tracking stem to list, set, new and track): the
// verb must not reach products, options or headlines.
func tableKey(w string) string {
	if s := stem(w); s == w || verbClass(s) == noVerb {
		return s
	}
	return w
}

// synonymTable maps each stem to the stems of its synonyms and of the
// broader words it reaches; relatedTable to the stems of looser
// relations. Both are built once.
var synonymTable, relatedTable = func() (map[string][]string, map[string][]string) {
	link := func(out map[string][]string, a, b string) {
		if sa, sb := tableKey(a), stem(b); sa != sb && stem(a) != sb && !slices.Contains(out[sa], sb) {
			out[sa] = append(out[sa], sb)
		}
	}
	groups := func(out map[string][]string, gs [][]string) {
		for _, g := range gs {
			for _, a := range g {
				for _, b := range g {
					link(out, a, b)
				}
			}
		}
	}
	syn, rel := map[string][]string{}, map[string][]string{}
	groups(syn, slices.Concat(verbGroups, nounGroups))
	for _, a := range slices.Sorted(maps.Keys(narrower)) {
		for _, b := range narrower[a] {
			link(syn, a, b)
		}
	}
	groups(rel, related)
	return syn, rel
}()
