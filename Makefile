GO ?= go
BENCH_PKGS ?= ./sandbox/ ./lua/ ./search/ ./pool/ ./render/ ./announce/ .

.PHONY: test bench demo fmt lint

# vet + the race detector over every package: the one command CI runs.
test:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

bench:
	$(GO) test -p 1 -run '^$$' -bench . -benchmem -count 6 $(BENCH_PKGS)

demo:
	$(GO) run ./cmd/execlua demo

fmt:
	gofmt -w $$(git ls-files '*.go')

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
