GO ?= go
BENCH_PKGS ?= ./sandbox/ ./lua/ ./search/ ./pool/ ./render/ ./announce/ .
BENCHSTAT ?= $(shell command -v benchstat || echo $(HOME)/go/bin/benchstat)
BENCH_OUT ?= $(or $(TMPDIR),/tmp)/execlua-bench

.PHONY: test bench demo fmt lint

# vet + the race detector over every package: the one command CI runs.
test:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

# BenchmarkFloors first: execlua beside its floors in one run, as ratios;
# then every package's own benchmarks. Both summarised by benchstat when
# it is installed (go install golang.org/x/perf/cmd/benchstat@latest).
bench:
	mkdir -p $(BENCH_OUT)
	$(GO) test -run '^$$' -bench '^BenchmarkFloors$$' -benchmem -count 6 ./sandbox/ | tee $(BENCH_OUT)/floors.txt
	$(GO) test -p 1 -run '^$$' -bench . -skip '^BenchmarkFloors$$' -benchmem -count 6 $(BENCH_PKGS) | tee $(BENCH_OUT)/packages.txt
	-$(BENCHSTAT) $(BENCH_OUT)/floors.txt
	-$(BENCHSTAT) $(BENCH_OUT)/packages.txt

demo:
	$(GO) run ./examples/demo

fmt:
	gofmt -w $$(git ls-files '*.go')

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
