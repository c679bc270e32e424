"""HNSW recall@10 against exact search under a permission filter that keeps 10 % of the chunks.

    python bench/hnsw_recall.py [--chunks 100000] [--queries 200] [--ef 40,100,200] [--crossover]

On the synthetic index of bench/scale_corpus.py (built if missing), as user ``scale-one``
(member of 1 of the 10 access groups: about 10 % of the chunks). For each question vector:
- the served vector list: the candidate query of retrieval/search.py as it runs (``search_plan``
  picks the plan by the number of allowed chunks: exact at most sqrt(SEARCH_EXACT_RATIO * n *
  searchable chunks); else one list per audience through the partial audience indexes when the
  asker's audiences all have one or are small (retrieval/audience_indexes.py; scale_corpus.py
  builds them); else the HNSW iterative scan of the global index with its visit budget scaled
  to the filter; the indexes the planner uses are printed), whose 10 nearest are compared with
- the exact 10 nearest under the same filter (index scans switched off: a sort over every
  allowed chunk's distance).
recall@10 = |served top 10 and exact top 10| / 10, averaged. The HNSW index scan is also forced
and measured on its own (with the served, scaled budget) for each ef_search in --ef, with its
median latency, whichever plan is served (the global index: what a 10 % reader got before the
audience indexes). Target: recall@10 >= 0.95.

--crossover: the time of the exact vector list and of the HNSW one (n = 40, served options)
under filters of growing width (random sets of versions holding about 2,500 to 160,000
chunks): where the exact sort becomes slower than the index scan gives the measured default of
SEARCH_EXACT_RATIO (allowed^2 / (40 * searchable chunks) at the crossing).
"""
from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.benchdb import database_name, heading, machine_line, row  # noqa: E402

AS_OF = dt.date(2026, 6, 1)
VEC_ONLY = """
SELECT c.id, c.embedding <=> %(qvec)s::vector AS distance FROM retrieval_chunk c
WHERE c.version_id = ANY(%(versions)s::bigint[]) AND c.searchable
ORDER BY c.embedding <=> %(qvec)s::vector
LIMIT %(n)s
"""
# the exact vector list as the served query writes it (retrieval/search.py, exact=True)
VEC_EXACT = """
SELECT allowed.id, allowed.distance FROM (
    SELECT c.id, c.embedding <=> %(qvec)s::vector AS distance FROM retrieval_chunk c
    WHERE c.version_id = ANY(%(versions)s::bigint[]) AND c.searchable AND c.embedding IS NOT NULL
    OFFSET 0
) allowed
ORDER BY allowed.distance, allowed.id
LIMIT %(n)s
"""


