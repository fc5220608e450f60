package execlua

import (
	"slices"

	"github.com/execlua/execlua/pool"
)

// Settings are the parts of the host's settings that shape tools[]: per
// settings layer, the enableExec switch and the non-deferred list; and the
// permission filter. The host builds a new value on every reload and hands
// it to Session.SetSettings; the next request and the next Exec run use it,
// without a restart (FLAG-5).
type Settings struct {
	// Remote are the managed settings an administrator pushes; they win
	// over Local (FLAG-4).
	Remote Layer
	// Local is the user's settings file.
	Local Layer
	// Denied is the permission filter (disallowedTools, deny rules, a tool
	// left out of an allowed-tools list), applied alike to flat tools, pool
	// tools and Exec; denying Exec is switching it off (FLAG-6). Nil denies
	// nothing. It is consulted when settings or tools are set, so a host
	// whose rules change sets its settings again.
	Denied func(name string) bool
	// DeniedBy, when set, says who denies a tool Denied filters out ("the
	// deny rule \"X\" in the project settings (/repo/.claude/settings.json)"):
	// a script that calls it is told so, in place of ORCH-4's "not
	// reachable".
	DeniedBy func(name string) string
}

// Layer is what one settings layer says.
type Layer struct {
	// EnableExec is the layer's enableExec; nil when the layer leaves it
	// unset.
	EnableExec *bool
	// NonDeferred names builtins to keep out of the pool and declare flat
	// (FLAG-7, POOL-12); names that match no builtin are ignored.
	NonDeferred []string
}

// ExecEnabled resolves enableExec: the remote value if set, else the local
// one, else on (FLAG-1..4).
func (s Settings) ExecEnabled() bool {
	for _, v := range [...]*bool{s.Remote.EnableExec, s.Local.EnableExec} {
		if v != nil {
			return *v
		}
	}
	return true
}

func (s Settings) poolOptions(exempt []string) *pool.Options {
	return &pool.Options{
		Exempt:            exempt,
		DisableExec:       !s.ExecEnabled(),
		RemoteNonDeferred: s.Remote.NonDeferred,
		LocalNonDeferred:  s.Local.NonDeferred,
		Denied:            s.Denied,
	}
}

// clone keeps the session's copy apart from slices the host goes on using.
func (s Settings) clone() Settings {
	s.Remote.NonDeferred = slices.Clone(s.Remote.NonDeferred)
	s.Local.NonDeferred = slices.Clone(s.Local.NonDeferred)
	return s
}
