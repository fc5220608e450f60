// Package overlay is an immutable string-keyed map whose next version is
// made from a few changes at a cost that follows the changes, not the size
// of the map: the registry of a session derives a new version each time
// one MCP server joins, leaves or changes, while runs go on reading the
// version they started with.
//
// A Map is a base map shared by every version derived from it and a small
// layer of changes on top (new values and deletions). Deriving copies the
// layer, not the base; when the layer grows past an eighth of the base it
// is folded into a new base. Reads look in the layer first.
package overlay
