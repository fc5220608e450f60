package permission

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/execlua/execlua/host/settings"
)

// Rule is one parsed permission rule.
type Rule struct {
	settings.Rule
	// Tool is the tool part: a name, or a prefix when Prefix is set.
	Tool   string
	Prefix bool
	// Pattern is the argument pattern; HasPattern tells "X()" from "X".
	Pattern    string
	HasPattern bool
}

// ErrBadRule is what every rule parse error matches.
var ErrBadRule = errors.New("invalid permission rule")

// Parse parses a rule's text.
func Parse(r settings.Rule) (Rule, error) {
	text := strings.TrimSpace(r.Text)
	out := Rule{Rule: r, Tool: text}
	if open := strings.IndexByte(text, '('); open >= 0 {
		if !strings.HasSuffix(text, ")") {
			return Rule{}, fmt.Errorf("%w %q in the %s settings: an argument pattern is written Tool(pattern)", ErrBadRule, r.Text, r.Scope)
		}
		out.Tool = text[:open]
		out.Pattern = text[open+1 : len(text)-1]
		out.HasPattern = true
	}
	if out.Tool == "" {
		return Rule{}, fmt.Errorf("%w %q in the %s settings: the tool name is missing", ErrBadRule, r.Text, r.Scope)
	}
	if t, ok := strings.CutSuffix(out.Tool, "*"); ok {
		out.Tool, out.Prefix = t, true
	} else if strings.HasPrefix(out.Tool, "mcp__") && !strings.Contains(out.Tool[len("mcp__"):], "__") {
		// mcp__server: every tool of the server.
		out.Tool, out.Prefix = out.Tool+"__", true
	}
	return out, nil
}

// MatchesName reports whether the rule's tool part names the tool.
func (r Rule) MatchesName(name string) bool {
	if r.Prefix {
		return strings.HasPrefix(name, r.Tool)
	}
	return name == r.Tool
}

// Matches reports whether the rule applies to a call of name with args (a
// JSON object). cwd resolves relative path patterns.
func (r Rule) Matches(name string, args json.RawMessage, cwd string) bool {
	if !r.MatchesName(name) {
		return false
	}
	if !r.HasPattern || r.Pattern == "" || r.Pattern == "*" {
		return true
	}
	var fields map[string]any
	_ = json.Unmarshal(args, &fields) // arguments that are not an object match no pattern
	str := func(k string) string { s, _ := fields[k].(string); return s }
	switch name {
	case "Bash":
		return matchText(r.Pattern, str("command"))
	case "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Glob", "Grep":
		p := str("file_path")
		for _, k := range []string{"notebook_path", "path", "pattern"} {
			if p == "" {
				p = str(k)
			}
		}
		return matchPath(r.Pattern, p, cwd)
	case "WebFetch":
		if host, ok := strings.CutPrefix(r.Pattern, "domain:"); ok {
			u, err := url.Parse(str("url"))
			return err == nil && (u.Hostname() == host || strings.HasSuffix(u.Hostname(), "."+host))
		}
		return matchText(r.Pattern, str("url"))
	}
	for _, v := range fields {
		if s, ok := v.(string); ok && matchText(r.Pattern, s) {
			return true
		}
	}
	return false
}

// matchText matches a pattern where * is any run of characters and a
// trailing :* a prefix ending at a word boundary.
func matchText(pattern, s string) bool {
	if prefix, ok := strings.CutSuffix(pattern, ":*"); ok {
		return s == prefix || strings.HasPrefix(s, prefix+" ")
	}
	return glob(pattern, s, false)
}

// matchPath matches a path pattern, also against the path relative to cwd
// when the pattern is relative.
func matchPath(pattern, p, cwd string) bool {
	if p == "" {
		return false
	}
	if glob(pattern, p, true) {
		return true
	}
	pattern = strings.TrimPrefix(pattern, "./")
	if !filepath.IsAbs(pattern) && filepath.IsAbs(p) && cwd != "" {
		if rel, err := filepath.Rel(cwd, p); err == nil && !strings.HasPrefix(rel, "..") {
			return glob(pattern, rel, true)
		}
	}
	return false
}

// glob matches s against pattern. * matches any run of characters, except
// "/" when path is set; ** matches any run including "/".
func glob(pattern, s string, path bool) bool {
	for len(pattern) > 0 {
		if pattern[0] != '*' {
			if len(s) == 0 || s[0] != pattern[0] {
				return false
			}
			pattern, s = pattern[1:], s[1:]
			continue
		}
		any := !path
		pattern = pattern[1:]
		if strings.HasPrefix(pattern, "*") {
			any, pattern = true, strings.TrimLeft(pattern, "*")
		}
		for i := 0; i <= len(s); i++ {
			if glob(pattern, s[i:], path) {
				return true
			}
			if i < len(s) && s[i] == '/' && !any {
				return false
			}
		}
		return false
	}
	return len(s) == 0
}
