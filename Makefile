.PHONY: run test bench
run:  ## start the whole app (web, worker, database, broker) with demo users and sample policies
	bash scripts/run.sh
test:  ## run the whole test suite on real components
	bash scripts/test.sh
bench:  ## run the benchmarks (figures printed)
	bash scripts/bench.sh
