#!/usr/bin/env bash
# Runs the benchmarks and prints their figures (`make bench`). Benchmarks are scripts, not tests:
# they assert nothing. They use their own databases on the embedded PostgreSQL server
# (policypal_bench, policypal_bench_10k, policypal_bench_100k; BENCH_DATABASE_URL for another server), never the
# development data, and write generated files under var/bench/. Each is one command on its own:
#
#   python bench/ingest_throughput.py   ingestion tokens/s, whole pipeline vs bare model.encode (50-page DOCX)
#   python bench/onnx_backend.py        ONNX Runtime fp32 / int8 vs torch: speed, cosine, all-evidence@5
#   python bench/query_latency.py       ask service p50 / p95 at 10,000 and 100,000 chunks, 4 concurrent callers
#   python bench/hnsw_recall.py         HNSW recall@10 vs exact search under a 10 % permission filter
#   python bench/memory.py              peak RSS of the web process and the Celery worker while serving
#   python bench/chunking_bench.py      conversion and chunking speed
#
# The first run builds the 100,000-chunk synthetic index (bench/scale_corpus.py, ~10 minutes on
# two cores); later runs reuse it. Extra arguments are ignored; run a script directly to pass options.
source "$(dirname "$0")/setup.sh"
trap 'stop_started' EXIT

ensure_venv
ensure_secret_key
ensure_redis  # the memory benchmark runs a real Celery worker
mkdir -p var/bench
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1

run() {
  log "python $*"
  python "$@"
}

run bench/ingest_throughput.py
run bench/onnx_backend.py
run bench/query_latency.py
run bench/hnsw_recall.py
run bench/memory.py
run bench/chunking_bench.py
