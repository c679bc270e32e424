"""Hybrid search: vector and full-text candidates, filtered inside SQL, fused by RRF.

One SQL round trip returns both candidate lists. Each list applies the same filter (the
versions the asker may see on the asked date: published, ready, not retired, in force, and
in the asker's access scope) in its own WHERE clause, before ranking, so a narrow filter
never leaves the top k empty or filled with chunks the asker may not see.

The filter is written as ``version_id = ANY(ARRAY(SELECT ...))``: an init plan evaluated
once, which the planner can apply as a filter on the HNSW index scan. (``version_id IN
(SELECT ...)`` becomes a semi-join, and then the HNSW index is never used.) With pgvector's
iterative index scans (``hnsw.iterative_scan = relaxed_order``) the index keeps scanning
until enough rows pass the filter; ``relaxed_order`` may return them slightly out of order,
so the list is re-sorted by distance here.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import connection, transaction

from .access import VERSIONS_IN_FORCE_SQL, access_params
from .embedding import get_embedder
from .models import Chunk
from .rrf import reciprocal_rank_fusion

if TYPE_CHECKING:  # pragma: no cover
    from .scratch import ScratchIndex

# Weights of the two candidate lists in the fusion. Questions are paraphrased more often than
# they repeat the policy's words, and an any-word full-text query ranks chunks full of a common
# word ("leave" in a leave policy) high, so the vector list counts double. Settings
# SEARCH_VECTOR_WEIGHT / SEARCH_TEXT_WEIGHT override these.
VECTOR_WEIGHT = 1.0
TEXT_WEIGHT = 0.5

_WORD = re.compile(r"[\w][\w.,'-]*[\w]|[\w]", re.UNICODE)
CHUNK_TABLE = Chunk._meta.db_table
_IDENTIFIER = re.compile(r"^[a-z_][a-z0-9_]*$")


@dataclass
class SearchHit:
    chunk: Chunk
    score: float
    similarity: float | None  # cosine similarity to the question, when a vector candidate
    vector_rank: int | None
    text_rank: int | None


def websearch_terms(question: str) -> str:
    """A websearch_to_tsquery string that matches any of the question's words (ranked by ts_rank_cd).

    Stop words are dropped by the 'english' configuration; "or", "and", "not" would be read as
    operators, so they are dropped here.
    """
    words = [w for w in _WORD.findall(question) if w.lower() not in ("or", "and", "not")]
    return " or ".join(words)


def vector_literal(vector) -> str:
    return "[" + ",".join(f"{float(x):.7f}" for x in vector) + "]"


def candidates_sql(table: str = CHUNK_TABLE) -> str:
    """The candidate query over a chunk table (the live one, or a scratch table in evaluation).

    Parameters: as_of, all, groups (the access filter), qvec (vector literal), terms
    (websearch_to_tsquery text), n (candidates per list). Rows: ('v', id, cosine distance)
    and ('t', id, ts_rank_cd).
    """
    if not _IDENTIFIER.match(table):
        raise ValueError(f"not a plain table name: {table!r}")
    return f"""
WITH allowed AS MATERIALIZED ({VERSIONS_IN_FORCE_SQL}),
vec AS MATERIALIZED (
    SELECT c.id, c.embedding <=> %(qvec)s::vector AS value
    FROM {table} c
    WHERE c.version_id = ANY(ARRAY(SELECT id FROM allowed)) AND c.searchable
    ORDER BY c.embedding <=> %(qvec)s::vector
    LIMIT %(n)s
),
fts AS MATERIALIZED (
    SELECT c.id, ts_rank_cd(c.search_vector, q.query) AS value
    FROM {table} c, websearch_to_tsquery('english', %(terms)s) AS q(query)
    WHERE c.search_vector @@ q.query
      AND c.version_id = ANY(ARRAY(SELECT id FROM allowed)) AND c.searchable
    ORDER BY value DESC, c.id
    LIMIT %(n)s
)
SELECT 'v' AS list, id, value FROM vec
UNION ALL
SELECT 't' AS list, id, value FROM fts
"""


_LIVE_SQL = candidates_sql()


def ef_search_for(n: int) -> int:
    """hnsw.ef_search: the HNSW candidate queue. At least the number of rows asked for (the
    index never returns more than ef_search rows per scan pass), and the tuned setting."""
    return max(int(settings.HNSW_EF_SEARCH), n)


# pgvector's iterative scan also stops when the tuples it has visited fill work_mem times
# hnsw.scan_mem_multiplier (default 1: 4 MB, about 2,500 visited 384-dimension vectors). Under a
# filter that keeps 10 % of the chunks, finding 40 allowed ones can take more than that, and the
# vector list then comes back short or empty; 8 allows about 20,000 (hnsw.max_scan_tuples).
SCAN_MEM_MULTIPLIER = 8
MAX_SCAN_TUPLES = 20_000


def set_search_options(cursor, *, n: int) -> None:
    """Session options for one search transaction (SET LOCAL: they end with it).

    Settings HNSW_EF_SEARCH, HNSW_SCAN_MEM_MULTIPLIER and HNSW_MAX_SCAN_TUPLES override them."""
    cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
    cursor.execute(f"SET LOCAL hnsw.ef_search = {ef_search_for(n):d}")
    multiplier = float(getattr(settings, "HNSW_SCAN_MEM_MULTIPLIER", SCAN_MEM_MULTIPLIER))
    cursor.execute(f"SET LOCAL hnsw.scan_mem_multiplier = {multiplier:g}")
    max_scan = int(getattr(settings, "HNSW_MAX_SCAN_TUPLES", MAX_SCAN_TUPLES))
    cursor.execute(f"SET LOCAL hnsw.max_scan_tuples = {max_scan:d}")


def candidate_rows(*, params: dict, qvec: str, terms: str, n: int, table: str = CHUNK_TABLE) -> list[tuple[str, int, float]]:
    sql = _LIVE_SQL if table == CHUNK_TABLE else candidates_sql(table)
    with transaction.atomic(), connection.cursor() as cursor:
        set_search_options(cursor, n=n)
        cursor.execute(sql, {**params, "qvec": qvec, "terms": terms, "n": n})
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
    query_vector=None, index: ScratchIndex | None = None,
) -> list[SearchHit]:
    """The k best searchable chunks for the question that the user may see on the date.

    index: a scratch index built by evaluation (another chunking strategy); default the live
    chunk table.
    """
    n = max(candidates or settings.SEARCH_CANDIDATES, k)
    vector = query_vector if query_vector is not None else get_embedder().encode_one(question)
    rows = candidate_rows(
        params=access_params(user, as_of), qvec=vector_literal(vector), terms=websearch_terms(question), n=n,
        table=index.table if index is not None else CHUNK_TABLE,
    )
    fused, similarity, vrank, trank = fuse_candidates(rows)
    fused = fused[:k]
    ids = [cid for cid, _ in fused]
    if index is not None:
        chunks = {cid: index.chunks[cid] for cid in ids if cid in index.chunks}
    else:
        chunks = Chunk.objects.select_related("version__policy", "source", "parent").in_bulk(ids)
    return [
        SearchHit(chunk=chunks[cid], score=score, similarity=similarity.get(cid), vector_rank=vrank.get(cid), text_rank=trank.get(cid))
        for cid, score in fused
        if cid in chunks
    ]
