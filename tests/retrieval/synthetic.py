"""Synthetic chunk rows for tests that need a table big enough for the planner to use its indexes."""
from __future__ import annotations

from django.db import connection

_INSERT = """
INSERT INTO retrieval_chunk (version_id, policy_id, level, kind, ordinal, breadcrumb, text, embed_text, token_count,
  pages, block_ids, content_hash, record_id, searchable, warnings, embedding)
SELECT %(version)s, %(policy)s, 'block', 'text', 100000 + g, 'Synthetic filler', 'synthetic filler ' || g,
  'synthetic filler number ' || g || ' about ' || (ARRAY['pencils','staplers','folders','lamps','chairs'])[1 + g %% 5],
  10, '{}', '{}', md5(g::text), md5(g::text), true, '{}', {vector}
FROM generate_series(1, %(n)s) AS g
"""
RANDOM_VECTOR = "(SELECT array_agg(random() - 0.5) FROM generate_series(1, 384) WHERE g > 0)::vector"


def insert_synthetic_chunks(version, n: int, *, near: str | None = None, copies: bool = False) -> None:
    """Insert n searchable chunks into `version` (inside the test's transaction).

    near: a vector literal; the rows are then perturbations of it (cosine ~0.96 to a query with
    that vector), all in one cluster.
    copies: the rows are noisy copies (cosine ~0.99) of the other versions' chunk vectors, about
    n / (their count) around each, so they crowd every neighbourhood of the real chunks, and
    whatever a question's nearest real chunks are, most of its nearest rows are these. (A single
    tight cluster of thousands of rows can make an HNSW graph whose links never leave it, so
    that no scan reaches the rows outside: that tests pgvector's graph, not a filter.)
    The HNSW index is rebuilt after the insert (much faster than n single inserts), so plans see
    a freshly built index, as after a bulk ingest.
    """
    vector = RANDOM_VECTOR
    params = {"version": version.pk, "policy": version.policy_id, "n": n}
    if near is not None:
        vector = ("(SELECT array_agg(x + (random() - 0.5) * 0.05) "
                  "FROM unnest(%(near)s::vector::real[]) AS x WHERE g > 0)::vector")
        params["near"] = near
    elif copies:
        vector = ("(SELECT array_agg(x + (random() - 0.5) * 0.02) FROM unnest(("
                  "SELECT embedding FROM retrieval_chunk WHERE searchable AND embedding IS NOT NULL "
                  "AND version_id <> %(version)s ORDER BY id OFFSET (g %% %(originals)s) LIMIT 1)::real[]) AS x)::vector")
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM retrieval_chunk WHERE searchable AND embedding IS NOT NULL "
                           "AND version_id <> %s", [version.pk])
            params["originals"] = max(1, cursor.fetchone()[0])
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("DROP INDEX chunk_embedding_hnsw")
        cursor.execute(_INSERT.replace("{vector}", vector), params)
        cursor.execute(
            "CREATE INDEX chunk_embedding_hnsw ON retrieval_chunk USING hnsw (embedding vector_cosine_ops) "
            "WITH (m = 16, ef_construction = 64)"
        )
        cursor.execute("ANALYZE retrieval_chunk")
