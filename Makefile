# sdcbench: `make run` runs the quickstart experiment, `make test` the test suite.
GO ?= go
BIN := bin/sdcbench

.PHONY: run test test-slurm bench reproduce build fuzz lint clean

build:
	$(GO) build -o $(BIN) ./cmd/sdcbench

## run: the quickstart experiment on the embedded datasets, into results/quickstart/ (not tracked
## by git, so a run leaves `git status` clean; the committed example is results/quickstart-example/)
run: build
	$(BIN) run --out results/quickstart --fresh quickstart

## test: go vet + every test (the command .ci/run calls)
test:
	$(GO) vet ./...
	$(GO) test ./...

## test-slurm: submit a generated Slurm script to a real cluster and compare with a local run.
## Without a cluster (no sinfo answer) it starts a one-node one as root: scripts/slurm-single-node.sh
test-slurm:
	@sinfo -h >/dev/null 2>&1 || ./scripts/slurm-single-node.sh start
	SDCBENCH_SLURM=1 $(GO) test -count=1 -run 'TestSlurm(Cluster|ScalingStudy)' -v ./cmd/sdcbench/

## bench: the benchmarks of bench/ (compare runs with benchstat)
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./bench/ | tee bench/latest.txt

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
