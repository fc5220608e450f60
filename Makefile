GO ?= go
BENCH_PKGS ?= ./sandbox/ ./sandbox/worker/ ./internal/luavm/ ./search/ ./pool/ ./render/ ./announce/ ./host/gateway/ .
BENCHSTAT ?= $(shell command -v benchstat || echo $(HOME)/go/bin/benchstat)
BENCH_OUT ?= $(or $(TMPDIR),/tmp)/execlua-bench
FUZZTIME ?= 10s

SOAK_RUNS ?= 150

.PHONY: test eval stress-test bench fuzz demo fmt lint soak

# vet + the race detector over every package: the one command CI runs.
# The timeout is a hang guard well above a loaded machine's package time
# (the default 10 minutes per package is reached at a load average of 20).
test:
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 30m ./...

# The search evaluation: the quality floors of every evaluation set and
# the ablation that checks each ranking signal still earns its place, with
# their tables (-v). They measure quality, not behaviour, and take minutes
# under the race detector, so they are not in `test`; CI runs them too.
eval:
	$(GO) test -tags eval -count=1 -v -run '^Test(Quality|SignalsEarnTheirPlace)' ./search/

# `test` three times in a row with two CPU-bound processes beside it: the
# suite must pass on a busy machine (.ci/stress).
stress-test:
	GO=$(GO) ./.ci/stress

# The host's soak test at length: MCP servers that crash, hang and
# restart under concurrent runs, SOAK_RUNS runs per worker (make test runs
# a short one).
soak:
	EXECLUA_SOAK=$(SOAK_RUNS) $(GO) test -race -count=1 -run '^TestSoak$$' -v ./host/

# BenchmarkFloors first: execlua beside its floors in one run, as ratios;
# then every package's own benchmarks. Both summarised by benchstat
# (go install golang.org/x/perf/cmd/benchstat@latest); the raw results stay
# in $(BENCH_OUT).
bench:
	mkdir -p $(BENCH_OUT)
	$(GO) test -run '^$$' -bench '^BenchmarkFloors$$' -benchmem -count 6 ./sandbox/ > $(BENCH_OUT)/floors.txt || { cat $(BENCH_OUT)/floors.txt; exit 1; }
	$(GO) test -p 1 -run '^$$' -bench . -skip '^BenchmarkFloors$$' -benchmem -count 6 $(BENCH_PKGS) > $(BENCH_OUT)/packages.txt || { cat $(BENCH_OUT)/packages.txt; exit 1; }
	-$(BENCHSTAT) $(BENCH_OUT)/floors.txt
	-$(BENCHSTAT) $(BENCH_OUT)/packages.txt

# Every fuzz target of the module for FUZZTIME each (what CI runs); see
# .ci/fuzz for what fails the run.
fuzz:
	GO=$(GO) ./.ci/fuzz $(FUZZTIME)

demo:
	$(GO) run ./cmd/execlua demo

fmt:
	gofmt -w $$(git ls-files '*.go')

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
