// Package jsontext reads and writes JSON text, the one way the project
// does.
//
// Reading: Parse builds a tree of Values that keeps object members in
// document order, with encoding/json's rules for what is JSON, how strings
// decode (bytes that are not UTF-8 become U+FFFD) and how deep documents
// nest. Schemas (package jsonschema) and tools' outputs (lua.FromJSON) are
// read with it.
//
// Writing: WriteString writes a JSON string literal: no HTML escaping,
// short escapes for the common control characters, \u escapes for the
// other control characters and for U+2028 and U+2029 (so the text stays on
// one line wherever it is pasted), and U+FFFD for bytes that are not UTF-8.
package jsontext
