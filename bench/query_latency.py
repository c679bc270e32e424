"""Query latency of the ask service call at 10,000 and 100,000 chunks, 4 concurrent callers.

    python bench/query_latency.py [--sizes 10000,100000] [--callers 4] [--questions 160]
                                  [--user scale-all|scale-one] [--backend torch|onnx|onnx-int8]
                                  [--budget TOKENS] [--long] [--processes N]

The call timed is ``policypal.assistant.answering.answer_compose`` (what the ask page and
``manage.py ask`` run, without HTTP and without recording the answer): query embedding,
hybrid search with the access and date filters, parent expansion and version notices, and
the extractive answer composition (sentences chosen by their chunk's cosine and the
question's rare terms; no second model call). Each caller is a
thread with its own database connection; all callers start together and ask different
questions. The index is the synthetic one of bench/scale_corpus.py (real chunk texts of
generated handbooks with redrawn numbers; vectors of a few thousand real embeddings plus
noise: see that file). User ``scale-all`` may read every chunk, ``scale-one`` 10 % of them.
Also printed: one caller alone, and the time split of a call (single caller).
--processes N spreads the callers over N processes of this script (callers/N threads each), as
the web server spreads requests over its worker processes (scripts/run.sh and docker-compose.yml
run 2 gunicorn workers of 4 threads): in one process the callers' Python work takes turns under
the interpreter lock, which the deployed app does not do across its workers.
Target: p95 <= 100 ms at 100,000 chunks and <= 150 ms at 1,000,000 on these 2 cores.
--budget TOKENS also times the packed answer context (policy first, then sections, within the
budget: ``answer_context(budget=...)``, retrieval/packing.py). --long makes every question a long
one, a situation sentence before the ask, so that it is searched whole, as its ask and as its
situation (retrieval/question_parts.py).
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.benchdb import database_name, heading, machine_line, median, percentile, row  # noqa: E402

AS_OF = "2026-06-01"


def ask(question: str, user, as_of) -> None:
    from policypal.assistant.answering import answer_compose

    answer_compose(question=question, user=user, as_of=as_of)


def retrieve(question: str, user, as_of) -> None:
    from retrieval.context import answer_context

    answer_context(question=question, user=user, as_of=as_of, k=5)


def retrieve_packed(budget: int):
    def call(question: str, user, as_of) -> None:
        from retrieval.context import answer_context

        answer_context(question=question, user=user, as_of=as_of, k=5, budget=budget)

    return call


LONG_SITUATIONS = (
    "I joined the team a few months ago and I am working on a client project in another city this quarter.",
    "My manager is away this week and the people team has not answered my email yet, so I am asking here.",
    "We have a deadline at the end of the month and I want to get this right before I submit anything.",
)


def long_question(question: str, n: int) -> str:
    """A short question made long: a situation sentence before it."""
    return f"{LONG_SITUATIONS[n % len(LONG_SITUATIONS)]} {question}"


def run_callers(questions: list[str], user, callers: int, call=ask) -> tuple[list[float], float]:
    import datetime as dt

    from django.db import connection

    as_of = dt.date.fromisoformat(AS_OF)
    latencies: list[float] = []
    lock = threading.Lock()
    barrier = threading.Barrier(callers)
    errors = []

    def caller(mine: list[str]) -> None:
        try:
            barrier.wait()
            for question in mine:
                start = time.perf_counter()
                call(question, user, as_of)
                elapsed = time.perf_counter() - start
                with lock:
                    latencies.append(elapsed)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=caller, args=(questions[i::callers],)) for i in range(callers)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    if errors:
        raise errors[0]
    return latencies, wall


def split_of_a_call(questions: list[str], user) -> dict[str, float]:
    """Median milliseconds of each part of answer_compose, one caller."""
    import datetime as dt

    from django.conf import settings

    from policypal.assistant import answering
    from retrieval import context as ctx
    from retrieval.access import access_params
    from retrieval import search
    from retrieval.embedding import get_embedder

    as_of = dt.date.fromisoformat(AS_OF)
    parts = {"embed the question": [], "search SQL (both lists, one round trip)": [], "load the hits": [],
             "parent expansion + version notices": [], "answer composition (sentence scoring)": [], "whole call": []}
    for question in questions:
        t0 = time.perf_counter()
        vector = get_embedder().encode_one(question)
        t1 = time.perf_counter()
        rows = search.candidate_rows(params=access_params(user, as_of), qvec=search.vector_literal(vector),
                                     terms=question, n=settings.SEARCH_CANDIDATES)
        t2 = time.perf_counter()
        hits = search.chunk_search_hybrid(question=question, user=user, as_of=as_of, k=5, query_vector=vector)
        t3 = time.perf_counter()
        context = ctx.answer_context(question=question, user=user, as_of=as_of, k=5, query_vector=vector)
        t4 = time.perf_counter()
        answering.answer_compose(question=question, user=user, as_of=as_of)
        t5 = time.perf_counter()
        del rows, hits, context
        parts["embed the question"].append(t1 - t0)
        parts["search SQL (both lists, one round trip)"].append(t2 - t1)
        parts["load the hits"].append(max(0.0, (t3 - t2) - (t2 - t1)))
        parts["parent expansion + version notices"].append(max(0.0, (t4 - t3) - (t3 - t2)))
        parts["whole call"].append(t5 - t4)
    whole = median(parts["whole call"])
    known = sum(median(parts[k]) for k in list(parts)[:4])
    parts["answer composition (sentence scoring)"] = [max(0.0, whole - known)]
    return {k: median(v) * 1000 for k, v in parts.items()}


def served_plan(user) -> str:
    import datetime as dt

    import numpy as np
    from django.db import connection, transaction

    from retrieval.access import access_params
    from retrieval.search import plan_sql, query_params, search_plan, vector_literal

    with transaction.atomic(), connection.cursor() as cursor:
        chosen = search_plan(cursor, params=access_params(user, dt.date.fromisoformat(AS_OF)), n=40)
        params = query_params(versions=chosen.versions, qvec=vector_literal(np.ones(384) / 384 ** 0.5),
                              terms="fuel card approval for employees", n=40)
        cursor.execute("EXPLAIN " + plan_sql(chosen), params)
        plan = "\n".join(r[0] for r in cursor.fetchall())
    audience_indexes = sorted(set(re.findall(r"Index Scan using (chunk_hnsw_aud_\w+)", plan)))
    if audience_indexes:
        vec = (f"one list per audience ({len(chosen.audiences)}), partial HNSW index scan of "
               + ", ".join(audience_indexes))
    else:
        vec = "HNSW index scan" if "chunk_embedding_hnsw" in plan else "exact (no HNSW)"
    fts = "GIN" if "chunk_search_vector_gin" in plan else "no GIN"
    budget = "" if chosen.exact else f", max_scan_tuples {chosen.options['hnsw.max_scan_tuples']}"
    return (f"{chosen.allowed:,} of {chosen.indexed:,} chunks allowed ({chosen.fraction:.1%}): "
            f"vector list: {vec}{budget}; text list: {fts}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--callers", type=int, default=4)
    parser.add_argument("--questions", type=int, default=160)
    parser.add_argument("--user", default="scale-all", choices=("scale-all", "scale-one"))
    parser.add_argument("--backend", choices=("torch", "onnx", "onnx-int8"), default=None)
    parser.add_argument("--budget", type=int, default=None,
                        help="also time the packed answer context within this many tokens")
    parser.add_argument("--long", action="store_true",
                        help="long questions: a situation sentence before each (split into ask and situation)")
    parser.add_argument("--processes", type=int, default=1,
                        help="spread the callers over this many processes, each with callers/processes threads, "
                             "as the web server spreads requests over its worker processes (scripts/run.sh: 2); "
                             "default 1: every caller a thread of this process")
    parser.add_argument("--shard", default="", help=argparse.SUPPRESS)  # "i/n:START": one process of --processes
    parser.add_argument("--threads", type=int, default=1,
                        help="EMBEDDING_THREADS for the embedder (default 1, as a web process should run; 0 = library default)")
    args = parser.parse_args()
    if args.backend:
        os.environ["EMBEDDING_BACKEND"] = args.backend
    sizes = [int(s) for s in args.sizes.split(",")]
    if len(sizes) > 1:  # one database per index size: one process each
        for size in sizes:
            argv = [a for a in sys.argv[1:]]
            if "--sizes" in argv:
                i = argv.index("--sizes")
                del argv[i : i + 2]
            argv = [a for a in argv if not a.startswith("--sizes=")]
            subprocess.run([sys.executable, __file__, "--sizes", str(size), *argv], check=True)
        return
    from bench import scale_corpus

    url = scale_corpus.setup(sizes[0])
    from django.conf import settings
    from django.contrib.auth import get_user_model

    if args.threads and not settings.EMBEDDING_THREADS:  # as make run gives the web process
        settings.EMBEDDING_THREADS = args.threads

    from retrieval.embedding import get_embedder

    print(f"Query latency of answer_compose, database {database_name(url)}, backend {settings.EMBEDDING_BACKEND} "
          f"({getattr(settings, 'EMBEDDING_THREADS', 0) or 'default'} thread(s) per call), user {args.user}, "
          f"{args.callers} concurrent callers")
    print(machine_line())
    print("Index: synthetic (bench/scale_corpus.py): real texts of generated handbooks with redrawn numbers; "
          "vectors = a few thousand real embeddings + noise, reused across copies.")
    get_embedder().encode(["warm up"])
    questions = scale_corpus.questions(args.questions + 20)
    if args.long:
        questions = [long_question(q, n) for n, q in enumerate(questions)]
    warm, questions = questions[:20], questions[20:]
    if args.shard:
        _run_shard(args, questions, warm)
        return
    for size in sizes:
        built = scale_corpus.build(size)
        user = get_user_model().objects.get(username=args.user)
        heading(f"{built['searchable']:,} searchable chunks ({'built now' if built['built'] else 'reused'})")
        row("served plan", served_plan(user))
        run_callers(warm, user, args.callers)
        calls = [("ask (answer_compose)", ask), ("retrieval only (answer_context)", retrieve)]
        if args.budget:
            calls.append((f"retrieval, packed within {args.budget} tokens (answer_context budget)",
                          retrieve_packed(args.budget)))
        for label, call in calls:
            print(f"  -- {label}")
            single, _ = run_callers(questions[: max(20, len(questions) // 4)], user, 1, call)
            row("1 caller: p50 / p95", f"{percentile(single, 50) * 1000:.0f} / {percentile(single, 95) * 1000:.0f} ms")
            if args.processes > 1:
                latencies, wall = run_processes(args, size, "ask" if call is ask else "retrieve")
            else:
                latencies, wall = run_callers(questions, user, args.callers, call)
            p50, p95 = percentile(latencies, 50) * 1000, percentile(latencies, 95) * 1000
            shape = f"{args.callers} callers" + (f" over {args.processes} processes" if args.processes > 1 else "")
            row(f"{shape}: p50", f"{p50:.0f} ms")
            goal = 150 if size >= 1_000_000 else 100  # README "What to size": 100 ms at 100k, 150 ms at 1M
            target = (f"target <= {goal} ms " + ("MET" if p95 <= goal else "NOT MET")) if size >= 100_000 and call is ask else ""
            row(f"{shape}: p95", f"{p95:.0f} ms", target)
            row(f"{shape}: max / mean",
                f"{max(latencies) * 1000:.0f} / {sum(latencies) / len(latencies) * 1000:.0f} ms")
            row("throughput", f"{len(latencies) / wall:.1f} calls/s")
        for part, ms in split_of_a_call(questions[:30], user).items():
            row(f"  split (1 caller, median): {part}", f"{ms:.1f} ms")


def run_processes(args, size: int, call_name: str) -> tuple[list[float], float]:
    """The callers spread over args.processes processes of this script (each its own Python, its
    own database connections, callers/processes threads), all starting at one moment after each
    has warmed up; their latencies together, and the wall time from that moment to the last end."""
    import json

    start_at = time.time() + 25.0 + 5.0 * args.processes  # after every process has loaded and warmed up
    procs = []
    for i in range(args.processes):
        argv = [sys.executable, __file__, "--sizes", str(size), "--callers", str(args.callers),
                "--questions", str(args.questions), "--user", args.user, "--threads", str(args.threads),
                "--processes", str(args.processes), "--shard", f"{i}/{args.processes}:{start_at}:{call_name}"]
        if args.long:
            argv.append("--long")
        procs.append(subprocess.Popen(argv, stdout=subprocess.PIPE, text=True))
    latencies, ends = [], []
    for proc in procs:
        out, _ = proc.communicate()
        if proc.returncode != 0:
            raise SystemExit(f"a caller process failed (exit {proc.returncode})")
        report = json.loads(out.strip().splitlines()[-1])
        latencies += report["latencies"]
        ends.append(report["end"])
    return latencies, max(ends) - start_at


def _run_shard(args, questions: list[str], warm: list[str]) -> None:
    """One process of run_processes: its share of the callers and questions, from the agreed moment."""
    import json

    from django.contrib.auth import get_user_model

    shard, start_at, call_name = args.shard.split(":")
    index, count = (int(x) for x in shard.split("/"))
    user = get_user_model().objects.get(username=args.user)
    threads = max(1, args.callers // count)
    call = ask if call_name == "ask" else retrieve
    run_callers(warm, user, threads, call)  # this process's model, connections and caches warm
    delay = float(start_at) - time.time()
    if delay < 0:
        raise SystemExit("the agreed start passed before this process was warm: raise the lead time")
    time.sleep(delay)
    mine = questions[index::count]
    latencies, _ = run_callers(mine, user, threads, call)
    print(json.dumps({"latencies": latencies, "end": time.time()}))


if __name__ == "__main__":
    main()
