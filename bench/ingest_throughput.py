"""Ingestion throughput: the whole pipeline against a bare model.encode over the same texts.

    python bench/ingest_throughput.py [--pages 50] [--seed 7] [--format docx|md] [--repeat 2]
                                      [--backend torch|onnx|onnx-int8]

Generates the handbook with ``python bench/gen_corpus.py --pages 50 --out var/bench/`` (if not
there yet), then, in one process, ``--repeat`` times (alternating which of the two runs first):
- the pipeline, exactly as a worker runs it: convert (Docling, or the Markdown reader), chunk
  (chunking/ with the embedding model's tokenizer), embed + index (sentence-transformers, then
  the vectors written to PostgreSQL, where the HNSW and GIN indexes are maintained), each step
  timed, as a new policy version in the benchmark database;
- ``model.encode`` alone over the texts the pipeline embedded (the chunks' embed_text), with
  the same batch size.
Tokens are the word pieces the model reads (each text's count, capped at the model's limit).
One-off costs (model load, Docling set-up) are paid before timing and shown apart. Each
pipeline run starts with the process's text caches emptied (token counts, sentence splits),
as a worker meeting a new document would, and must embed every chunk (a vector reused from
the database would make the run incomparable: reported). The time spent inside the
model's encode during "embed + index" is shown beside it (measured, not subtracted). The
best of the repeats is compared (the machine is shared); each run's ratio against the bare
encode timed next to it, and the pipeline's time outside the model, are shown too. Target:
the pipeline reaches at least 0.8 of the bare model's tokens per second.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.benchdb import REPO, VAR_BENCH, database_name, heading, machine_line, row, setup_django  # noqa: E402

POLICY_KEY = "bench-ingest"


def corpus_file(pages: int, seed: int, fmt: str) -> Path:
    path = VAR_BENCH / f"policy_{pages}p_seed{seed}.{fmt}"
    if not path.exists():
        subprocess.run([sys.executable, str(REPO / "bench" / "gen_corpus.py"), "--pages", str(pages), "--seed", str(seed),
                        "--out", str(VAR_BENCH)], check=True, cwd=REPO)
    return path


def empty_text_caches() -> None:
    """Start a run cold: a worker meets a new document, not the one it chunked a minute ago."""
    from retrieval.embedding import get_token_counter

    clear = getattr(get_token_counter(), "clear_cache", None)  # any TokenCounterLike may stand in
    if clear is not None:
        clear()


class EncodeMeter:
    """Counts the texts and seconds of the embedder's encode calls while active (nothing changes)."""

    def __init__(self, embedder) -> None:
        self.embedder, self.seconds, self.texts = embedder, 0.0, 0

    def __enter__(self):
        original = self.embedder.encode

        def encode(texts, *args, **kwargs):
            start = time.perf_counter()
            try:
                return original(texts, *args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start
                self.texts += len(texts)

        self.embedder.encode = encode  # instance attribute over the method, removed on exit
        return self

    def __exit__(self, *exc) -> None:
        del self.embedder.encode


def run_pipeline(path: Path, embedder) -> dict:
    from policypal.policies.ingestion import version_chunk, version_convert, version_index
    from policypal.policies.models import Policy, PolicyVersion
    from policypal.policies.services import UploadedSource, policy_upsert, policy_version_create
    from retrieval.models import Chunk

    Policy.objects.filter(key=POLICY_KEY).delete()
    policy = policy_upsert(key=POLICY_KEY, title="Benchmark handbook", category="Operations")
    version = policy_version_create(policy=policy, sources=[UploadedSource(name=path.name, content=path.read_bytes())],
                                    effective_from=__import__("datetime").date(2025, 1, 1), note="benchmark",
                                    enqueue=False)
    times = {}
    empty_text_caches()
    with EncodeMeter(embedder) as meter:
        for step, func in (("convert", version_convert), ("chunk", version_chunk), ("embed + index", version_index)):
            start = time.perf_counter()
            func(version_id=version.pk)
            times[step] = time.perf_counter() - start
    version.refresh_from_db()
    if version.status != PolicyVersion.Status.READY:
        raise SystemExit(f"the pipeline failed: {version.status} {version.error}")
    chunks = list(Chunk.objects.filter(version=version, searchable=True).order_by("ordinal").values_list("embed_text", "token_count"))
    if meter.texts != len(chunks):
        print(f"  WARNING: the pipeline encoded {meter.texts} texts for {len(chunks)} chunks (vectors reused from the "
              "database?): this run is not comparable with the bare encode", flush=True)
    return {"times": times, "texts": [t for t, _ in chunks], "token_counts": [n for _, n in chunks],
            "all_chunks": Chunk.objects.filter(version=version).count(), "encode_inside": meter.seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--format", choices=("docx", "md"), default="docx")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--backend", choices=("torch", "onnx", "onnx-int8"), default=None)
    args = parser.parse_args()
    if args.backend:
        os.environ["EMBEDDING_BACKEND"] = args.backend
    url = setup_django()
    from django.conf import settings

    from chunking.convert import convert_file
    from retrieval.embedding import get_embedder, get_token_counter

    path = corpus_file(args.pages, args.seed, args.format)
    print(f"Ingestion throughput: {path.relative_to(REPO)} ({args.pages} pages of 500 words), "
          f"database {database_name(url)}, backend {settings.EMBEDDING_BACKEND}")
    print(machine_line())

    one_off = {}
    start = time.perf_counter()
    embedder = get_embedder()
    embedder.encode(["warm up the model"])
    one_off["load the embedding model"] = time.perf_counter() - start
    start = time.perf_counter()
    get_token_counter().count("warm up the tokenizer")
    one_off["load the tokenizer"] = time.perf_counter() - start
    start = time.perf_counter()
    convert_file(str(REPO / "samples" / "policies" / ("expenses_travel.docx" if args.format == "docx" else "leave.md")))
    one_off["converter set-up (first conversion of a small file)"] = time.perf_counter() - start

    cap = embedder.max_seq_length - 2
    pipeline_runs, bare_runs, results = [], [], []
    texts = None
    for attempt in range(args.repeat):
        bare_first = attempt % 2 == 1 and texts is not None  # alternate the order: the machine is shared
        if bare_first:
            start = time.perf_counter()
            embedder.encode(texts)
            bare_runs.append(time.perf_counter() - start)
        result = run_pipeline(path, embedder)
        results.append(result)
        texts = result["texts"]
        pipeline_runs.append(sum(result["times"].values()))
        if not bare_first:
            start = time.perf_counter()
            embedder.encode(texts)
            bare_runs.append(time.perf_counter() - start)
        print(f"  run {attempt + 1}: pipeline {pipeline_runs[-1]:.1f} s "
              f"({', '.join(f'{k} {v:.2f} s' for k, v in result['times'].items())}, of which encode "
              f"{result['encode_inside']:.1f} s), bare encode {bare_runs[-1]:.1f} s", flush=True)
    best = min(range(len(pipeline_runs)), key=lambda i: pipeline_runs[i])
    result = results[best]
    tokens = sum(min(n, cap) for n in result["token_counts"])
    best_pipeline, best_bare = min(pipeline_runs), min(bare_runs)
    pipeline_rate, bare_rate = tokens / best_pipeline, tokens / best_bare

    heading("one-off costs (paid once per worker process, not in the figures below)")
    for label, seconds in one_off.items():
        row(label, f"{seconds:.1f} s")
    heading("texts")
    row("searchable chunks embedded (of all chunks)", f"{len(result['texts'])} (of {result['all_chunks']})")
    row("tokens read by the model", f"{tokens:,}")
    heading(f"best of {args.repeat} runs")
    for step, seconds in result["times"].items():
        row(f"pipeline step: {step}", f"{seconds:.2f} s")
    row("  of which inside the model's encode", f"{result['encode_inside']:.2f} s")
    row("pipeline end to end", f"{best_pipeline:.1f} s")
    row("pipeline tokens/s", f"{pipeline_rate:,.0f}")
    row("bare model.encode tokens/s (same texts)", f"{bare_rate:,.0f}")
    ratio = pipeline_rate / bare_rate
    row("pipeline / bare", f"{ratio:.2f}", "target >= 0.80 " + ("MET" if ratio >= 0.8 else "NOT MET"))
    # The load of a shared machine changes within minutes: two views less sensitive to it.
    row("per run: pipeline / the bare encode beside it",
        ", ".join(f"{bare / pipeline:.2f}" for pipeline, bare in zip(pipeline_runs, bare_runs)))
    outside = [sum(r["times"].values()) - r["encode_inside"] for r in results]
    row("pipeline time outside the model's encode, per run", ", ".join(f"{seconds:.2f} s" for seconds in outside))


if __name__ == "__main__":
    main()
