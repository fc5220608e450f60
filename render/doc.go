// Package render turns a tool's JSON Schemas into the signature a script
// author reads: LuaCATS annotations, the convention of lua-language-server,
// followed by the Lua statement that names the tool.
//
// The model: a signature is documentation that is also valid Lua. Every
// line but the last is a --- comment, so no description, enum value or
// name can leak into code, and the last line is the call form the script
// uses, tools.name or tools["name"] for names that are not identifiers:
//
//	---@class mcp__srv__fetch.Args
//	---@field id integer The record to fetch
//	---@field mode? "fast"|"slow"
//
//	---@param args mcp__srv__fetch.Args
//	---@return any
//	function tools.mcp__srv__fetch(args) end
//
// An object with nothing to document below it (no descriptions, facets or
// references) is written inline when that stays short, as the contract's
// own example is: ---@param args { id: integer, mode?: "fast"|"slow" }.
// Other objects with properties become ---@class blocks named after where
// they sit (Tool.Args, Tool.Args.field, Tool.Result, Tool.<definition>), so
// that each field keeps its description in full: one line after the field,
// or several lines above it. Deprecation, default, format and the numeric,
// length, pattern and item-count constraints follow the description in
// parentheses. Everything else is a type expression: literal unions for
// enum and const, unions for anyOf, oneOf and type arrays (null is nil),
// merged objects for allOf, T[] and [A, B] for arrays and tuples,
// table<string, T> for maps, {} for an object that declares nothing (no
// shape is invented). Local $refs to object definitions become one class
// each, so recursion names its own class; other recursion, remote
// references and nesting deeper than MaxDepth render as any.
//
// Builtins and MCP tools go through the same code: nothing depends on a
// name's mcp__ prefix. Rendering is pure and deterministic: the same
// schemas give the same bytes.
package render
