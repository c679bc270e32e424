"""Hybrid search: vector and full-text candidates, filtered inside SQL, fused by RRF.

Each candidate list applies the same filter (the versions the asker may see on the asked date:
published, ready, not retired, in force, in the asker's access scope) in its own WHERE
clause, before ranking, so a narrow filter never leaves the top k empty or filled with chunks
the asker may not see.

Two statements in one transaction: the first sets the HNSW search options (set_config(...,
true) is SET LOCAL) and returns the ids of the versions the asker may see; the second returns
both candidate lists, filtered by ``version_id = ANY(<those ids>)``. The ids are passed as
values, not as a subquery, on purpose: only with the values in hand does the planner know how
many chunks pass the filter, and so choose the HNSW index scan when many do and an exact
scan of the few allowed rows when few do. With a subquery it guesses a few thousand rows
and, on 100,000 chunks all visible, sorts every one of them by distance (about a second)
instead of using the index. With pgvector's iterative index scans
(``hnsw.iterative_scan = relaxed_order``) the index keeps scanning until enough rows pass
the filter; ``relaxed_order`` may return them slightly out of order, so the list is
re-sorted by distance here.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from django.db import connection, transaction

from .access import VERSIONS_IN_FORCE_SQL, access_params
from .embedding import get_embedder
from .models import Chunk
from .rrf import reciprocal_rank_fusion
from .sources import LIVE_CHUNKS, ChunkSource

# Weights of the two candidate lists in the fusion. Questions are paraphrased more often than
# they repeat the policy's words, and an any-word full-text query ranks chunks full of a common
# word ("leave" in a leave policy) high, so the vector list counts double. Settings
# SEARCH_VECTOR_WEIGHT / SEARCH_TEXT_WEIGHT override these.
VECTOR_WEIGHT = 1.0
TEXT_WEIGHT = 0.5

_WORD = re.compile(r"[\w][\w.,'-]*[\w]|[\w]", re.UNICODE)
_IDENTIFIER = re.compile(r"^[a-z_][a-z0-9_]*$")


@dataclass
class SearchHit:
    chunk: Chunk
    score: float
    similarity: float | None  # cosine similarity to the question, when a vector candidate
    vector_rank: int | None
    text_rank: int | None


def question_words(question: str) -> list[str]:
    """The question's words for the full-text query ("or", "and", "not" would be read as operators)."""
    return [w for w in _WORD.findall(question) if w.lower() not in ("or", "and", "not")]


def websearch_terms(question: str) -> str:
    """A websearch_to_tsquery string that matches any of the question's words (ranked by ts_rank_cd).

    Stop words are dropped by the 'english' configuration."""
    return " or ".join(question_words(question))


def vector_literal(vector) -> str:
    return "[" + ",".join(f"{float(x):.7f}" for x in vector) + "]"


# The full-text list ranks every allowed chunk that matches one of the question's words, and
# ts_rank_cd costs 10-30 microseconds a row: a question with a common word ("employee",
# "approval") would rank a good part of a large index. So the words are taken rarest first
# while the chunks they are expected to match (pg_stats' lexeme frequencies of the tsvector
# column, times the table's rows) stay within this bound; commoner words are left to the
# vector list (a crude inverse document frequency: they say little about which chunk is
# meant). On an index of fewer rows than the bound, or before the table was first
# analysed, every word is kept. Setting SEARCH_TEXT_MAX_MATCHES overrides it.
TEXT_MAX_MATCHES = 1000


