// Package realpool is a pool of real MCP servers' tools for benchmarks:
// tools.json holds the tools/list entries of 22 public servers (370 tools,
// with the descriptions, input schemas and annotations they publish;
// SOURCES.json says where each list came from, NOTICE.md under which
// licences). A pool of any size is that pool repeated under numbered
// servers (github-00, github-01, ...), so a
// 10,000-tool benchmark pays what 10,000 real tools cost: about 270
// characters of description and 850 of input schema each, where a
// hand-written pool carries one sentence and no schema. DistinctPool
// makes each copy's descriptions its own (they end with the copy's
// number), for a measure that no cost shared by identical texts can flatter.
package realpool
