module github.com/execlua/execlua

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/yuin/gopher-lua v1.1.2
)

require (
	github.com/fsnotify/fsnotify v1.10.1 // indirect
	github.com/mark3labs/mcp-go v1.2.1 // indirect
	golang.org/x/sys v0.13.0 // indirect
)
