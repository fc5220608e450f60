module github.com/execlua/execlua

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/yuin/gopher-lua v1.1.2
)
