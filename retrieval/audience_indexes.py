"""Partial HNSW indexes per audience: one graph over the chunks of each large audience.

An audience is the sorted set of group ids of a chunk's policy (column
retrieval_chunk.access_groups, kept by triggers, migration 0003; '{}' = open to everyone). An
asker who may read one group's policies reads one or two audiences: searched through the
global HNSW index, a 10 % reader at a million chunks gets recall@10 0.84 (the graph of the whole
million, not the scan budget, is what limits it); searched through a graph of just that
audience, the filter keeps almost every row the scan meets (retrieval/search.py, "Audience
lists").

An audience gets its index when it holds at least AUDIENCE_INDEX_MIN_CHUNKS searchable chunks
(by default the exact-sort threshold at the current size, ``minimum_chunks``) and at most
AUDIENCE_INDEX_MAX_FRACTION of all of them (an audience that large is served well
enough by the global index, and its graph would cost nearly as much again); an index is kept
until its audience falls below half the minimum or above the fraction (so that an audience
hovering around the minimum is not rebuilt back and forth), then dropped. Sizes come from
retrieval_audiencechunkcount (per version and audience, kept by triggers).

``audience_indexes_sync`` does the work (CREATE / DROP INDEX CONCURRENTLY outside a transaction:
readers and writers go on; inside one, as in tests, a plain CREATE / DROP), serialised by an
advisory lock; ``audience_indexes`` lists what exists, from pg_index (only valid, ready indexes
serve a search). Command: ``python manage.py index_audiences [--dry-run]``; Celery task
``retrieval.audience_indexes_sync`` (retrieval/tasks.py), queued when a version finishes indexing
(policypal/policies/pipeline.py ``audience_indexes_enqueue``, setting
AUDIENCE_INDEX_SYNC_AFTER_INDEXING).
"""
from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connection

from .exact_threshold import exact_max_rows
from .models import EMBEDDING_DIMENSIONS

INDEX_PREFIX = "chunk_hnsw_aud_"
AUDIENCE_INDEXES_TASK = "retrieval.audience_indexes_sync"  # retrieval/tasks.py
# The smallest indexed audience: setting AUDIENCE_INDEX_MIN_CHUNKS, or (unset, the default) the
# exact-sort threshold at the current size (``minimum_chunks``: 14,142 of a million chunks,
# 4,482 of 100,475 with 40 candidates): an audience under it is sorted exactly anyway.
# Measured with bench/hnsw_recall.py, a 10 % reader (one audience) served through its
# audience's index: recall@10 0.995 at a million chunks (101,443 in the audience; 0.838 through
# the global index) and 1.000 at 100,475 (10,620; 0.961 through the global index, vector list
# 10.7 ms median instead of 18-30).
AUDIENCE_INDEX_MAX_FRACTION = 0.5  # default of the setting
HNSW_WITH = "m = 16, ef_construction = 64"  # as the global chunk_embedding_hnsw
# The indexed expression: the vector as half precision (pgvector's halfvec), cosine. Not the
# global index's expression on purpose: a scan ordered by it can only be served by a partial
# audience index, never by chunk_embedding_hnsw (with the same expression the planner, costing
# the two, took the global one for hnsw.ef_search 400 at a million chunks: recall 0.84 again);
# and the graph is half the size (about 100 MB per 100,000 chunks). The lists are re-sorted by
# the full-precision distance (retrieval/search.py).
INDEXED_EXPRESSION = f"(embedding::halfvec({EMBEDDING_DIMENSIONS}))"
OPCLASS = "halfvec_cosine_ops"
_LOCK_KEY = 0x5050_4175  # pg advisory lock: one sync at a time
_PREDICATE = re.compile(r"access_groups\s*=\s*'\{([0-9,]*)\}'::integer\[\]")

Audience = tuple[int, ...]


def _setting(name: str, default):
    return type(default)(getattr(settings, name, default))


def audience_literal(audience: Audience) -> str:
    """The SQL literal of an audience ('{3,5}'::integer[]), from validated integers only: it is
    written into the SQL so that the planner can prove a partial index's predicate."""
    return "'{" + ",".join(str(int(g)) for g in sorted(audience)) + "}'::integer[]"


def parse_audience(text) -> Audience:
    """An audience from PostgreSQL: a list of ints, or an array literal '{3,5}'."""
    if isinstance(text, (list, tuple)):
        return tuple(sorted(int(g) for g in text))
    inner = str(text).strip().strip("{}")
    return tuple(sorted(int(g) for g in inner.split(",") if g.strip()))


