// Package jsonschema is the module's one reader of JSON Schema.
//
// The model: a schema is parsed once into an order-keeping tree of
// jsontext.Values (jsontext.Parse), so that a signature lists properties in
// the author's order and renders byte for byte the same every time.
// Everything that reads a schema then answers from that tree with the same
// rules:
//
//   - Resolve and Deref follow local $refs: "#", JSON Pointers through
//     objects and arrays ("#/allOf/0/properties/xs"), percent-decoded and
//     ~0/~1-unescaped ("#/$defs/a%20b", "#/$defs/a~1b"); a $ref replaces
//     its siblings, and chains that dangle or loop resolve to nothing.
//   - Types says which JSON types one schema declares or its keywords
//     imply; Branches gathers a schema with its allOf, anyOf and oneOf
//     alternatives, each once; AllowedTypes is their union.
//   - WantsArray is the empty-table rule: an empty Lua table is [] where
//     the schema allows an array and no object, else {}. Property and Item
//     walk down to a member's or an element's schema.
//   - Accepts checks a JSON value's type against a list of types.
//
// Package render builds signatures on the tree, package internal/luavm the empty-table
// rule, package search ToolSearch's argument check; the agreement test in
// package search feeds all three the same awkward schemas.
//
// Check is the one validator: it finds where a value breaks a schema, at
// positions it can decide alone (type, enum, required and undeclared
// members), and passes what it cannot (alternatives, values of Kind
// Unknown). Go tools check their arguments with it, and preflight the
// literal arguments of a script's calls.
package jsonschema
