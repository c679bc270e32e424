"""Writes on chunk tables: replace a version's chunks, embed them.

The chunk-record-to-row mapping (``chunk_rows_write``) and the embedding reuse by content hash
(``chunks_embed``) are written here only; evaluation fills its tables through them too.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable

from django.db import connection, transaction

from .embedding import get_embedder
from .models import Chunk
from .search import vector_literal
from .sources import LIVE_CHUNKS, ChunkSource

_COPIED_FIELDS = ("id", "version", "policy", "source", "parent", "level", "kind", "ordinal", "breadcrumb", "text",
                  "embed_text", "token_count", "pages", "block_ids", "content_hash", "record_id", "searchable", "warnings")


def _content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@transaction.atomic
def chunks_replace(*, version, records_by_source: Iterable[tuple[object, list]], vectors: dict | None = None) -> int:
    """Replace every chunk of `version` in the live table with the given chunk records, in one
    transaction. With `vectors` (content hash -> vector, from `chunk_vectors_compute`, computed
    before this transaction) the searchable chunks get their vectors in the same transaction, so
    readers see the old chunks or the new ones with their vectors, never a mix or a gap."""
    Chunk.objects.filter(version=version).delete()
    return chunk_rows_write(chunk_source=LIVE_CHUNKS, version=version, records_by_source=records_by_source,
                            vectors=vectors)


def chunk_vectors_compute(
    records_by_source: Iterable[tuple[object, list]], *, on_progress: Callable[[int, int], None] | None = None,
    batch_size: int = 64,
) -> dict[str, object]:
    """The vectors of the searchable chunk records, by content hash, encoded now with the current
    model (none reused from the table: a re-index may follow a change of the embedding model)."""
    texts = {}
    for _, records in records_by_source:
        for record in records:
            if record.searchable:
                texts.setdefault(_content_hash(record.embed_text), record.embed_text)
    todo = sorted(texts.items(), key=lambda item: -len(item[1]))  # similar lengths per batch, as chunks_embed
    vectors: dict[str, object] = {}
    if on_progress:
        on_progress(0, len(todo))
    for start in range(0, len(todo), batch_size):
        batch = todo[start : start + batch_size]
        for (content_hash, _), vector in zip(batch, get_embedder().encode([text for _, text in batch])):
            vectors[content_hash] = vector
        if on_progress:
            on_progress(len(vectors), len(todo))
    return vectors


def chunk_rows_write(*, chunk_source: ChunkSource, version, records_by_source: Iterable[tuple[object, list]],
                     vectors: dict | None = None) -> int:
    """Add a version's chunk records (per source document) to a chunk table: without vectors,
    or with them (content hash -> vector) for the searchable ones.

    The rows go in with one COPY, their ids drawn from the table's sequence first so that each
    row carries its parent id (and its vector) from the start: no second UPDATE of every row
    (each update costs PostgreSQL a new row version, the generated tsvector again and an entry
    in every index).
    """
    rows = [(source, record) for source, records in records_by_source for record in records]
    if not rows:
        return 0
    model = chunk_source.model
    table = connection.ops.quote_name(chunk_source.table)
    fields = _COPIED_FIELDS + (("embedding",) if vectors is not None else ())
    columns = ", ".join(connection.ops.quote_name(model._meta.get_field(name).column) for name in fields)
    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                       [chunk_source.table, len(rows)])
        ids = [pk for (pk,) in cursor.fetchall()]
        by_record = {(source.pk, record.id): pk for (source, record), pk in zip(rows, ids)}
        with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for ordinal, ((source, record), pk) in enumerate(zip(rows, ids)):
                parent = by_record.get((source.pk, record.parent_id)) if record.parent_id else None
                row = _row(record, pk=pk, parent=parent, ordinal=ordinal, version=version, source=source)
                if vectors is not None:
                    vector = vectors.get(_content_hash(record.embed_text)) if record.searchable else None
                    row += (vector_literal(vector) if vector is not None else None,)
                copy.write_row(row)
    return len(rows)


def _row(record, *, pk: int, parent: int | None, ordinal: int, version, source) -> tuple:
    """A chunk record as the values of a chunk row, in the order of _COPIED_FIELDS."""
    values = {
        "id": pk, "version": version.pk, "policy": version.policy_id, "source": source.pk,
        "parent": parent, "level": record.level, "kind": record.kind, "ordinal": ordinal,
        "breadcrumb": " > ".join(record.breadcrumb), "text": record.text, "embed_text": record.embed_text,
        "token_count": record.token_count, "pages": list(record.pages), "block_ids": list(record.block_ids),
        "content_hash": _content_hash(record.embed_text), "record_id": record.id,
        "searchable": record.searchable, "warnings": [w[:300] for w in record.warnings],
    }
    return tuple(values[name] for name in _COPIED_FIELDS)


def chunks_embed(
    *, version=None, chunk_source: ChunkSource = LIVE_CHUNKS, on_progress: Callable[[int, int], None] | None = None,
    batch_size: int = 64,
) -> int:
    """Embed the searchable chunks of a table (of one version, when given) that have no vector yet.

    Vectors the live table already holds for the same embedded text (an unchanged section of an
    earlier version, a retry, or the same text chunked for an evaluation) are reused instead of
    recomputed. Returns how many were encoded.
    """
    manager = chunk_source.model._default_manager
    pending = manager.filter(searchable=True, embedding__isnull=True)
    if version is not None:
        pending = pending.filter(version=version)
    pending = list(pending.only("id", "embed_text", "content_hash").order_by("id"))  # the order they were written
    if not pending:
        return 0
    known = known_vectors({c.content_hash for c in pending})
    reused = [c for c in pending if c.content_hash in known]
    for chunk in reused:
        chunk.embedding = known[chunk.content_hash]
    manager.bulk_update(reused, ["embedding"], batch_size=500)
    # Longest first, so each batch holds texts of similar length (little padding), as
    # sentence-transformers orders one big encode call.
    todo = sorted((c for c in pending if c.content_hash not in known), key=lambda c: -len(c.embed_text))
    done, total = len(reused), len(pending)
    if on_progress:
        on_progress(done, total)
    for start in range(0, len(todo), batch_size):
        batch = todo[start : start + batch_size]
        for chunk, vector in zip(batch, get_embedder().encode([c.embed_text for c in batch])):
            chunk.embedding = vector
        manager.bulk_update(batch, ["embedding"])
        done += len(batch)
        if on_progress:
            on_progress(done, total)
    return len(todo)


def known_vectors(content_hashes: set[str]) -> dict[str, object]:
    """The live table's vectors for these content hashes (sha256 of the embedded text)."""
    return dict(
        Chunk.objects.filter(content_hash__in=content_hashes, embedding__isnull=False)
        .values_list("content_hash", "embedding")
        .distinct("content_hash")
        .order_by("content_hash")
    )