def index_name(audience: Audience) -> str:
    """chunk_hnsw_aud_<group ids joined by _> ('open' for '{}'); a hash when that is too long."""
    if not audience:
        return INDEX_PREFIX + "open"
    name = INDEX_PREFIX + "_".join(str(int(g)) for g in sorted(audience))
    if len(name) <= 63:
        return name
    return INDEX_PREFIX + "h" + hashlib.sha1(",".join(map(str, audience)).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class AudienceIndex:
    name: str
    audience: Audience
    valid: bool  # indisvalid and indisready, of the expected expression: the planner may use it


def _rows(sql: str, cursor=None) -> list[tuple]:
    """The rows of a read-only statement, on the given cursor or a connection cursor of its own."""
    if cursor is not None:
        cursor.execute(sql)
        return cursor.fetchall()
    with connection.cursor() as own:
        own.execute(sql)
        return own.fetchall()


def audience_indexes(cursor=None) -> list[AudienceIndex]:
    """The partial audience indexes on retrieval_chunk (read from pg_index), valid or not."""
    sql = AUDIENCE_INDEXES_SQL
    rows = _rows(sql, cursor)
    out = []
    for name, predicate, valid in rows:
        audience = predicate_audience(predicate)
        if audience is not None:
            out.append(AudienceIndex(name, audience, bool(valid)))
    return out


def predicate_audience(predicate: str | None) -> Audience | None:
    """The audience of a partial index's predicate (pg_get_expr of indpred), None if it has none."""
    match = _PREDICATE.search(predicate or "")
    return parse_audience("{" + match.group(1) + "}") if match else None


# name, predicate and validity of every partial index named chunk_hnsw_aud_* on the chunk table
AUDIENCE_INDEXES_SQL = f"""
SELECT ic.relname AS name, pg_get_expr(i.indpred, i.indrelid) AS predicate,
       i.indisvalid AND i.indisready AND oc.opcname = '{OPCLASS}' AND i.indnatts = 1 AS valid
FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
LEFT JOIN pg_opclass oc ON oc.oid = i.indclass[0]
WHERE i.indrelid = 'retrieval_chunk'::regclass AND i.indpred IS NOT NULL
  AND ic.relname LIKE '{INDEX_PREFIX.replace("_", chr(92) + "_")}%'
ORDER BY ic.relname
"""


def audience_sizes(cursor=None) -> dict[Audience, int]:
    """Searchable chunks per audience (from retrieval_audiencechunkcount)."""
    sql = "SELECT access_groups, SUM(searchable) FROM retrieval_audiencechunkcount GROUP BY access_groups"
    rows = _rows(sql, cursor)
    return {parse_audience(g): int(n) for g, n in rows if int(n) > 0}


@dataclass
class SyncPlan:
    total: int
    sizes: dict[Audience, int]
    create: list[Audience] = field(default_factory=list)
    drop: list[AudienceIndex] = field(default_factory=list)
    keep: list[AudienceIndex] = field(default_factory=list)

    @property
    def changes(self) -> bool:
        return bool(self.create or self.drop)


def minimum_chunks(total: int) -> int:
    """The fewest searchable chunks an audience needs for its own index, of `total`."""
    fixed = getattr(settings, "AUDIENCE_INDEX_MIN_CHUNKS", None)
    if fixed is not None:
        return int(fixed)
    return exact_max_rows(n=int(getattr(settings, "SEARCH_CANDIDATES", 40)), indexed=total)


def sync_plan(cursor=None) -> SyncPlan:
    """Which audience indexes to create, drop (unwanted, or invalid: a failed concurrent build)
    and keep, by the thresholds."""
    max_fraction = _setting("AUDIENCE_INDEX_MAX_FRACTION", AUDIENCE_INDEX_MAX_FRACTION)
    sizes = audience_sizes(cursor)
    total = sum(sizes.values())
    minimum = minimum_chunks(total)
    existing = {ix.audience: ix for ix in audience_indexes(cursor)}
    plan = SyncPlan(total=total, sizes=sizes)
    for audience, size in sorted(sizes.items(), key=lambda item: (-item[1], item[0])):
        wanted = size >= minimum and size <= max_fraction * total
        have = existing.get(audience)
        if have is not None and have.valid and size >= minimum / 2 and size <= max_fraction * total:
            continue  # kept (below)
        if wanted and (have is None or not have.valid):
            plan.create.append(audience)
    for audience, ix in existing.items():
        size = sizes.get(audience, 0)
        if ix.valid and size >= minimum / 2 and size <= max_fraction * total:
            plan.keep.append(ix)
        else:
            plan.drop.append(ix)  # not wanted any more, or an invalid leftover (recreated if wanted)
    return plan


def audience_indexes_sync(*, dry_run: bool = False, log: Callable[[str], None] | None = None) -> SyncPlan:
    """Create the wanted audience indexes, drop the others; returns what it planned (and did,
    unless `dry_run`). Does nothing (two small reads) when nothing changed. Another sync holding
    the lock: returns an empty plan at once."""
    log = log or (lambda message: None)
    concurrently = "" if connection.in_atomic_block else " CONCURRENTLY"
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [_LOCK_KEY])
        if not cursor.fetchone()[0]:
            log("another audience index sync is running; nothing done")
            return SyncPlan(total=0, sizes={})
        try:
            plan = sync_plan(cursor)
            if dry_run or not plan.changes:
                return plan
            for ix in plan.drop:
                log(f"dropping {ix.name} (audience {list(ix.audience)}: "
                    f"{plan.sizes.get(ix.audience, 0):,} chunks{'' if ix.valid else ', not valid or of another form'})")
                cursor.execute(f"DROP INDEX{concurrently} IF EXISTS {connection.ops.quote_name(ix.name)}")
            for number, audience in enumerate(plan.create, start=1):
                name = index_name(audience)
                log(f"building {name} ({number}/{len(plan.create)}): audience {list(audience)}, "
                    f"{plan.sizes[audience]:,} searchable chunks")
                start = time.perf_counter()
                cursor.execute(
                    f"CREATE INDEX{concurrently} IF NOT EXISTS {connection.ops.quote_name(name)} ON retrieval_chunk "
                    f"USING hnsw ({INDEXED_EXPRESSION} {OPCLASS}) WITH ({HNSW_WITH}) "
                    f"WHERE searchable AND access_groups = {audience_literal(audience)}"
                )
                log(f"  built {name} in {time.perf_counter() - start:.1f} s")
            return plan
        finally:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [_LOCK_KEY])