@lru_cache(maxsize=8)
def candidates_sql(table: str = LIVE_CHUNKS.table) -> str:
    """The candidate query over a chunk table (a ChunkSource's: the live one, or an evaluation's).

    Parameters: versions (ids of the versions the asker may see, see ``prepare_search``), qvec
    (vector literal), words (the question's words), max_matches, n (candidates per list).
    Rows: ('v', id, cosine distance) and ('t', id, ts_rank_cd).
    """
    if not _IDENTIFIER.match(table):
        raise ValueError(f"not a plain table name: {table!r}")
    return f"""
WITH stats AS MATERIALIZED (
    SELECT GREATEST(cl.reltuples, 0)::float8 AS n,
           s.most_common_elems::text::text[] AS elems,
           s.most_common_elem_freqs AS freqs
    FROM pg_class cl
    LEFT JOIN pg_stats s ON s.schemaname = cl.relnamespace::regnamespace::text
                        AND s.tablename = cl.relname AND s.attname = 'search_vector'
    WHERE cl.oid = '{table}'::regclass
),
words AS MATERIALIZED (
    SELECT w.word, w.ord,
           SUM(st.n * COALESCE(st.freqs[array_position(st.elems, l.lexeme)],
                               st.freqs[array_length(st.elems, 1) + 1], 0)) AS matches
    FROM unnest(%(words)s::text[]) WITH ORDINALITY AS w(word, ord)
    CROSS JOIN stats st
    CROSS JOIN LATERAL unnest(to_tsvector('english', w.word)) AS l
    GROUP BY w.word, w.ord
),
query AS MATERIALIZED (
    SELECT websearch_to_tsquery('english', string_agg(word, ' or ' ORDER BY ord)) AS query
    FROM (SELECT word, ord, SUM(matches) OVER (ORDER BY matches, ord ROWS UNBOUNDED PRECEDING) AS running
          FROM words) chosen
    WHERE running <= %(max_matches)s
),
vec AS MATERIALIZED (
    SELECT c.id, c.embedding <=> %(qvec)s::vector AS value
    FROM {table} c
    WHERE c.version_id = ANY(%(versions)s::bigint[]) AND c.searchable
    ORDER BY c.embedding <=> %(qvec)s::vector
    LIMIT %(n)s
),
fts AS MATERIALIZED (
    SELECT c.id, ts_rank_cd(c.search_vector, q.query) AS value
    FROM {table} c, query q
    WHERE c.search_vector @@ q.query
      -- "+ 0": filter the few GIN matches row by row; ANDing the GIN bitmap with a bitmap of
      -- every allowed chunk from the version index costs ~10 ms at 100,000 chunks
      AND c.version_id + 0 = ANY(%(versions)s::bigint[]) AND c.searchable
    ORDER BY value DESC, c.id
    LIMIT %(n)s
)
SELECT 'v' AS list, id, value FROM vec
UNION ALL
SELECT 't' AS list, id, value FROM fts
"""


def ef_search_for(n: int) -> int:
    """hnsw.ef_search: the size of the HNSW candidate queue of each scan pass; never below the
    rows asked for. The setting's default (200) is tuned with bench/hnsw_recall.py: recall@10
    0.957 against exact search under a 10 % permission filter at 100,000 chunks (0.949 at 100,
    0.984 at 800 for about 5 ms more)."""
    return max(int(settings.HNSW_EF_SEARCH), n)


# pgvector's iterative scan also stops when the tuples it has visited fill work_mem times
# hnsw.scan_mem_multiplier (default 1: 4 MB, about 2,500 visited 384-dimension vectors). Under a
# filter that keeps 10 % of the chunks, finding 40 allowed ones can take more than that, and the
# vector list then comes back short or empty; 8 allows about 20,000 (hnsw.max_scan_tuples).
SCAN_MEM_MULTIPLIER = 8
MAX_SCAN_TUPLES = 20_000


def _search_options(n: int) -> dict[str, str]:
    return {
        "hnsw.iterative_scan": "relaxed_order",
        "hnsw.ef_search": str(ef_search_for(n)),
        "hnsw.scan_mem_multiplier": f"{float(getattr(settings, 'HNSW_SCAN_MEM_MULTIPLIER', SCAN_MEM_MULTIPLIER)):g}",
        "hnsw.max_scan_tuples": str(int(getattr(settings, "HNSW_MAX_SCAN_TUPLES", MAX_SCAN_TUPLES))),
    }


_PREPARE_SQL = (
    "SELECT " + ", ".join(f"set_config('{name}', %({name.replace('.', '_')})s, true)" for name in _search_options(1))
    + f", ARRAY(SELECT allowed.id FROM ({VERSIONS_IN_FORCE_SQL}) allowed ORDER BY allowed.id)"
)


