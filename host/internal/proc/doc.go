// Package proc starts the host's child processes (MCP servers, hooks) so
// that ending one ends its children too.
package proc
