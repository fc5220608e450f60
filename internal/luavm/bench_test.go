package luavm

import (
	"os"
	"path/filepath"
	"testing"
)

func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		New(nil).Close()
	}
}

func BenchmarkCompile(b *testing.B) {
	for b.Loop() {
		if _, err := Compile(`return 1`); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkInstallPrelude(b *testing.B) {
	for b.Loop() {
		s := New(nil)
		s.InstallPrelude(Host{})
		s.Close()
	}
}

// BenchmarkFromJSON decodes the 2 KB structured result of the nested-call
// floors (BenchmarkFloors in ./sandbox) into a state's tables.
func BenchmarkFromJSON(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "bench", "result_2k.json"))
	if err != nil {
		b.Fatal(err)
	}
	s := New(nil)
	defer s.Close()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, err := FromJSON(s.L, raw); err != nil {
			b.Fatal(err)
		}
	}
}