def prepare_search(cursor, *, params: dict, n: int) -> list[int]:
    """In the current transaction: set the HNSW options (SET LOCAL) and return the ids of the
    versions the asker may see on the date (params: as_of, all, groups; see retrieval/access.py).

    Settings HNSW_EF_SEARCH, HNSW_SCAN_MEM_MULTIPLIER and HNSW_MAX_SCAN_TUPLES override the options."""
    options = {name.replace(".", "_"): value for name, value in _search_options(n).items()}
    cursor.execute(_PREPARE_SQL, {**params, **options})
    return list(cursor.fetchone()[-1])


def set_search_options(cursor, *, n: int) -> None:
    """SET LOCAL the HNSW options only (for EXPLAIN and benchmarks)."""
    for name, value in _search_options(n).items():
        cursor.execute("SELECT set_config(%s, %s, true)", [name, value])


def query_params(*, versions: list[int], qvec: str, terms: str, n: int) -> dict:
    """The parameters of the candidate query; `terms` is the question (or its words)."""
    max_matches = int(getattr(settings, "SEARCH_TEXT_MAX_MATCHES", TEXT_MAX_MATCHES))
    return {"versions": versions, "qvec": qvec, "words": question_words(terms), "max_matches": max_matches, "n": n}


def candidate_rows(
    *, params: dict, qvec: str, terms: str, n: int, chunk_source: ChunkSource = LIVE_CHUNKS,
) -> list[tuple[str, int, float]]:
    """Both candidate lists for a question, for the asker and date in `params` (access_params)."""
    sql = candidates_sql(chunk_source.table)
    with transaction.atomic(), connection.cursor() as cursor:
        versions = prepare_search(cursor, params=params, n=n)
        if not versions:
            return []
        cursor.execute(sql, query_params(versions=versions, qvec=qvec, terms=terms, n=n))
        return cursor.fetchall()


def fuse_candidates(rows: list[tuple[str, int, float]]) -> tuple[list[tuple[int, float]], dict, dict, dict]:
    """RRF over the two lists; returns (fused (id, score) best first, similarity, vector rank, text rank)."""
    vec_rows = sorted(((cid, value) for lst, cid, value in rows if lst == "v"), key=lambda r: (r[1], r[0]))
    text_rows = sorted(((cid, value) for lst, cid, value in rows if lst == "t"), key=lambda r: (-r[1], r[0]))
    vector_ranked = [cid for cid, _ in vec_rows]
    text_ranked = [cid for cid, _ in text_rows]
    weights = (getattr(settings, "SEARCH_VECTOR_WEIGHT", VECTOR_WEIGHT), getattr(settings, "SEARCH_TEXT_WEIGHT", TEXT_WEIGHT))
    fused = reciprocal_rank_fusion(vector_ranked, text_ranked, weights=weights)
    similarity = {cid: 1.0 - float(distance) for cid, distance in vec_rows}
    vrank = {cid: i for i, cid in enumerate(vector_ranked, start=1)}
    trank = {cid: i for i, cid in enumerate(text_ranked, start=1)}
    return fused, similarity, vrank, trank


def chunk_search_hybrid(
    *, question: str, user, as_of: dt.date | None = None, k: int = 5, candidates: int | None = None,
    query_vector=None, chunk_source: ChunkSource = LIVE_CHUNKS,
) -> list[SearchHit]:
    """The k best searchable chunks of the source (default: the live table) for the question
    that the user may see on the date."""
    n = max(candidates or settings.SEARCH_CANDIDATES, k)
    vector = query_vector if query_vector is not None else get_embedder().encode_one(question)
    rows = candidate_rows(
        params=access_params(user, as_of), qvec=vector_literal(vector), terms=question, n=n, chunk_source=chunk_source
    )
    fused, similarity, vrank, trank = fuse_candidates(rows)
    fused = fused[:k]
    chunks = (
        chunk_source.rows_with_sources()
        .select_related("parent")
        .defer("parent__embedding", "parent__search_vector")
        .in_bulk([cid for cid, _ in fused])
    )
    return [
        SearchHit(chunk=chunks[cid], score=score, similarity=similarity.get(cid), vector_rank=vrank.get(cid), text_rank=trank.get(cid))
        for cid, score in fused
        if cid in chunks
    ]
