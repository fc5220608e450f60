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

// BenchmarkIndexStore is a loop of stores at computed integer keys, each
// checked by (key) (assign.go), and one at constant keys, which are not.
func BenchmarkIndexStore(b *testing.B) {
	for name, src := range map[string]string{
		"computed": `local t = {} for i = 1, 100000 do t[i] = i end`,
		"constant": `local t = {} for i = 1, 100000 do t[1] = i end`,
		"append":   `local t = {} for i = 1, 100000 do t[#t + 1] = i end`,
	} {
		b.Run(name, func(b *testing.B) {
			sc, err := Compile(src)
			if err != nil {
				b.Fatal(err)
			}
			s := New(nil)
			defer s.Close()
			for b.Loop() {
				fn, args := s.Load(sc)
				s.L.Push(fn)
				for _, a := range args {
					s.L.Push(a)
				}
				if err := s.L.PCall(len(args), 0, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
