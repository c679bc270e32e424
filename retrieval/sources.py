"""Where chunks are read from: a ``ChunkSource`` is a table with the live ``Chunk`` definition.

Search, the answer context and the evaluation read chunks through a source. ``LIVE_CHUNKS`` is
the table questions are answered from. An evaluation table (the published documents chunked
another way, or the live chunks embedded by another model) is made from the live model itself:
a model class with the same fields and indexes on another ``db_table``, created by Django's
schema editor, so the same SQL, access filter and relations run over both and no schema is
copied by hand.

An evaluation table is a TEMPORARY table of this database session: other connections never
see it, serving code never names it, and PostgreSQL drops it when the session ends even if the
process dies. Its model's relations have no reverse accessor, no database constraint and
``on_delete=DO_NOTHING``, so deleting a version never reaches for it.
"""
from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.apps import apps
from django.db import connection, models
from django.db.models import QuerySet

from .chunk_rows import chunks_by_id, forget
from .models import DEFINING_CHUNKS, HEAVY_FIELDS, Chunk, chunks_with_sources

# What a table model keeps of the live class besides its fields (choices, display helpers).
_BEHAVIOUR = ("Level", "Kind", "__str__", "breadcrumb_parts")
_NAME = re.compile(r"^[a-z0-9_]{1,24}$")


@dataclass(frozen=True)
class ChunkSource:
    """A table of chunks: ``model`` is ``Chunk`` (the live table) or a model derived from it."""

    model: type[Chunk]

    @property
    def table(self) -> str:
        return self.model._meta.db_table

    def rows(self) -> QuerySet:
        """The chunks without their vectors (what showing, expanding and citing need)."""
        return self.model._default_manager.defer(*HEAVY_FIELDS)

    def rows_with_sources(self) -> QuerySet:
        return chunks_with_sources(self.model)

    def by_ids_with_sources(self, ids, *, with_parent: bool = False) -> dict[int, Chunk]:
        """id -> chunk with its version, policy and source (and parent): one query written once
        per table (retrieval/chunk_rows.py), as rows_with_sources().in_bulk(ids) would give them."""
        return chunks_by_id(ids, self.model, with_parent=with_parent)

    def by_ids(self, ids) -> dict[int, Chunk]:
        return self.rows().in_bulk(list(ids))

    def table_chunks(self, *, version_id: int, source_id: int | None, table_block_id: str) -> list[Chunk]:
        """The block chunks holding a table (one, or its pieces when it was split), in document order."""
        return list(
            self.rows().filter(
                version_id=version_id, source_id=source_id, level=Chunk.Level.BLOCK, kind=Chunk.Kind.TABLE,
                block_ids__contains=[table_block_id],
            ).order_by("ordinal")
        )

    def searchable_count(self) -> int:
        return self.model._default_manager.filter(searchable=True).count()


LIVE_CHUNKS = ChunkSource(Chunk)


@contextmanager
def temporary_chunk_table(*, name: str) -> Iterator[ChunkSource]:
    """A new, empty TEMPORARY chunk table with the live table's columns and indexes, dropped
    (and its model forgotten) on exit. `name`: short lowercase letters, digits and _."""
    if not _NAME.match(name):
        raise ValueError(f"a chunk table name is up to 24 lowercase letters, digits and _, not {name!r}")
    model = _table_model(f"chunks_{name}_{uuid.uuid4().hex[:8]}")
    try:
        with connection.schema_editor() as editor:
            # the schema editor's own CREATE TABLE, made TEMPORARY (its indexes follow it into pg_temp)
            editor.sql_create_table = "CREATE TEMPORARY TABLE %(table)s (%(definition)s)"
            editor.create_model(model)
        with connection.cursor() as cursor:  # the live table's partial index of defining chunks (migration 0004)
            table = connection.ops.quote_name(model._meta.db_table)
            cursor.execute(f"CREATE INDEX ON {table} (version_id) WHERE {DEFINING_CHUNKS.format(c='')}")
        yield ChunkSource(model)
    finally:
        _drop(model)


def chunk_table_analyze(chunk_source: ChunkSource) -> None:
    """Planner statistics for a filled table (search weighs full-text words by their frequency)."""
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {connection.ops.quote_name(chunk_source.table)}")


def _table_model(db_table: str) -> type[Chunk]:
    """A model class with the live Chunk's fields, indexes and behaviour, on `db_table`."""
    meta = type("Meta", (), {
        "app_label": Chunk._meta.app_label,
        "db_table": db_table,
        "ordering": Chunk._meta.ordering,
        "indexes": [_renamed(index, db_table) for index in Chunk._meta.indexes],
    })
    attrs = {"__module__": __name__, "Meta": meta}
    attrs.update({field.name: _detached(field) for field in Chunk._meta.local_fields})
    attrs.update({name: vars(Chunk)[name] for name in _BEHAVIOUR})
    return type(f"Chunk_{db_table}", (models.Model,), attrs)


def _detached(field: models.Field) -> models.Field:
    """A copy of a live field; a relation keeps its target but no reverse accessor, constraint
    or delete cascade (the parent link points into the same table)."""
    _, _, args, kwargs = field.deconstruct()
    if field.is_relation:
        kwargs.update(related_name="+", on_delete=models.DO_NOTHING, db_constraint=False)
        if field.remote_field.model is Chunk:
            kwargs["to"] = "self"
    return type(field)(*args, **kwargs)


def _renamed(index: models.Index, db_table: str) -> models.Index:
    copy = index.clone()
    copy.name = f"{db_table}_{index.name}"
    return copy


def _drop(model: type[Chunk]) -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TABLE IF EXISTS {connection.ops.quote_name(model._meta.db_table)}")
    finally:
        forget(model)
        del apps.all_models[model._meta.app_label][model._meta.model_name]
        apps.clear_cache()
