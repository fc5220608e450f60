// Package preset is one host's policy as data: the builtins a coding agent
// modelled on Claude Code declares, with their schemas and search hints,
// and the names of its core loop, which it never defers. The core
// (packages execlua, pool, sandbox) has no opinion about which tools a host
// has; a host that wants this one hands it over through options:
//
//	s, err := execlua.New(funnel, &execlua.Options{
//		Tools:  append(preset.Builtins(), mcpTools...),
//		Exempt: preset.Exempt(),
//	})
//
// A host with other tools writes its own lists the same way.
package preset
