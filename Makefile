# sdcbench: `make run` runs the quickstart experiment, `make test` the test suite.
GO ?= go
BIN := bin/sdcbench

.PHONY: run test test-slurm bench bench-asm bench-sdcmicro reproduce build fuzz lint clean

## build: the CLI without cgo (nothing needs it; a cgo binary aborts in pthread_create under a
## `ulimit -v` that a CGO_ENABLED=0 one runs under)
build:
	CGO_ENABLED=0 $(GO) build -o $(BIN) ./cmd/sdcbench

## run: the quickstart experiment on the embedded datasets, into results/quickstart/ (not tracked
## by git, so a run leaves `git status` clean; the committed example is results/quickstart-example/)
run: build
	$(BIN) run --out results/quickstart --fresh quickstart

# ASM_PKGS: the packages with assembly (their portable kernels are built with -tags purego)
ASM_PKGS = $(sort $(dir $(shell find . -name '*.s' -not -path './.git/*')))

## test: go vet + every test (the command .ci/run calls), then vet and the tests of the
## packages with assembly again with the portable Go kernels (-tags purego, about 15 s more).
## The browser tests of the HTML reports need Chromium (apt-get install -y chromium) and are
## skipped, with this message, without it (internal/browser, docs/release-report.md)
test:
	@command -v chromium >/dev/null 2>&1 || [ -n "$$SDCBENCH_CHROMIUM" ] || \
		echo "make test: no chromium on PATH: the browser tests are skipped (apt-get install -y chromium)"
	$(GO) vet ./...
	$(GO) test ./...
	$(GO) vet -tags purego $(ASM_PKGS)
	$(GO) test -tags purego $(ASM_PKGS)

## test-slurm: submit a generated Slurm script to a real cluster and compare with a local run.
## Without a cluster (no sinfo answer) it starts a one-node one as root: scripts/slurm-single-node.sh
test-slurm:
	@sinfo -h >/dev/null 2>&1 || ./scripts/slurm-single-node.sh start
	SDCBENCH_SLURM=1 $(GO) test -count=1 -run 'TestSlurm(Cluster|ScalingStudy)' -v ./cmd/sdcbench/

## bench: the benchmarks of bench/ (compare runs with benchstat)
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./bench/ | tee bench/latest.txt

## bench-asm: what the assembly kernels buy: BenchmarkKernels built as is and with -tags purego
## (the portable Go kernels), run alternately 6 times each, compared with benchstat
## (docs/scaling.md, "What the assembly buys"; about 3 minutes)
bench-asm:
	$(GO) test -c -o bench/asm.test ./bench/
	$(GO) test -c -tags purego -o bench/purego.test ./bench/
	rm -f bench/asm.txt bench/purego.txt
	cd bench && for i in 1 2 3 4 5 6; do \
		./asm.test -test.run '^$$' -test.bench '^BenchmarkKernels$$' >> asm.txt || exit 1; \
		./purego.test -test.run '^$$' -test.bench '^BenchmarkKernels$$' >> purego.txt || exit 1; \
	done
	rm -f bench/asm.test bench/purego.test
	$(GO) run golang.org/x/perf/cmd/benchstat@latest asm=bench/asm.txt purego=bench/purego.txt | tee bench/asm-vs-purego.txt

## bench-sdcmicro: CPU seconds of sdcMicro 5.8.1 and sdcbench side by side on the same CSV files
## (bench/sdcmicro_compare.R; needs Rscript with sdcMicro), written to docs/performance.md with the
## fitted exponents; default sizes about 40 CPU-minutes, ARGS="--full --reps 3" for up to 10^6 records
bench-sdcmicro: build
	@command -v Rscript >/dev/null || { echo "bench-sdcmicro: Rscript not found (needs R with sdcMicro 5.8.1)"; exit 1; }
	Rscript bench/sdcmicro_compare.R $(ARGS)

## fuzz: a short fuzzing session of the CSV reader and the spec parser
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzReadCSV -fuzztime 30s ./datasets/
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 30s ./experiments/

## reproduce: regenerate results/ for every seed experiment (long; resumes where it stopped)
## (run writes each study's companion report and verdicts.csv; status then rewrites docs/reproductions.md)
reproduce: build
	@for s in $$($(BIN) list experiments | awk 'NR>1 && $$1 != "tiny" {print $$1}'); do \
		out=results/$$s; [ "$$s" = quickstart ] && out=results/quickstart-example; \
		echo "== $$s → $$out"; $(BIN) run --out $$out $$s || exit 1; \
	done
	$(BIN) status --results results --out docs/reproductions.md

lint:
	gofmt -l . | tee /dev/stderr | (! read)
	$(GO) vet ./...

clean:
	rm -rf bin
