"""Scratch indexes for evaluation: the published documents re-chunked by another strategy.

A scratch index is a TEMPORARY table of this database session with the columns search needs
(version, searchable, embedding, generated tsvector; the same HNSW and GIN indexes as the live
table). Every other connection is blind to it, normal search never reads it, and PostgreSQL
drops it when the session ends even if the process dies. The chunks themselves are kept in
memory as unsaved ``Chunk`` instances, pointing at the real versions, so the same search SQL,
access filter and parent expansion run over them.

Strategies:
- ``default``: the live index, what questions are answered from (no scratch table);
- ``structure``: the structure-aware chunker with the current settings, re-run now;
- ``overlap``: the structure-aware chunker repeating one block from the previous chunk;
- ``fixed``: the fixed-size character baseline: windows as long, in characters, as the live
  index's searchable chunks of the same documents are on average (so the top k of both holds
  about as much text), with 20 % overlap, no headings, no structure.
"""
from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import connection

from chunking.serialize import document_from_dict

from .embedding import get_embedder, get_token_counter
from .models import EMBEDDING_DIMENSIONS, Chunk
from .search import vector_literal

LIVE = "default"
STRATEGIES = ("default", "structure", "overlap", "fixed")
FIXED_SIZE_CHARS = 800  # when there is no live chunk to measure: about CHUNK_TARGET_TOKENS word pieces
FIXED_OVERLAP_SHARE = 0.2
FIXED_MIN_CHARS = 200


def strategy_records(strategy: str, document, *, category: str = "", fixed_size: int = FIXED_SIZE_CHARS):
    """Chunk records of one converted document under a strategy."""
    from policypal.policies.ingestion import chunk_records_for

    if strategy == "structure":
        return chunk_records_for(document, category=category)
    if strategy == "overlap":
        return chunk_records_for(document, category=category, overlap_blocks=1)
    if strategy == "fixed":
        from chunking.baseline import chunk_fixed_size

        return chunk_fixed_size(
            document, counter=get_token_counter(), size=fixed_size, overlap=int(fixed_size * FIXED_OVERLAP_SHARE)
        )
    raise ValueError(f"unknown chunking strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")


@dataclass
class ScratchIndex:
    strategy: str
    table: str
    chunks: dict[int, Chunk] = field(default_factory=dict)
    embedded: int = 0  # vectors computed (the rest were reused from the live index)
    window_chars: int | None = None  # the fixed strategy's window length

    def drop(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TABLE IF EXISTS {self.table}")

    def __enter__(self) -> ScratchIndex:
        return self

    def __exit__(self, *exc) -> None:
        self.drop()


def _published_versions():
    from policypal.policies.models import PolicyVersion

    return list(
        PolicyVersion.objects.filter(published=True, status=PolicyVersion.Status.READY, retired_at__isnull=True)
        .select_related("policy")
        .prefetch_related("sources")
        .order_by("policy_id", "number")
    )


def live_mean_chunk_chars(versions) -> int:
    """Mean text length of the live searchable chunks of these versions (the default strategy)."""
    from django.db.models import Avg
    from django.db.models.functions import Length

    mean = Chunk.objects.filter(version__in=versions, searchable=True).aggregate(chars=Avg(Length("text")))["chars"]
    return max(FIXED_MIN_CHARS, int(round(mean))) if mean else FIXED_SIZE_CHARS


def scratch_index_build(*, strategy: str, on_progress: Callable[[str], None] | None = None) -> ScratchIndex:
    """Re-chunk every published version's documents with the strategy into a new scratch index."""
    if strategy not in STRATEGIES or strategy == LIVE:
        raise ValueError(f"a scratch index needs one of {', '.join(s for s in STRATEGIES if s != LIVE)}, not {strategy!r}")
    index = ScratchIndex(strategy=strategy, table=f"pp_scratch_{strategy}_{uuid.uuid4().hex[:8]}")
    versions = _published_versions()
    fixed_size = live_mean_chunk_chars(versions) if strategy == "fixed" else FIXED_SIZE_CHARS
    index.window_chars = fixed_size if strategy == "fixed" else None
    next_id = 1
    for version in versions:
        for source in version.sources.all():
            if source.tree is None:
                continue
            records = strategy_records(
                strategy, document_from_dict(source.tree), category=version.policy.category, fixed_size=fixed_size
            )
            ids = {record.id: next_id + i for i, record in enumerate(records)}
            for i, record in enumerate(records):
                chunk = Chunk(
                    id=next_id + i, version=version, policy=version.policy, source=source,
                    parent_id=ids.get(record.parent_id) if record.parent_id else None,
                    level=record.level, kind=record.kind, ordinal=i, breadcrumb=" > ".join(record.breadcrumb),
                    text=record.text, embed_text=record.embed_text, token_count=record.token_count,
                    pages=list(record.pages), block_ids=list(record.block_ids),
                    content_hash=hashlib.sha256(record.embed_text.encode("utf-8")).hexdigest(),
                    record_id=record.id, searchable=record.searchable,
                )
                index.chunks[chunk.pk] = chunk
            next_id += len(records)
    if on_progress:
        size = f" (windows of {index.window_chars} characters)" if index.window_chars else ""
        on_progress(f"{strategy}: {len(index.chunks)} chunks{size}")
    index.embedded = _embed(index)
    _create_table(index)
    return index


def scratch_index_of(chunks, *, name: str) -> ScratchIndex:
    """A scratch index over given (unsaved or loaded) chunks with the vectors they carry in
    memory, e.g. the live chunks re-embedded by another embedding backend. Nothing is saved."""
    if not re.match(r"^[a-z0-9_]{1,30}$", name):
        raise ValueError(f"scratch index name must be short lowercase letters, digits, _: {name!r}")
    index = ScratchIndex(strategy=name, table=f"pp_scratch_{name}_{uuid.uuid4().hex[:8]}")
    index.chunks = {chunk.pk: chunk for chunk in chunks}
    _create_table(index)
    return index


def _embed(index: ScratchIndex) -> int:
    searchable = [c for c in index.chunks.values() if c.searchable]
    known = dict(
        Chunk.objects.filter(content_hash__in={c.content_hash for c in searchable}, embedding__isnull=False)
        .values_list("content_hash", "embedding")
        .distinct("content_hash")
        .order_by("content_hash")
    )
    todo = [c for c in searchable if c.content_hash not in known]
    for chunk in searchable:
        if chunk.content_hash in known:
            chunk.embedding = known[chunk.content_hash]
    vectors = get_embedder().encode([c.embed_text for c in todo])
    for chunk, vector in zip(todo, vectors):
        chunk.embedding = vector
    return len(todo)


def _create_table(index: ScratchIndex) -> None:
    t = index.table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""CREATE TEMPORARY TABLE {t} (
                id bigint PRIMARY KEY,
                version_id bigint NOT NULL,
                searchable boolean NOT NULL,
                embed_text text NOT NULL,
                embedding vector({EMBEDDING_DIMENSIONS}),
                search_vector tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, COALESCE(embed_text, ''))) STORED
            )"""
        )
        cursor.executemany(
            f"INSERT INTO {t} (id, version_id, searchable, embed_text, embedding) VALUES (%s, %s, %s, %s, %s::vector)",
            [
                (c.pk, c.version_id, c.searchable, c.embed_text,
                 vector_literal(c.embedding) if c.embedding is not None else None)
                for c in index.chunks.values()
            ],
        )
        cursor.execute(f"CREATE INDEX ON {t} USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)")
        cursor.execute(f"CREATE INDEX ON {t} USING gin (search_vector)")
        cursor.execute(f"ANALYZE {t}")
