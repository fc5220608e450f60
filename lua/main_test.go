package lua_test

import (
	"os"
	"testing"

	"github.com/execlua/execlua"
)

// TestMain serves the worker processes of the Process isolation tests.
func TestMain(m *testing.M) {
	if execlua.IsWorker() {
		os.Exit(execlua.ServeWorker())
	}
	os.Exit(m.Run())
}
