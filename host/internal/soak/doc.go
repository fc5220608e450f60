// Package soak holds what the host's soak tests (host's TestSoak, serve's
// TestServeSoak) share: how many runs they make, the random scripts they
// run against the fixture servers, and the restarts they report.
//
// A script calls the fixture's tools (package fixture) on servers picked
// at random, each call under pcall so that a failure is a line of the
// result rather than the end of the run.
package soak
