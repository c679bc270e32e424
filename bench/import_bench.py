"""Bulk import end to end: `manage.py import FOLDER --wait` with 1 and 2 Celery worker processes.

    python bench/import_bench.py [--files 200] [--seed 11] [--workers 1,2] [--timeout 7200]
                                 [--embedding-threads N]

Generates (once, under var/bench/import-handbook-<files>-seed<seed>/) a handbook folder of
``--files`` Markdown policies spread over nested department folders: each a "# ... Policy" title
and whole numbered sections from bench/gen_corpus.py (rules, exceptions, lists, tables with
captions, the odd code block) until a word count drawn between 600 and 2,000 is passed and a
table is in (about 1,600 words a file on average). Then, for each
worker count N: every policy in the benchmark database is deleted (so that no vector is reused
from an earlier run), a Celery worker is started with ``--concurrency N`` (prefork: N pool
processes, each converting, chunking and embedding on its own) on its own queue and Redis
database, warmed up by importing 2N one-line policies (each pool process loads Docling and the
model once; not timed, then deleted), and ``python manage.py import FOLDER --wait`` is timed as a
subprocess from its start to its exit: reading and checksumming the files, queuing, the pipeline
of every file, and the polling of the version statuses. The same command with ``--dry-run``
(Django start-up, reading, planning; nothing written) is timed just before, for its share.

Printed per run: wall time, files per minute, chunks, tokens read by the model (each searchable
chunk's word pieces, capped at the model's limit) per second of wall time, and that rate against
a bare ``encode`` of the same texts with retrieval.embedding's embedder in this process (same
backend and batch size), timed right after each run (the machine is shared). Database
``policypal_bench_import`` on the embedded server (or BENCH_DATABASE_URL), queue
``policypal-bench-import``, Redis db 12. Logs: var/bench/import-worker-<N>.log,
var/bench/import-run-<N>.log. Not in ``make bench``.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.benchdb import REPO, VAR_BENCH, heading, machine_line, row  # noqa: E402
from bench.gen_corpus import TOPICS, iter_sections  # noqa: E402

QUEUE = "policypal-bench-import"
REDIS = "redis://127.0.0.1:6379/12"
DATABASE = "policypal_bench_import"
FOLDERS = [
    "people", "people/benefits", "people/leave", "finance", "finance/travel", "finance/procurement",
    "it/security", "it/operations", "legal/compliance", "facilities/sites/emea", "facilities/sites/apac", "operations",
]


# --- the handbook ------------------------------------------------------------------------------

def policy_markdown(rng: random.Random, seed: int) -> tuple[str, str]:
    """(title, Markdown) of one policy of 600-2,000 words holding at least one table."""
    topic = rng.choice(sorted(TOPICS))
    title = f"Harbourline {topic} Policy"
    target = rng.randrange(600, 2001)
    parts = [f"# {title}", "", f"Policy owner: {rng.choice(['HR', 'Finance', 'IT', 'Legal', 'Operations'])}. "
             "Synthetic text generated for benchmarking; it describes no real company.", ""]
    words, has_table = 0, False
    for number, section in enumerate(iter_sections(seed), start=1):
        parts.append(section)
        words += len(section.split())
        has_table = has_table or bool(re.search(r"^\|(---\|)+$", section, re.M))
        if words >= target and (has_table or number >= 12):
            break
    return title, "\n".join(parts).rstrip() + "\n"


def handbook(files: int, seed: int) -> Path:
    folder = VAR_BENCH / f"import-handbook-{files}-seed{seed}"
    if folder.exists() and sum(1 for _ in folder.rglob("*.md")) == files:
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    rng = random.Random(f"policypal-import-bench:{seed}")
    for i in range(files):
        title, text = policy_markdown(rng, seed * 10_000 + i)
        path = folder / rng.choice(FOLDERS) / f"{title.removeprefix('Harbourline ')} {i:03d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


# --- processes ---------------------------------------------------------------------------------

def start_worker(env: dict, concurrency: int) -> tuple[subprocess.Popen, object]:
    log_path = VAR_BENCH / f"import-worker-{concurrency}.log"
    log = open(log_path, "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "policypal", "worker", "-Q", QUEUE, "--concurrency", str(concurrency),
         "--loglevel", "INFO", "--hostname", f"bench-import-{concurrency}-{os.getpid()}@%h"],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    deadline = time.monotonic() + 180
    while "ready." not in log_path.read_text():
        if proc.poll() is not None or time.monotonic() > deadline:
            stop_worker(proc)
            raise SystemExit(f"the worker did not start; see {log_path}")
        time.sleep(0.5)
    return proc, log


def stop_worker(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            pass
    try:  # its pool and conversion children too (the worker runs in its own session)
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    if proc.poll() is None:
        proc.wait(timeout=30)


def run_import(env: dict, folder: Path, log_name: str, timeout: int, *, dry_run: bool = False) -> tuple[float, str]:
    """Seconds of `manage.py import FOLDER --wait` (or `--dry-run`), and its output."""
    start = time.perf_counter()
    mode = ["--dry-run"] if dry_run else ["--wait", "--timeout", str(timeout)]
    done = subprocess.run([sys.executable, "manage.py", "import", str(folder), *mode],
                          cwd=REPO, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    output = done.stdout + done.stderr
    (VAR_BENCH / log_name).write_text(output)
    if done.returncode != 0:
        raise SystemExit(f"the import failed (exit {done.returncode}); see {VAR_BENCH / log_name}:\n{output[-2000:]}")
    return seconds, output


def delete_policies() -> None:
    from policypal.policies.models import Policy

    Policy.objects.all().delete()


def warm_up(env: dict, concurrency: int, timeout: int) -> float:
    folder = VAR_BENCH / "import-warm-up"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for i in range(2 * concurrency):
        (folder / f"warm-up-{i}.md").write_text(f"# Warm-up {i}\n\n## 1 Scope\n\nEmployees may claim {i + 1} units.\n")
    seconds, _ = run_import(env, folder, f"import-warm-up-{concurrency}.log", timeout)
    delete_policies()
    return seconds


def searchable_texts() -> tuple[list[str], list[int], int]:
    from retrieval.models import Chunk

    rows = list(Chunk.objects.filter(searchable=True).order_by("version_id", "ordinal").values_list("embed_text", "token_count"))
    return [t for t, _ in rows], [n for _, n in rows], Chunk.objects.count()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--workers", default="1,2", help="worker process counts to time, e.g. 1,2")
    parser.add_argument("--timeout", type=int, default=7200, help="seconds each import may wait for the workers")
    parser.add_argument("--embedding-threads", type=int, default=None,
                        help="EMBEDDING_THREADS of the worker (default: the setting's, 0 = all cores per pool process)")
    args = parser.parse_args()
    counts = [int(n) for n in args.workers.split(",") if n.strip()]
    if args.files < 1 or not counts or min(counts) < 1:
        raise SystemExit("--files and --workers must be positive")
    VAR_BENCH.mkdir(parents=True, exist_ok=True)

    os.environ["CELERY_QUEUE"] = QUEUE
    os.environ["REDIS_URL"] = REDIS
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if not os.environ.get("BENCH_DATABASE_URL"):
        from policypal.embedded_db import embedded_database_url

        os.environ["BENCH_DATABASE_URL"] = embedded_database_url(Path(os.environ.get("POLICYPAL_VAR_DIR", REPO / "var")),
                                                                 DATABASE)
    from bench.benchdb import database_name, setup_django

    url = setup_django()
    from django.conf import settings

    media = VAR_BENCH / "import-media"
    env = {**os.environ, "DATABASE_URL": url, "MEDIA_ROOT": str(media), "LOG_LEVEL": os.environ.get("LOG_LEVEL", "INFO")}
    if args.embedding_threads is not None:
        env["EMBEDDING_THREADS"] = str(args.embedding_threads)
    settings.MEDIA_ROOT = media
    folder = handbook(args.files, args.seed)
    words = sum(len(p.read_text().split()) for p in folder.rglob("*.md"))
    print(f"Bulk import: {args.files} Markdown policies ({words:,} words) in {folder.relative_to(REPO)}, "
          f"database {database_name(url)}, queue {QUEUE}, backend {settings.EMBEDDING_BACKEND}, worker "
          f"EMBEDDING_THREADS={env.get('EMBEDDING_THREADS', settings.EMBEDDING_THREADS)}")
    print(machine_line())

    import redis

    from retrieval.embedding import get_embedder

    embedder = get_embedder()
    embedder.encode(["warm up the model"])
    cap = embedder.max_seq_length - 2
    results = []
    for concurrency in counts:
        redis.Redis.from_url(REDIS).flushdb()
        delete_policies()
        shutil.rmtree(media, ignore_errors=True)
        proc, log = start_worker(env, concurrency)
        try:
            warm = warm_up(env, concurrency, args.timeout)
            print(f"  {concurrency} worker process(es): warm-up import of {2 * concurrency} one-line files {warm:.1f} s",
                  flush=True)
            planning, _ = run_import(env, folder, f"import-dry-run-{concurrency}.log", args.timeout, dry_run=True)
            seconds, output = run_import(env, folder, f"import-run-{concurrency}.log", args.timeout)
        finally:
            stop_worker(proc)
            log.close()
        texts, token_counts, all_chunks = searchable_texts()
        start = time.perf_counter()  # right after the run: the machine is shared, its load moves
        embedder.encode(texts)
        bare = time.perf_counter() - start
        summary = [line for line in output.splitlines() if line.startswith(("Imported:", "Processed:"))]
        results.append({"n": concurrency, "seconds": seconds, "texts": len(texts), "chunks": all_chunks, "bare": bare,
                        "tokens": sum(min(n, cap) for n in token_counts), "summary": summary, "load": os.getloadavg()[0],
                        "planning": planning})
        print(f"  {concurrency} worker process(es): {seconds:.1f} s (bare encode {bare:.1f} s); {' '.join(summary)}",
              flush=True)

    heading("results")
    row("files / words", f"{args.files} / {words:,}")
    for r in results:
        rate, bare_rate = r["tokens"] / r["seconds"], r["tokens"] / r["bare"]
        row(f"{r['n']} worker process(es): import --wait", f"{r['seconds']:.1f} s", f"(load {r['load']:.1f} after it)")
        row("  the command alone (--dry-run: start, read, plan)", f"{r['planning']:.1f} s")
        row("  files per minute", f"{args.files / r['seconds'] * 60:,.1f}")
        row("  chunks (searchable) / tokens", f"{r['chunks']:,} ({r['texts']:,}) / {r['tokens']:,}")
        row("  tokens/s end to end / bare encode right after", f"{rate:,.0f} / {bare_rate:,.0f} = {rate / bare_rate:.2f}")
    delete_policies()
    shutil.rmtree(media, ignore_errors=True)


if __name__ == "__main__":
    main()
