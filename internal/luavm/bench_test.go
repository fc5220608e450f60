package luavm

import "testing"

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
