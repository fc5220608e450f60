package preset

import (
	"encoding/json"
	"testing"

	"github.com/execlua/execlua/pool"
	"github.com/google/go-cmp/cmp"
)

// coreNames and deferredNames partition Builtins.
var (
	coreNames     = []string{"Read", "Write", "Edit", "Glob", "Grep", "Bash"}
	deferredNames = []string{"WebFetch", "WebSearch", "CronCreate", "CronList", "CronDelete", "EnterPlanMode", "ExitPlanMode", "EnterWorktree", "ExitWorktree", "TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "LSP"}
)

// The preset's builtins under its exempt list: the core loop stays flat
// even if a host marks it deferred; the low-frequency tools are deferred by
// their own intent.
func TestBuiltinsDeferral(t *testing.T) {
	opts := &pool.Options{Exempt: Exempt()}
	var core, deferred []string
	for _, b := range Builtins() {
		d := pool.Decide(b, opts)
		switch {
		case d.Deferred && d.Reason == pool.ReasonOwnIntent:
			deferred = append(deferred, b.Name)
		case !d.Deferred && d.Reason == pool.ReasonExempt:
			core = append(core, b.Name)
			b.ShouldDefer = true
			if pool.Decide(b, opts).Deferred {
				t.Errorf("%s deferred when it asks to be; the core loop must stay flat", b.Name)
			}
		default:
			t.Errorf("%s: unexpected verdict %+v", b.Name, d)
		}
	}
	if diff := cmp.Diff(coreNames, core); diff != "" {
		t.Errorf("core loop (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(deferredNames, deferred); diff != "" {
		t.Errorf("deferred builtins (-want +got):\n%s", diff)
	}
}

// Every default schema is a JSON object schema with described properties,
// every deferred builtin has a search hint, and no two share a name.
func TestBuiltinsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, b := range Builtins() {
		if seen[b.Name] {
			t.Errorf("%s listed twice", b.Name)
		}
		seen[b.Name] = true
		if b.Kind != pool.Builtin || b.Description == "" || (b.ShouldDefer && b.SearchHint == "") {
			t.Errorf("%s: kind %v, description %q, hint %q", b.Name, b.Kind, b.Description, b.SearchHint)
		}
		var s struct {
			Type       string `json:"type"`
			Properties map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
			Required []string `json:"required"`
		}
		if err := json.Unmarshal(b.InputSchema, &s); err != nil || s.Type != "object" {
			t.Errorf("%s: schema %s: type %q, %v", b.Name, b.InputSchema, s.Type, err)
		}
		for name, p := range s.Properties {
			if p.Description == "" {
				t.Errorf("%s.%s has no description", b.Name, name)
			}
		}
		for _, r := range s.Required {
			if _, ok := s.Properties[r]; !ok {
				t.Errorf("%s requires undeclared %q", b.Name, r)
			}
		}
	}
}

// Each call returns fresh values: editing one result does not leak into the
// next.
func TestBuiltinsFresh(t *testing.T) {
	first := Builtins()
	first[0].Name = "Changed"
	first[0].InputSchema[0] = 'X'
	second := Builtins()
	if second[0].Name != "Read" || second[0].InputSchema[0] != '{' {
		t.Errorf("edits leaked: %q %q", second[0].Name, second[0].InputSchema[:1])
	}
	exempt := Exempt()
	exempt[0] = "Changed"
	if Exempt()[0] != "Read" {
		t.Error("edits to Exempt leaked")
	}
}
