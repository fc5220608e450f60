package permission

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/execlua/execlua/host/settings"
)

func settingsWith(t *testing.T, perms settings.Permissions) *settings.Settings {
	t.Helper()
	st := settings.Open(settings.Paths{}, &settings.Options{Managed: &settings.File{Permissions: perms}})
	return st.Current()
}

func TestRuleMatches(t *testing.T) {
	for _, tc := range []struct {
		rule, tool, args string
		want             bool
	}{
		{"mcp__srv__get", "mcp__srv__get", `{}`, true},
		{"mcp__srv__get", "mcp__srv__get_all", `{}`, false},
		{"mcp__srv", "mcp__srv__get", `{}`, true},
		{"mcp__srv", "mcp__srv2__get", `{}`, false},
		{"mcp__srv__*", "mcp__srv__get", `{}`, true},
		{"mcp__srv__*", "mcp__srvx__get", `{}`, false},
		{"mcp__a__b", "mcp__a__b__c", `{}`, false},
		{"Bash", "Bash", `{"command":"ls"}`, true},
		{"Bash(git log:*)", "Bash", `{"command":"git log -3"}`, true},
		{"Bash(git log:*)", "Bash", `{"command":"git log"}`, true},
		{"Bash(git log:*)", "Bash", `{"command":"git logx"}`, false},
		{"Bash(npm run *)", "Bash", `{"command":"npm run test && rm -rf /"}`, true},
		{"Bash(rm:*)", "Bash", `{"command":"ls"}`, false},
		{"Read(/etc/*)", "Read", `{"file_path":"/etc/passwd"}`, true},
		{"Read(/etc/*)", "Read", `{"file_path":"/etc/ssl/x"}`, false},
		{"Read(/etc/**)", "Read", `{"file_path":"/etc/ssl/x"}`, true},
		{"Edit(src/**)", "Edit", `{"file_path":"/work/src/a/b.go"}`, true},
		{"Edit(./src/*.go)", "Edit", `{"file_path":"/work/src/b.go"}`, true},
		{"Edit(src/**)", "Edit", `{"file_path":"/other/src/b.go"}`, false},
		{"WebFetch(domain:example.com)", "WebFetch", `{"url":"https://docs.example.com/x"}`, true},
		{"WebFetch(domain:example.com)", "WebFetch", `{"url":"https://example.com.evil/x"}`, false},
		{"mcp__gh__create_issue(*secret*)", "mcp__gh__create_issue", `{"title":"a","body":"my secret"}`, true},
		{"mcp__gh__create_issue(*secret*)", "mcp__gh__create_issue", `{"title":"a","n":1}`, false},
		{"mcp__gh__create_issue()", "mcp__gh__create_issue", `{}`, true},
	} {
		r, err := Parse(settings.Rule{Text: tc.rule})
		if err != nil {
			t.Fatalf("%s: %v", tc.rule, err)
		}
		if got := r.Matches(tc.tool, json.RawMessage(tc.args), "/work"); got != tc.want {
			t.Errorf("%s on %s %s: %v, want %v", tc.rule, tc.tool, tc.args, got, tc.want)
		}
	}
	for _, bad := range []string{"Bash(ls", "(x)", ""} {
		if _, err := Parse(settings.Rule{Text: bad}); !errors.Is(err, ErrBadRule) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestPrecedence: deny beats ask beats allow, whatever the layer; the mode
// decides when no rule matches.
func TestPrecedence(t *testing.T) {
	s := settingsWith(t, settings.Permissions{
		Allow: []string{"mcp__srv", "Bash"},
		Ask:   []string{"mcp__srv__write", "Bash(git push:*)"},
		Deny:  []string{"mcp__srv__drop", "Bash(rm:*)"},
	})
	c, errs := New(s, "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, tc := range []struct {
		tool, args string
		want       Decision
	}{
		{"mcp__srv__read", `{}`, Allow},
		{"mcp__srv__write", `{}`, Ask},
		{"mcp__srv__drop", `{}`, Deny},
		{"Bash", `{"command":"ls"}`, Allow},
		{"Bash", `{"command":"git push origin"}`, Ask},
		{"Bash", `{"command":"rm -rf x"}`, Deny},
		{"mcp__other__x", `{}`, Ask},
	} {
		if v := c.Check(tc.tool, json.RawMessage(tc.args)); v.Decision != tc.want {
			t.Errorf("%s %s: %v, want %v", tc.tool, tc.args, v.Decision, tc.want)
		}
	}
	if !c.Denied("mcp__srv__drop") || c.Denied("Bash") || c.Denied("mcp__srv__read") {
		t.Error("Denied must hold exactly for deny rules without a pattern")
	}
	v := c.Check("mcp__srv__drop", nil)
	if err := v.Refusal("mcp__srv__drop"); !errors.Is(err, ErrDenied) || err.Error() != `Permission to use mcp__srv__drop has been denied by the rule "mcp__srv__drop" in the managed settings.` {
		t.Errorf("refusal: %v", err)
	}

	for mode, want := range map[string]Decision{"bypassPermissions": Allow, "dontAsk": Deny, "default": Ask, "plan": Ask, "acceptEdits": Ask} {
		c, _ := New(settingsWith(t, settings.Permissions{DefaultMode: mode, Deny: []string{"X"}}), "")
		if v := c.Check("mcp__a__b", nil); v.Decision != want {
			t.Errorf("mode %s: %v, want %v", mode, v.Decision, want)
		}
		if v := c.Check("X", nil); v.Decision != Deny {
			t.Errorf("mode %s: a deny rule must still deny", mode)
		}
	}
	c, _ = New(settingsWith(t, settings.Permissions{DefaultMode: "acceptEdits"}), "")
	if v := c.Check("Edit", nil); v.Decision != Allow {
		t.Errorf("acceptEdits on Edit: %v", v.Decision)
	}
	// Rules granted in this process add to the file's.
	extra, _ := Parse(settings.Rule{Text: "mcp__other__x", Kind: settings.Allow})
	if v := c.With([]Rule{extra}).Check("mcp__other__x", nil); v.Decision != Allow {
		t.Errorf("With: %v", v.Decision)
	}
	_, errs = New(settingsWith(t, settings.Permissions{Allow: []string{"Bash(ls"}}), "")
	if len(errs) != 1 {
		t.Errorf("a bad rule must be reported: %v", errs)
	}
}