def crossover(vectors: list[str], *, repeats: int = 12) -> None:
    """Median ms of the exact and the HNSW vector list (n = 40) under filters of growing width."""
    import random

    from django.db import connection, transaction

    from retrieval.search import set_search_options

    with connection.cursor() as cursor:
        cursor.execute("SELECT version_id, searchable FROM retrieval_versionchunkcount WHERE searchable > 0")
        sizes = dict(cursor.fetchall())
        cursor.execute("SELECT COALESCE(SUM(searchable), 1) FROM retrieval_versionchunkcount")
        indexed = max(1, int(cursor.fetchone()[0]))
    order = list(sizes)
    random.Random(5).shuffle(order)
    heading("crossover: exact vs HNSW vector list (n = 40), random sets of versions")
    for want in (2_500, 5_000, 10_000, 20_000, 40_000, 80_000, 160_000):
        versions, total = [], 0
        for v in order:
            if total >= want:
                break
            versions.append(v)
            total += sizes[v]
        if total < want:
            break
        times = {"exact": [], "hnsw": []}
        for qvec in vectors[:repeats]:
            for kind, sql in (("exact", VEC_EXACT), ("hnsw", VEC_ONLY)):
                with transaction.atomic(), connection.cursor() as cursor:
                    set_search_options(cursor, n=40, fraction=total / indexed)
                    if kind == "hnsw":
                        for knob in ("enable_seqscan", "enable_bitmapscan", "enable_sort"):
                            cursor.execute(f"SET LOCAL {knob} = off")
                    start = time.perf_counter()
                    cursor.execute(sql, {"versions": versions, "qvec": qvec, "n": 40})
                    cursor.fetchall()
                    times[kind].append(time.perf_counter() - start)
        exact_ms, hnsw_ms = (statistics.median(times[k]) * 1000 for k in ("exact", "hnsw"))
        row(f"{total:,} allowed chunks ({total / indexed:.1%}), {len(versions)} versions",
            f"exact {exact_ms:.1f} ms", f"HNSW {hnsw_ms:.1f} ms -> {'exact' if exact_ms <= hnsw_ms else 'HNSW'} faster")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--ef", default="40,100,200")
    parser.add_argument("--crossover", action="store_true", help="time exact vs HNSW under filters of growing width")
    args = parser.parse_args()
    from bench import scale_corpus

    url = scale_corpus.setup(args.chunks)
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    from retrieval.access import VERSIONS_IN_FORCE_SQL, access_params
    from retrieval.embedding import get_embedder
    from retrieval.models import Chunk
    from retrieval.search import (
        candidate_rows,
        exact_max_rows,
        plan_sql,
        query_params,
        search_plan,
        set_search_options,
        vector_literal,
    )

    built = scale_corpus.build(args.chunks)
    user = get_user_model().objects.get(username="scale-one")
    params = access_params(user, AS_OF)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM retrieval_chunk WHERE searchable AND version_id IN ({VERSIONS_IN_FORCE_SQL})", params)
        allowed = cursor.fetchone()[0]
    total = Chunk.objects.filter(searchable=True).count()
    print(f"HNSW recall@10 under a permission filter, database {database_name(url)}")
    print(machine_line())
    print(f"searchable chunks {total:,}; user scale-one may read {allowed:,} ({allowed / total:.1%})")
    questions = scale_corpus.questions(args.queries, seed=29)
    vectors = [vector_literal(v) for v in get_embedder().encode(questions)]
    sql = VEC_ONLY
    with transaction.atomic(), connection.cursor() as cursor:
        served_plan = search_plan(cursor, params=params, n=settings.SEARCH_CANDIDATES)
    versions = served_plan.versions
    if args.crossover:
        crossover(vectors)

    def exact(qvec: str) -> list[int]:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_indexscan = off")
            cursor.execute(sql, {"versions": versions, "qvec": qvec, "n": 10})
            return [r[0] for r in cursor.fetchall()]

    def forced_hnsw(qvec: str, ef: int) -> tuple[list[int], float]:
        with transaction.atomic(), connection.cursor() as cursor:
            set_search_options(cursor, n=40, fraction=served_plan.fraction)
            cursor.execute(f"SET LOCAL hnsw.ef_search = {ef:d}")
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("SET LOCAL enable_bitmapscan = off")
            cursor.execute("SET LOCAL enable_sort = off")
            start = time.perf_counter()
            cursor.execute(sql, {"versions": versions, "qvec": qvec, "n": 40})
            rows = sorted(cursor.fetchall(), key=lambda r: r[1])  # relaxed_order: re-sort, as search does
            return [r[0] for r in rows[:10]], time.perf_counter() - start

    def plan(forced: bool) -> str:
        with transaction.atomic(), connection.cursor() as cursor:
            set_search_options(cursor, n=40, fraction=served_plan.fraction)
            if forced:
                for knob in ("enable_seqscan", "enable_bitmapscan", "enable_sort"):
                    cursor.execute(f"SET LOCAL {knob} = off")
            cursor.execute("EXPLAIN " + sql, {"versions": versions, "qvec": vectors[0], "n": 40})
            text = "\n".join(r[0] for r in cursor.fetchall())
        return "HNSW index scan" if "chunk_embedding_hnsw" in text else "exact (allowed rows sorted by distance)"

    def served_explain() -> str:
        """The indexes the planner uses for the served candidate query's vector list."""
        import re

        with transaction.atomic(), connection.cursor() as cursor:
            chosen = search_plan(cursor, params=params, n=settings.SEARCH_CANDIDATES)
            cursor.execute("EXPLAIN " + plan_sql(chosen), query_params(
                versions=chosen.versions, qvec=vectors[0], terms="", n=settings.SEARCH_CANDIDATES))
            text = "\n".join(r[0] for r in cursor.fetchall())
        vec = text.split("CTE vec", 1)[-1].split("CTE fts", 1)[0]
        used = sorted(set(re.findall(r"Index Scan using (\S+)", vec)))
        return ", ".join(used) or "no index (sorted exactly)"

    truth = [exact(v) for v in vectors]
    heading(f"{built['searchable']:,} synthetic chunks, {len(vectors)} questions")
    if served_plan.exact:
        row("served plan (search_plan)", "exact", f"{served_plan.allowed:,} allowed ({served_plan.fraction:.1%}), "
            f"at most {exact_max_rows(n=settings.SEARCH_CANDIDATES, indexed=served_plan.indexed):,} are sorted exactly")
    elif served_plan.audiences:
        from retrieval.audience_indexes import index_name

        row("served plan (search_plan)", "one list per audience",
            f"{served_plan.allowed:,} allowed ({served_plan.fraction:.1%}; exact at most "
            f"{exact_max_rows(n=settings.SEARCH_CANDIDATES, indexed=served_plan.indexed):,}); "
            + ", ".join(f"{k} {v}" for k, v in served_plan.options.items() if k != "hnsw.iterative_scan"))
        for a in served_plan.audiences:
            row(f"  audience {list(a.audience) or 'open'}",
                f"{a.allowed:,} of {a.size:,}", index_name(a.audience) if a.indexed else "sorted exactly")
        row("indexes the planner uses for the vector list", served_explain())
    else:
        row("served plan (search_plan)", "HNSW iterative scan",
            f"{served_plan.allowed:,} allowed ({served_plan.fraction:.1%}; exact at most "
            f"{exact_max_rows(n=settings.SEARCH_CANDIDATES, indexed=served_plan.indexed):,}); "
            + ", ".join(f"{k} {v}" for k, v in served_plan.options.items() if k != "hnsw.iterative_scan"))
        row("plan the planner picks for it", plan(False))
        row("indexes the planner uses for the vector list", served_explain())
    served = []
    served_ms = []
    for qvec, true in zip(vectors, truth):
        start = time.perf_counter()
        rows = candidate_rows(params=params, qvec=qvec, terms="", n=settings.SEARCH_CANDIDATES)
        served_ms.append(time.perf_counter() - start)
        top = [cid for lst, cid, value in sorted((r for r in rows if r[0] == "v"), key=lambda r: r[2])][:10]
        served.append(len(set(top) & set(true)) / 10)
    row("served vector list: recall@10", f"{statistics.mean(served):.3f}",
        f"target >= 0.95 {'MET' if statistics.mean(served) >= 0.95 else 'NOT MET'}")
    row("served vector list: median time", f"{statistics.median(served_ms) * 1000:.1f} ms",
        f"p95 {sorted(served_ms)[int(0.95 * (len(served_ms) - 1))] * 1000:.1f} ms (candidate query, one caller)")
    row("forced plan (global index, for comparison)", plan(True))
    for ef in [int(x) for x in args.ef.split(",")]:
        recalls, times, short = [], [], 0
        for qvec, true in zip(vectors, truth):
            top, seconds = forced_hnsw(qvec, ef)
            recalls.append(len(set(top) & set(true)) / 10)
            times.append(seconds)
            short += len(top) < 10
        row(f"HNSW forced, ef_search={ef}: recall@10", f"{statistics.mean(recalls):.3f}",
            f"median {statistics.median(times) * 1000:.1f} ms, min recall {min(recalls):.1f}, short results {short}")


if __name__ == "__main__":
    main()
