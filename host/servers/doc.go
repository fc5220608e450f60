// Package servers connects the host to MCP servers with mcp-go and turns
// their tools into pool tools and their results into tool outputs.
//
// The model. A [Manager] owns one connection per configured server: a
// stdio subprocess, a streamable HTTP or SSE endpoint, or an mcp-go server
// in the same process. [Manager.Connect] starts them all in parallel, each
// bounded by its own timeout, so a server that does not start or answer is
// reported (which server, why, the last lines of its stderr) and left out
// without holding up the others.
//
// A connected server's tools/list is read page by page, as the server sent
// it, and each entry becomes a pool tool named mcp__<server>__<tool>
// through execlua.NewMCPTool; an entry whose name is invalid is left out
// with a report. notifications/tools/list_changed reads the list again
// (debounced), and [Options.OnChange] tells the host to rebuild its pool.
//
// A server that exits or whose transport fails is marked disconnected and
// its tools leave [Manager.Tools]. It is started again on its next use: a
// call of one of its tools, or [Manager.Revive], which a host calls when it
// reads the tools; failed attempts back off exponentially.
//
// [Manager.Call] performs tools/call: the output is the structuredContent
// (the bytes as received when mcp-go kept them), the text blocks and the
// image blocks; an embedded text resource counts as text, an embedded image
// as an image, and audio, binary resources and resource links become a line
// of text saying what was there. An isError result is an error carrying its
// text (ORCH-2).
// Cancelling the call's context sends notifications/cancelled to a stdio or
// in-process server and ends the HTTP request of an HTTP server.
package servers
