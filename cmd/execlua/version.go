package main

import "runtime/debug"

// version is the module version the binary was built from ("(devel)" for
// a build inside the repository).
var version = func() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "dev"
}()
