"""Writes on the chunk index: replace a version's chunks, embed them."""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable

from django.db import transaction

from .embedding import get_embedder
from .models import Chunk


def _content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@transaction.atomic
def chunks_replace(*, version, records_by_source: Iterable[tuple[object, list]]) -> int:
    """Replace every chunk of `version` with the given chunk records, in one transaction."""
    Chunk.objects.filter(version=version).delete()
    rows: list[Chunk] = []
    parents: list[str | None] = []
    ordinal = 0
    for source, records in records_by_source:
        for record in records:
            rows.append(
                Chunk(
                    version=version,
                    policy_id=version.policy_id,
                    source=source,
                    level=record.level,
                    kind=record.kind,
                    ordinal=ordinal,
                    breadcrumb=" > ".join(record.breadcrumb),
                    text=record.text,
                    embed_text=record.embed_text,
                    token_count=record.token_count,
                    pages=list(record.pages),
                    block_ids=list(record.block_ids),
                    content_hash=_content_hash(record.embed_text),
                    record_id=record.id,
                    searchable=record.searchable,
                    warnings=[w[:300] for w in record.warnings],
                )
            )
            parents.append(record.parent_id)
            ordinal += 1
    created = Chunk.objects.bulk_create(rows, batch_size=500)
    by_record = {(c.source_id, c.record_id): c for c in created}
    linked = []
    for chunk, parent_record in zip(created, parents):
        parent = by_record.get((chunk.source_id, parent_record)) if parent_record else None
        if parent is not None:
            chunk.parent = parent
            linked.append(chunk)
    Chunk.objects.bulk_update(linked, ["parent"], batch_size=500)
    return len(created)


def chunks_embed(*, version, on_progress: Callable[[int, int], None] | None = None, batch_size: int = 64) -> int:
    """Embed the version's searchable chunks that have no vector yet.

    Vectors already computed for the same embedded text (an unchanged section of an earlier
    version, or a retry) are reused instead of recomputed. Returns how many were encoded.
    """
    pending = list(
        Chunk.objects.filter(version=version, searchable=True, embedding__isnull=True).only("id", "embed_text", "content_hash")
    )
    total = len(pending)
    if not total:
        return 0
    known = dict(
        Chunk.objects.filter(content_hash__in={c.content_hash for c in pending}, embedding__isnull=False)
        .values_list("content_hash", "embedding")
        .distinct("content_hash")
        .order_by("content_hash")
    )
    reused = [c for c in pending if c.content_hash in known]
    for chunk in reused:
        chunk.embedding = known[chunk.content_hash]
    Chunk.objects.bulk_update(reused, ["embedding"], batch_size=500)
    # Longest first, so each batch holds texts of similar length (little padding), as
    # sentence-transformers orders one big encode call.
    todo = sorted((c for c in pending if c.content_hash not in known), key=lambda c: -len(c.embed_text))
    done = len(reused)
    if on_progress:
        on_progress(done, total)
    embedder = get_embedder()
    for start in range(0, len(todo), batch_size):
        batch = todo[start : start + batch_size]
        vectors = embedder.encode([c.embed_text for c in batch])
        for chunk, vector in zip(batch, vectors):
            chunk.embedding = vector
        Chunk.objects.bulk_update(batch, ["embedding"])
        done += len(batch)
        if on_progress:
            on_progress(done, total)
    return len(todo)
