package execlua

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/execlua/execlua/internal/embedtest"
	"github.com/execlua/execlua/search"
)

// crmTools lists an MCP server's tools as it would send them.
func crmTools(t *testing.T, server string, listed ...string) []Tool {
	t.Helper()
	var out []Tool
	for i := 0; i < len(listed); i += 2 {
		entry := fmt.Sprintf(`{"name":%q,"description":%q,"inputSchema":{"type":"object"}}`, listed[i], listed[i+1])
		tool, err := NewMCPTool(server, json.RawMessage(entry))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tool)
	}
	return out
}

// firstFound runs a script that searches query and returns the first
// match's name.
func firstFound(t *testing.T, s *Session, query string) string {
	t.Helper()
	res := run(s, fmt.Sprintf(`local r = tools.ToolSearch{ query = %q }
return r.matches[1] and r.matches[1].name or "none"`, query))
	if res.IsError {
		t.Fatalf("run: %s", res.Text)
	}
	var name string
	if err := json.Unmarshal(res.Value, &name); err != nil {
		t.Fatalf("value %s: %v", res.Value, err)
	}
	return name
}

// A script's tools.ToolSearch fuses the Semantic's ranking: a paraphrase
// the lexical ranking puts second comes first. The tools' texts are
// embedded once: a server joining costs its own tools, PrepareSearch
// embeds them ahead of the run, and every run embeds its queries alone.
func TestSemanticToolSearchInRun(t *testing.T) {
	crm := crmTools(t, "crm",
		"archive_contact", "Move a contact to the archive: it no longer shows in lists.",
		"delete_contact", "Delete a contact for good.",
		"list_contacts", "List contacts, newest first.")
	notes := crmTools(t, "notes", "stash_note", "Keep a note aside for later.", "list_notes", "List the notes kept.")
	const query = "stash the customer in the archive"

	lexical := newSession(t, &fakeFunnel{}, &Options{Tools: with(builtins(), crm, notes)})
	if got := firstFound(t, lexical, query); got != "mcp__notes__stash_note" {
		t.Fatalf("lexically %s first, want mcp__notes__stash_note: the test tests nothing", got)
	}

	emb := embedtest.New(1024, nil)
	s := newSession(t, &fakeFunnel{}, &Options{Tools: with(builtins(), crm, notes), Semantic: NewSemantic(emb, nil)})
	if got := firstFound(t, s, query); got != "mcp__crm__archive_contact" {
		t.Errorf("with a Semantic: %s first, want mcp__crm__archive_contact", got)
	}
	pool := s.cur.Load().asm.Pool()
	if got := len(emb.Texts()); got != len(pool)+1 {
		t.Errorf("first run embedded %d texts, want the %d pool tools and the query", got, len(pool))
	}

	wiki := crmTools(t, "wiki", "find_page", "Find a page of the wiki.")
	if err := s.SetTools(with(builtins(), crm, notes, wiki)); err != nil {
		t.Fatal(err)
	}
	seen := len(emb.Texts())
	firstFound(t, s, query)
	want := []string{search.ToolText(&wiki[0]), query}
	if got := emb.Texts()[seen:]; !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
		t.Errorf("after a server joined, a run embedded %q, want %q", got, want)
	}

	if err := s.SetTools(with(builtins(), crm, wiki)); err != nil {
		t.Fatal(err)
	}
	seen = len(emb.Texts())
	if err := s.PrepareSearch(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := firstFound(t, s, "customer on ice"); got != "mcp__crm__archive_contact" {
		t.Errorf("a paraphrase with no lexical match: %s first, want mcp__crm__archive_contact", got)
	}
	if got := emb.Texts()[seen:]; !slices.Equal(got, []string{"customer on ice"}) {
		t.Errorf("after a server left, a run embedded %q, want its query alone", got)
	}
}

// An embedder that fails leaves a run's search lexical; the host is told
// through OnFallback, the script is not.
func TestSemanticFallbackInRun(t *testing.T) {
	down := errors.New("embedding service down")
	var mu sync.Mutex
	var told []error
	sem := NewSemantic(EmbedderFunc(func(context.Context, []string) ([][]float32, error) { return nil, down }),
		&SemanticOptions{OnFallback: func(err error) { mu.Lock(); told = append(told, err); mu.Unlock() }})
	notes := crmTools(t, "notes", "stash_note", "Keep a note aside for later.")
	s := newSession(t, &fakeFunnel{}, &Options{Tools: with(builtins(), notes), Semantic: sem})
	if got := firstFound(t, s, "stash the customer"); got != "mcp__notes__stash_note" {
		t.Errorf("with a failing embedder: %s first, want the lexical mcp__notes__stash_note", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(told) != 1 || !errors.Is(told[0], ErrEmbed) || !errors.Is(told[0], down) {
		t.Errorf("OnFallback told %v, want the embedder's error as an ErrEmbed", told)
	}
	if err := s.PrepareSearch(context.Background()); !errors.Is(err, down) {
		t.Errorf("PrepareSearch = %v, want the embedder's error", err)
	}
}

// Waiting for the embedder is the script's time, as all of ToolSearch is:
// the run's budget ends the wait, before the Semantic's own Timeout, and
// the run fails on its budget, not on a fallback.
func TestSemanticWaitIsScriptTime(t *testing.T) {
	stopped := make(chan error, 1)
	sem := NewSemantic(EmbedderFunc(func(ctx context.Context, _ []string) ([][]float32, error) {
		<-ctx.Done()
		stopped <- context.Cause(ctx)
		return nil, ctx.Err()
	}), &SemanticOptions{Timeout: time.Hour, OnFallback: func(err error) { t.Errorf("fell back: %v", err) }})
	notes := crmTools(t, "notes", "stash_note", "Keep a note aside for later.")
	s := newSession(t, &fakeFunnel{}, &Options{Tools: with(builtins(), notes), Semantic: sem, Limits: Limits{Budget: 50 * time.Millisecond}})
	res := run(s, `return tools.ToolSearch{ query = "stash the customer" }`)
	if !errors.Is(res.Err, ErrBudgetExceeded) {
		t.Errorf("run: %v (%s), want ErrBudgetExceeded", res.Err, res.Text)
	}
	if cause := <-stopped; !errors.Is(cause, ErrBudgetExceeded) {
		t.Errorf("the embedder's context ended with %v, want the budget", cause)
	}
}

// In Process isolation ToolSearch still runs in the host, with its
// Semantic: a script in a worker process gets the fused ranking.
func TestSemanticInWorkerProcess(t *testing.T) {
	crm := crmTools(t, "crm", "archive_contact", "Move a contact to the archive.", "list_contacts", "List every contact.")
	notes := crmTools(t, "notes", "stash_note", "Keep a note aside for later.")
	s := newSession(t, &fakeFunnel{}, &Options{Tools: with(builtins(), crm, notes), Isolation: Process, Workers: workerPool(t, nil),
		Semantic: NewSemantic(embedtest.New(1024, nil), nil)})
	if got := firstFound(t, s, "stash the customer in the archive"); got != "mcp__crm__archive_contact" {
		t.Errorf("in a worker process: %s first, want mcp__crm__archive_contact", got)
	}
}
