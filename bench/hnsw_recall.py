"""HNSW recall@10 against exact search under a permission filter that keeps 10 % of the chunks.

    python bench/hnsw_recall.py [--chunks 100000] [--queries 200] [--ef 40,100,200]

On the synthetic index of bench/scale_corpus.py (built if missing), as user ``scale-one``
(member of 1 of the 10 access groups: about 10 % of the chunks). For each question vector:
- the served vector list: the candidate query of retrieval/search.py as it runs (same filter
  inside the SQL, iterative index scan, the tuned hnsw.ef_search and memory settings), whose
  10 nearest are compared with
- the exact 10 nearest under the same filter (index scans switched off: a sort over every
  allowed chunk's distance).
recall@10 = |served top 10 and exact top 10| / 10, averaged. The plan the planner chose for
the filtered query is printed: at 10 % it may prefer an exact scan of the allowed rows (then
recall is 1 by construction), so the HNSW index scan is also forced and measured on its own,
for each ef_search in --ef, with its median latency. Target: recall@10 >= 0.95.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--ef", default="40,100,200")
    args = parser.parse_args()
    from bench import scale_corpus

    url = scale_corpus.setup(args.chunks)
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    from retrieval.access import VERSIONS_IN_FORCE_SQL, access_params
    from retrieval.embedding import get_embedder
    from retrieval.models import Chunk
    from retrieval.search import candidate_rows, prepare_search, set_search_options, vector_literal

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
        versions = prepare_search(cursor, params=params, n=40)

    def exact(qvec: str) -> list[int]:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_indexscan = off")
            cursor.execute(sql, {"versions": versions, "qvec": qvec, "n": 10})
            return [r[0] for r in cursor.fetchall()]

    def forced_hnsw(qvec: str, ef: int) -> tuple[list[int], float]:
        with transaction.atomic(), connection.cursor() as cursor:
            set_search_options(cursor, n=40)
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
            set_search_options(cursor, n=40)
            if forced:
                for knob in ("enable_seqscan", "enable_bitmapscan", "enable_sort"):
                    cursor.execute(f"SET LOCAL {knob} = off")
            cursor.execute("EXPLAIN " + sql, {"versions": versions, "qvec": vectors[0], "n": 40})
            text = "\n".join(r[0] for r in cursor.fetchall())
        return "HNSW index scan" if "chunk_embedding_hnsw" in text else "exact (allowed rows sorted by distance)"

    truth = [exact(v) for v in vectors]
    heading(f"{built['searchable']:,} synthetic chunks, {len(vectors)} questions")
    row("plan the planner picks for the served query", plan(False))
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
    row("served vector list: median time", f"{statistics.median(served_ms) * 1000:.1f} ms")
    row("forced plan", plan(True))
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
