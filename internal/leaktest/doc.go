// Package leaktest checks that a test leaves nothing running behind it:
// no child process of the test binary (running or unreaped) and no more
// goroutines than it found.
//
//	t.Cleanup(leaktest.Check(t)) // first, so that it runs last
//
// Children and ChildrenOf read /proc: elsewhere they find no process, so
// the check is of goroutines alone.
package leaktest
