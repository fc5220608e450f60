// Package search is ToolSearch: how a script finds the pool tools it can
// call and learns their signatures, locally, without a model round trip.
//
// The model: ToolSearch is defined by one schema. InputSchema is the
// source of its signature (Signature, rendered by package render like any
// pool tool's, for Exec's description), of the arguments it accepts, and
// of the shape shown when a script passes others; OutputSchema is the
// shape of what it returns. In Lua:
//
//	local r = tools.ToolSearch{ query = "list issues", max_results = 5 }
//	-- r.matches = { { name = ..., description = ..., signature = ... }, ... }
//	-- r.total = how many tools matched before the cap
//
// A query is one of three things. "select:A,B,C" returns exactly the
// tools named, in that order, case-insensitively, each once, unknown names
// dropped, not capped by max_results. An empty query lists the pool.
// Anything else is keywords, ranked by a scoring function:
//
//   - A tool named by the query comes first: its full name, or its own
//     name without the mcp__<server>__ prefix (every tool of that name
//     when it names several), also as copied with its call form.
//   - Each keyword scores a tool by its best match: the field (a word of
//     the tool's own name, of its server's name or a prefix its tools'
//     names share such as browser_, a substring of the name, the
//     searchHint, the description, an argument's name or description in
//     the input schema), how it matched (the word itself, its plural or
//     singular, a derived form such as deployment for deploy or
//     difference for different, a curated
//     synonym or broader word, a looser relation, a prefix, one edit away
//     for words of five letters or more (two letters swapped for four)),
//     and how rare the word is in
//     the pool. The curated vocabulary (lexicon/) is written from general
//     knowledge of what tools do; a phrasal verb (spin up, tear down)
//     means its verb, also with its object between (turn the dag back on)
//     unless it means something else apart (kick a laptop off the network
//     removes it); a verb's object chooses its sense (open a page visits
//     it, open a pull request creates it, log or file a bug creates it);
//     two words the pool writes as one
//     (on-call, oncall) are that word, unless one of them names a server
//     (in box is no inbox when Box is a server). Colloquial words (nuke,
//     grab, VM, convo) mean what they stand for, and agent nouns their
//     verbs (generator, generate). A word with no e
//     to drop (taks) is no form of the pool's words whose e the stemmer
//     dropped (take): it reaches them as a near spelling, and short words
//     two swapped letters away (task); a near spelling may also drop or
//     mistype the second letter (hurly, hourly). A final y after a
//     consonant stems as i, so movie and movies, reply and replied meet.
//     A pair written with a hyphen joins even when
//     short (to-do), and joins the next word too (to-do lists, todolists);
//     two stop words written apart never do (for me is no forme).
//   - A server's words weigh more than a description's: a query that names
//     a server (snowflake, whatsapp) looks there first, and a label that
//     names one (algolia: add a record), or the server after via, using,
//     in or on (send it via mailgun), scales the other servers' tools
//     down. A server written in its own style (QuickBooks, rocket.chat,
//     monday.com) is its server, no value.
//   - A tool's score is the sum over keywords, scaled by the share of the
//     query it covers and by how its annotations (read-only, destructive)
//     fit what the query means to do, plus bonuses for covering its own
//     name, for a query's verb of the class (read, change, destroy, run)
//     of the first verb of its name (a question reads; a name's verb is
//     never a stop word), for words written as in the name (issue, not
//     issues; a plural keyword more, and less for a name with its
//     singular: envelopes asks for list_envelopes, not get_envelope; a
//     name to list or search returns many whatever its number) or
//     the description, for a name that starts with the query's first word (for a phrasal verb, with a
//     verb it means: get out is no get), and for keyword pairs found as
//     phrases in the description.
//   - General evidence (evidence.go): a description match weighs less in
//     a long description (descNorm, as BM25's length normalization); a
//     tool whose description says it is deprecated scores less
//     (deprecatedScale); a name word said twice earns its bonuses once;
//     keywords with no verb first take the intent of a verb anywhere
//     among them (policy set attach workspace); the words after called,
//     named or titled are values (a repo called infra-notes is no request
//     about notes); an acronym's plural is the acronym (PRs); ties between
//     tools of one server go to the one it lists first; a pair the pool
//     also writes as one (task list, TaskList) is two readings of one
//     text, and the joined word adds only what it gives beyond its parts
//     found in the same field (alike). Builtins score on the same
//     evidence as MCP tools.
//   - The query's verb is its first word that is no stop word, value or
//     server name, and a first word of no class of its own before a
//     determiner is a verb that acts (tag the prod workspace). A verb's
//     sense gives the query its class (open an incident acts).
//   - Stop words (and a request's filler: "could you", "I'd like to")
//     count only in names (get_me for "who am I"), at a low weight; quoted
//     text, paths, addresses, arguments (run_date=2026-12-01) and ids the
//     pool does not know weigh as values (a capitalized name does not: it
//     matches nothing anyway), and a value implies what it is (notes.md a file, owner/name a
//     repository, a URL, an address, a #channel or hashtag, r/name a
//     subreddit, a phone number a phone, an SQL statement an SQL query,
//     and so does a request said like one: insert a row into users);
//     so do ids even when a description gives them as examples (letters
//     and digits alternating: y4xb93i). A server's name or a medium used
//     as a verb before what to say (whatsapp mom that I'm late; not
//     before an object of its own:
//     woocommerce products that are out of stock), or before whom it
//     reaches (email the report to finance; not after a possessive:
//     Karen's email), means sending it. A word ending in a colon is a
//     label, no value (snowflake: list warehouses). A yes-no question (is
//     the door open) asks for a state. A question with no verb of its own
//     asks to read: no tool named to change or destroy answers it (what
//     streams can I join).
//   - Nothing is dropped: every tool a keyword matches is a hit, ranked.
//     A query returns nothing only when no keyword matches anything.
//   - For a single keyword the contract's tiers decide first (SRCH-5): a
//     word of the name, a substring of the name, the searchHint, the
//     description, an argument's name or description; MCP tools before
//     builtins within a tier.
//   - Ties are broken by meaning before the name: MCP before builtin, the
//     tool that cannot destroy anything, the tool with less of its name
//     left unmatched, the tool named for searching or listing (the one to
//     start from); then the name.
//
// The code has three parts. The analyzer (rules.go) is an ordered list of
// named rules that read a query into a plan: its keywords, its verb, the
// servers it names. The scorer adds each keyword's best field match
// (rank.go) and named signals (signals.go), then orders by the named
// steps of decide. Options hold the weights (Weights) and the rules and
// signals turned off by name (Disable, for ablation); an Index keeps its
// own, so nothing in the package is mutable. Index.Explain (and execlua
// search --explain) reports the rules that fired, the keywords' reach,
// and per result its matches, signals, scale factors and tie-break.
//
// The lexicon: the word tables the ranking reads are data, in plain-text
// files under lexicon/ embedded in the package and loaded once when it
// starts (lexicon.go), each table bound in tables.go to the name the
// ranking reads it by. synonyms.txt holds the synonym groups of verbs and
// nouns and the looser relations, narrower.txt the narrower words,
// phrasal.txt the phrasal verbs, senses.txt the verbs' senses by object,
// function.txt the function words (stop words, particles,
// question words, words that begin an SQL statement), roles.txt the
// words by the role they give a query (read, change, destroy, run;
// browsing, sending), forms.txt irregular plurals. In
// each file a line beginning with # is a comment; [name: kind] begins a
// table, and the comment under it says what the ranking uses it for. A
// set's lines are words; a groups table has one group of words that mean
// one another a line; a map's lines are key words -> value words; a pairs
// table has two words a line; a senses table's lines are
// verb: object words -> verbs. A line not as its table's kind wants is
// reported with its file and line and what was expected, and fails
// TestLexiconLoads.
//
// Keyword results are capped at DefaultResults, or at max_results clamped
// to [1, MaxResults]; Result.Total counts every hit.
//
// The index lives outside scripts. An Index is immutable and safe to
// share; it is built when the pool is assembled, and Update, WithServer and
// WithoutServer derive a new one that reuses every server whose tools did
// not change, so a server connecting or leaving costs that server's
// indexing, not the pool's. Its dictionary is kept in buckets copied only
// when touched (dict.go). Each stem has an id, and each tool keeps its
// description as its words' stem ids and forms (entry.desc): a query reads
// a candidate's phrases by walking ids through a table of its own, not by
// splitting text.
//
// ToolSearch is host work a script triggers, done in the host even when
// scripts run in worker processes, so its inputs are bounded up front: a
// query of at most MaxQueryBytes, MaxQueryWords words or MaxSelectNames
// names after select: (past one, a LimitError names it, before anything is
// ranked). Planning a query is linear in its length and ranking reads at
// most 32 keywords; SearchContext stops when its context is done.
//
// Nothing depends on a name's mcp__ prefix: a tool's kind, server and
// tool name come from its pool.Tool.
//
// Semantics come from the host, never from weights in the module
// (semantic.go, fuse.go): a Semantic over the host's Embedder fuses the
// lexical ranking of a keyword query with the ranking by cosine similarity
// of its vector to the tools' (reciprocal rank fusion, at ranked-list
// level), leaving exact names first and a single keyword's tiers in
// order. It keeps tool vectors by a hash of their text (ToolText) across
// Index versions and never keeps a query's; it waits for the embedder at
// most its Timeout under the search's context, and falls back to the
// lexical ranking, saying why in Result.Fallback, when the embedder fails.
// Semantic.Explain explains the fused ranking: per result, what the
// lexical ranking made of it and its lexical and semantic ranks and fused
// score.
package search
