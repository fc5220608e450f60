package settings

import (
	"fmt"
	"maps"
	"slices"
)

// Scope names a settings layer. Higher scopes take precedence.
type Scope int

// The layers, lowest precedence first.
const (
	User Scope = iota
	Project
	Local
	Managed
	numScopes
)

func (s Scope) String() string {
	switch s {
	case User:
		return "user"
	case Project:
		return "project"
	case Local:
		return "local"
	case Managed:
		return "managed"
	}
	return "unknown"
}

// Paths are the settings files of each layer; "" means the layer has no
// file.
type Paths struct {
	User, Project, Local, Managed string
}

func (p Paths) of(s Scope) string {
	return [...]string{p.User, p.Project, p.Local, p.Managed}[s]
}

// Settings are the layers as last read, merged on demand. A value is never
// changed after it is built.
type Settings struct {
	layers  [numScopes]File
	paths   Paths
	mcpJSON map[string]ServerConfig
	// fromCode is set when the managed layer was given from code.
	fromCode bool
}

// Layer returns what one layer's file says (the zero File when it has
// none).
func (s *Settings) Layer(scope Scope) File { return s.layers[scope] }

// Path returns the file of a layer, "" when it has none.
func (s *Settings) Path(scope Scope) string { return s.paths.of(scope) }

// EnableExec is the enableExec of the highest layer at or below top that
// sets it, nil when none does.
func (s *Settings) EnableExec(top Scope) *bool {
	for sc := top; sc >= User; sc-- {
		if v := s.layers[sc].EnableExec; v != nil {
			return v
		}
	}
	return nil
}

// NonDeferred joins the nonDeferredTools lists of the given layers.
func (s *Settings) NonDeferred(scopes ...Scope) []string {
	var out []string
	for _, sc := range scopes {
		out = append(out, s.layers[sc].NonDeferredTools...)
	}
	return out
}

// RuleKind is the list a permission rule comes from.
type RuleKind int

// The permission lists.
const (
	Allow RuleKind = iota
	Ask
	Deny
)

func (k RuleKind) String() string {
	return [...]string{"allow", "ask", "deny"}[k]
}

// Rule is one permission rule with the layer it comes from.
type Rule struct {
	Text  string
	Kind  RuleKind
	Scope Scope
	// File is the settings file that holds the rule; "" for rules given
	// from code (Options.Managed) or granted in this process.
	File string
}

// Source says where a rule comes from, for messages: "the project
// settings (/repo/.claude/settings.json)".
func (r Rule) Source() string {
	if r.File == "" {
		return fmt.Sprintf("the %s settings", r.Scope)
	}
	return fmt.Sprintf("the %s settings (%s)", r.Scope, r.File)
}

// Rules are the permission rules of every layer, lowest layer first.
func (s *Settings) Rules() []Rule {
	var out []Rule
	for sc := User; sc < numScopes; sc++ {
		p := s.layers[sc].Permissions
		file := s.paths.of(sc)
		if sc == Managed && s.fromCode {
			file = ""
		}
		for kind, list := range [...][]string{Allow: p.Allow, Ask: p.Ask, Deny: p.Deny} {
			for _, text := range list {
				out = append(out, Rule{Text: text, Kind: RuleKind(kind), Scope: sc, File: file})
			}
		}
	}
	return out
}

// DefaultMode is the defaultMode of the highest layer that sets it, else
// "default".
func (s *Settings) DefaultMode() string {
	for sc := Managed; sc >= User; sc-- {
		if m := s.layers[sc].Permissions.DefaultMode; m != "" {
			return m
		}
	}
	return "default"
}

// Hooks are the matchers of one hook event from every layer, lowest layer
// first.
func (s *Settings) Hooks(event string) []HookMatcher {
	var out []HookMatcher
	for sc := User; sc < numScopes; sc++ {
		out = append(out, s.layers[sc].Hooks[event]...)
	}
	return out
}

// Servers are the MCP servers to connect: .mcp.json's, filtered by the
// enabled and disabled lists, overridden name by name by the settings
// files' mcpServers, higher layers last.
func (s *Settings) Servers() map[string]ServerConfig {
	var enabled, disabled []string
	enabledSet := false
	for _, f := range s.layers {
		if f.EnabledMcpjsonServers != nil {
			enabledSet = true
		}
		enabled = append(enabled, f.EnabledMcpjsonServers...)
		disabled = append(disabled, f.DisabledMcpjsonServers...)
	}
	out := make(map[string]ServerConfig)
	for name, c := range s.mcpJSON {
		if slices.Contains(disabled, name) || enabledSet && !slices.Contains(enabled, name) {
			continue
		}
		out[name] = c
	}
	for _, f := range s.layers {
		maps.Copy(out, f.MCPServers)
	}
	return out
}
