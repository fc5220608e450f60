// Package announce tells the model, through the conversation itself, which
// catalogued tools its scripts can reach.
//
// The model. Exec's declaration is a constant, so that tools[] (inside the
// prompt-cache prefix) never changes when the pool does. What the pool holds
// is instead said in an isMeta user message appended to the end of the
// conversation, and only when it changes. There are three such messages:
//
//   - Full: a fixed lead line, every pool name (sorted, de-duplicated, one a
//     line, nothing else) and one line pointing to tools.ToolSearch for
//     parameters. It depends on the set of names and nothing else: no counts,
//     budgets, sizes, times, servers or headings.
//   - Empty: the pool has become empty since a list was given.
//   - Closed: Exec is no longer enabled, so the list given earlier is void.
//
// Neither Empty nor Closed names Exec: when they are sent it is not in
// tools[], and naming it would point at something the model cannot call.
//
// Each message ends with a marker line carrying its kind and a hash of the
// text above it:
//
//	<!-- execlua-announce kind=full hash=kdjfpaoblcem -->
//
// The hash is 48 bits of SHA-256 written with the letters a to p, so that
// nothing in the message reads as a number. The history is the only record
// of what was said: Decide keeps no state between calls, and reads the last
// valid marker of an isMeta message. Markers in ordinary messages (a user or
// a compaction summary quoting one) and malformed marker lines are ignored;
// within one message the last valid marker line counts, which is always the
// line this package wrote, even if a tool name tried to forge one.
//
// # The decision
//
// Decide compares what the history says the model was told last with what is
// true now, and returns at most one message to append. It never edits the
// history. A list is "in effect" when the last marker is a Full one; Empty and
// Closed are sent only to withdraw a list in effect, never as a first word.
//
//	last marker     | enabled, pool non-empty | enabled, pool empty | Exec not enabled
//	----------------+-------------------------+---------------------+-----------------
//	none            | Full                    | nothing (BC-3)      | nothing
//	Full, same hash | nothing (BC-5)          | Empty (BC-8)        | Closed (BC-9)
//	Full, other     | Full (BC-7)             | Empty (BC-8)        | Closed (BC-9)
//	Empty           | Full                    | nothing (BC-8)      | nothing
//	Closed          | Full (BC-9 reopen)      | nothing             | nothing
//
// "none" covers a fresh session and one whose marker was removed by
// compaction or rewind (BC-6): both get the full list again. A host without
// the channel gets nothing, whatever else holds (BC-10): not being able to
// read the history is not evidence that the pool emptied.
//
// A changed wording changes the hash, so sessions started under an earlier
// release receive the full list once more. That costs one message and keeps
// "same hash" meaning "the model saw these exact bytes".
//
// Rendering and hashing a list of 10,000 names is the costly part, so a
// [List] is made once per pool and handed to Decide, and a pool that
// changed by a server or two gets its list from the last one with
// [List.With]: one pass over the old text, the same bytes as [NewList].
package announce
