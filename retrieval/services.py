"""Writes on the chunk index: replace a version's chunks, embed them."""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable

from django.db import connection, transaction

from .embedding import get_embedder
from .models import Chunk

_COPIED_FIELDS = ("id", "version", "policy", "source", "parent", "level", "kind", "ordinal", "breadcrumb", "text",
                  "embed_text", "token_count", "pages", "block_ids", "content_hash", "record_id", "searchable", "warnings")


def _content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@transaction.atomic
def chunks_replace(*, version, records_by_source: Iterable[tuple[object, list]]) -> int:
    """Replace every chunk of `version` with the given chunk records, in one transaction.

    The rows go in with one COPY, their ids drawn from the sequence first so that each row
    carries its parent id from the start: no second UPDATE of every row (each update costs
    PostgreSQL a new row version, the generated tsvector again and an entry in every index).
    """
    Chunk.objects.filter(version=version).delete()
    rows = [(source, record) for source, records in records_by_source for record in records]
    if not rows:
        return 0
    table = connection.ops.quote_name(Chunk._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(Chunk._meta.get_field(name).column) for name in _COPIED_FIELDS)
    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                       [Chunk._meta.db_table, len(rows)])
        ids = [pk for (pk,) in cursor.fetchall()]
        by_record = {(source.pk, record.id): pk for (source, record), pk in zip(rows, ids)}
        with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for ordinal, ((source, record), pk) in enumerate(zip(rows, ids)):
                parent = by_record.get((source.pk, record.parent_id)) if record.parent_id else None
                values = {
                    "id": pk, "version": version.pk, "policy": version.policy_id, "source": source.pk,
                    "parent": parent, "level": record.level, "kind": record.kind, "ordinal": ordinal,
                    "breadcrumb": " > ".join(record.breadcrumb), "text": record.text, "embed_text": record.embed_text,
                    "token_count": record.token_count, "pages": list(record.pages), "block_ids": list(record.block_ids),
                    "content_hash": _content_hash(record.embed_text), "record_id": record.id,
                    "searchable": record.searchable, "warnings": [w[:300] for w in record.warnings],
                }
                copy.write_row(tuple(values[name] for name in _COPIED_FIELDS))
    return len(rows)


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
