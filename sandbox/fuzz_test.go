package sandbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzRun: no script, however malformed or hostile, crashes the sandbox
// or runs on past its budget. Seeds are the script corpus.
func FuzzRun(f *testing.F) {
	files, _ := filepath.Glob("../testdata/lua/*.lua")
	hostile, _ := filepath.Glob("../testdata/lua/hostile/*.lua")
	for _, file := range append(files, hostile...) {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src))
	}
	funnel := newFunnel(map[string]toolFunc{"echo": echo, "fail": failing("no")})
	f.Fuzz(func(t *testing.T, code string) {
		req := funnel.request(code)
		start := time.Now()
		out := Run(context.Background(), req, &Options{Budget: 50 * time.Millisecond, MaxMemory: 64 << 20, MaxStringBytes: 1 << 20})
		if errors.Is(out.Err, ErrCrashed) {
			t.Fatalf("crashed: %v", out.Err)
		}
		if elapsed := time.Since(start); elapsed > 5*time.Second {
			t.Fatalf("ran %v", elapsed)
		}
	})
}
