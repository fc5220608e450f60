// Package jsontext reads and writes JSON text, the one way the project
// does.
//
// Reading: a Reader reads a document one value at a time, with
// encoding/json's rules for what is JSON, how strings decode (bytes that
// are not UTF-8 become U+FFFD) and how deep documents nest. Parse builds
// with it a tree of Values that keeps object members in document order,
// for schemas (package jsonschema); tools' outputs (luavm.FromJSON) become
// Lua tables as the Reader reads them, with no tree in between.
//
// Writing: WriteString writes a JSON string literal: no HTML escaping,
// short escapes for the common control characters, \u escapes for the
// other control characters and for U+2028 and U+2029 (so the text stays on
// one line wherever it is pasted), and U+FFFD for bytes that are not UTF-8.
package jsontext
