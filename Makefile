GO ?= go
BENCH_PKGS ?= ./sandbox/ ./sandbox/worker/ ./internal/luavm/ ./search/ ./pool/ ./render/ ./announce/ ./host/gateway/ .
BENCH_RUNS ?= 5
BENCH_OUT ?= $(or $(TMPDIR),/tmp)/execlua-bench
FUZZTIME ?= 10s

SOAK_RUNS ?= 150

.PHONY: test eval eval-lexicon eval-lexicon-entries stress-test bench bench-all fuzz demo fmt lint soak

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
	$(GO) test -tags eval -count=1 -v -run '^Test(Quality|RulesAndSignalsEarnTheirPlace)' ./search/

# The lexicon's ablation: each table (eval-lexicon, minutes) or each
# entry (eval-lexicon-entries, about an hour) left out in turn, every
# pool indexed again, judged on the frozen halves (docs/search.md).
eval-lexicon:
	$(GO) test -tags 'eval evallexicon' -count=1 -v -timeout 30m -run '^TestLexiconTablesEarnTheirPlace$$' ./search/

eval-lexicon-entries:
	$(GO) test -tags 'eval evallexicon' -count=1 -v -timeout 4h -run '^TestLexiconEntriesEarnTheirPlace$$' ./search/

# `test` three times in a row with two CPU-bound processes beside it: the
# suite must pass on a busy machine (.ci/stress).
stress-test:
	GO=$(GO) ./.ci/stress

# The soak tests at length (make test runs short ones): MCP servers that
# crash, hang and restart under concurrent runs, in the host (SOAK_RUNS
# runs per worker) and behind serve over HTTP with mcp-go clients
# (SOAK_RUNS Exec per client).
soak:
	EXECLUA_SOAK=$(SOAK_RUNS) $(GO) test -race -count=1 -timeout 60m -run '^(TestSoak|TestServeSoak)$$' -v ./host/ ./host/serve/

# The README's table of figures: every benchmark behind it, BENCH_RUNS
# times, going round the packages in turn (BenchmarkFloors alternates each
# figure with its floor in chunks), printed as medians with their ranges and
# the load average meanwhile (internal/benchtable; raw output in
# $(BENCH_OUT)). bench-all runs every package's benchmarks once more.
bench:
	$(GO) run ./internal/benchtable -runs $(BENCH_RUNS) -out $(BENCH_OUT)

bench-all:
	$(GO) test -p 1 -run '^$$' -bench . -benchmem $(BENCH_PKGS)

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
