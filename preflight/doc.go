// Package preflight reads a script once, before it runs, and refuses it
// when a call written out literally cannot work, so that a mistake on the
// fifth call is not found after four calls with side effects have run.
//
// A call is checked when its tool is named literally (tools.name{...} or
// tools["name"]{...}) and only as far as its arguments are literals
// (strings, numbers, booleans, tools.null, table constructors of them):
//
//   - a name the script cannot reach, with the nearest names;
//   - a missing required argument, an argument the schema does not have
//     when it takes no others, a literal of the wrong type, a value its
//     enum does not allow (internal/jsonschema.Check, which passes what it
//     cannot decide alone);
//   - arguments that are not one table of named fields, and a call with
//     a colon (tools:name{...}).
//
// Every problem is reported at once, with its line. Anything not literal
// is left to run time. The check must never refuse a script that would
// have worked, so it stands back wherever the script could catch the
// failure or change what it calls: a call inside the arguments of pcall,
// xpcall, coroutine.create or coroutine.wrap, or in a function passed to
// one of them by name, is not checked, and a script that shadows,
// reassigns or passes on the tools table, does not parse, or nests deeper
// than the walk goes, is not checked at all.
package preflight
