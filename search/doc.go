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
// dropped, never capped. An empty query lists the pool. Anything else is
// keywords: the query is split at spaces and commas, stop words ("how",
// "the", "a") are dropped, at most 32 keywords are kept, and each is
// matched against every tool, keeping its strongest match, in this order
// of strength:
//
//  1. the tool's exact name (the whole query), which always comes first;
//  2. a word of the name: names split at _, -, ., __ and camelCase, and
//     for an MCP tool the server's and the tool's own words both count;
//  3. a substring of the name (sql inside mysql);
//  4. a word of its searchHint;
//  5. a word of its description.
//
// Words are compared after light stemming (issues, issue; listing, list;
// creating, creation, create), a keyword may be a prefix of a hint or
// description word (repo, repository), and a short list of synonyms
// (remove, delete) counts as a match below every literal one. A tool that
// matches more keywords ranks above one that matches fewer, and one that
// matches fewer than half of them is no hit; then the summed strengths
// rank, then MCP tools come before builtins, then the tool whose own name
// the query covers more fully (list_issues before list_issue_comments for
// "list issues"), then the name. The order is a function of the pool and
// the query alone. Keyword results are capped at DefaultResults, or at
// max_results clamped to [1, MaxResults]; Result.Total counts every hit.
//
// Nothing depends on a name's mcp__ prefix: a tool's kind, server and
// tool name come from its pool.Tool. Search is pure: an Index is a value
// built from a tool slice, and searching it changes nothing.
package search
