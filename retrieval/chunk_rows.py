"""Chunks by id with their version, policy and source: the rows every answer loads, several times.

``chunks_with_sources().in_bulk(ids)`` builds the same query through the ORM on every call
(select_related over three tables, deferred columns, the model's default ordering), and that
compilation cost more client CPU than the database spent answering it: about 3 ms a look-up,
three to five look-ups an ask, all of it under the interpreter lock that the web process's threads
share. Here the SQL is written once per chunk table and the instances are made the way the ORM
makes them (``Model.from_db`` with the columns read, the rest deferred; each column through the
converters the ORM would apply; the related instances cached on their foreign keys), so a caller
cannot tell the two apart: the same fields loaded, the same fields deferred, ``chunk.version.policy``
and ``chunk.source`` read without another query.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from django.db import connection

from .models import HEAVY_FIELDS, Chunk

# never read when showing, expanding or citing a chunk: the vectors, the source's converted
# document (JSON of the whole file) and the version's stored headings and their tsvector
_DEFERRED = {
    "chunk": set(HEAVY_FIELDS),
    "version": {"headings", "headings_search"},
    "policy": set(),
    "source": {"tree"},
}


@dataclass(frozen=True)
class _Part:
    model: type
    alias: str
    attnames: list[str]
    converters: list[tuple[int, list[Callable], Any]]  # column position, the ORM's converters, its column
    start: int  # first column of this part in the row


@dataclass(frozen=True)
class _Query:
    sql: str
    chunk: _Part
    version: _Part
    policy: _Part
    source: _Part
    parent: _Part | None


_QUERIES: dict[tuple[str, str, bool], _Query] = {}


def chunks_by_id(ids, model: type[Chunk] = Chunk, *, with_parent: bool = False) -> dict[int, Chunk]:
    """id -> chunk (of `model`'s table) with its version, the version's policy and its source
    loaded, as ``chunks_with_sources(model).in_bulk(ids)`` gives them; ids not found are left out.
    `with_parent`: the parent chunk loaded too (without its vectors), as
    ``.select_related("parent")`` adds it."""
    ids = list(dict.fromkeys(int(i) for i in ids))
    if not ids:
        return {}
    query = _query_for(model, with_parent)
    with connection.cursor() as cursor:
        cursor.execute(query.sql, [ids])
        rows = cursor.fetchall()
    versions: dict[int, Any] = {}
    policies: dict[int, Any] = {}
    sources: dict[int, Any] = {}
    version_field = model._meta.get_field("version")
    source_field = model._meta.get_field("source")
    policy_field = query.version.model._meta.get_field("policy")
    parent_field = model._meta.get_field("parent")
    out: dict[int, Chunk] = {}
    for row in rows:
        chunk = _instance(query.chunk, row)
        version_id = row[query.version.start]
        version = versions.get(version_id)
        if version is None:
            version = versions[version_id] = _instance(query.version, row)
            policy_id = row[query.policy.start]
            policy = policies.get(policy_id)
            if policy is None:
                policy = policies[policy_id] = _instance(query.policy, row)
            policy_field.set_cached_value(version, policy)
        version_field.set_cached_value(chunk, version)
        source_id = row[query.source.start]
        source = None
        if source_id is not None:
            source = sources.get(source_id)
            if source is None:
                source = sources[source_id] = _instance(query.source, row)
        source_field.set_cached_value(chunk, source)
        if query.parent is not None:
            parent = None if row[query.parent.start] is None else _instance(query.parent, row)
            parent_field.set_cached_value(chunk, parent)
        out[chunk.pk] = chunk
    return out


def _instance(part: _Part, row: tuple):
    values = list(row[part.start : part.start + len(part.attnames)])
    for position, converters, col in part.converters:
        value = values[position]
        for convert in converters:
            value = convert(value, col, connection)
        values[position] = value
    return part.model.from_db(connection.alias, part.attnames, values)


def _query_for(model: type[Chunk], with_parent: bool) -> _Query:
    key = (connection.alias, model._meta.db_table, with_parent)
    query = _QUERIES.get(key)
    if query is None:
        query = _QUERIES[key] = _build(model, with_parent)
    return query


def _build(model: type[Chunk], with_parent: bool) -> _Query:
    version_model = model._meta.get_field("version").related_model
    policy_model = version_model._meta.get_field("policy").related_model
    source_model = model._meta.get_field("source").related_model
    columns: list[str] = []

    def part(m: type, alias: str, deferred: set[str]) -> _Part:
        fields = [f for f in m._meta.concrete_fields if f.name not in deferred]
        if fields[0] is not m._meta.pk:  # the id first: the loader reads it to share instances
            fields = [m._meta.pk, *[f for f in fields if f is not m._meta.pk]]
        converters = []
        for position, field in enumerate(fields):
            col = field.get_col(alias)
            found = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
            if found:
                converters.append((position, found, col))
        start = len(columns)
        columns.extend(f"{alias}.{connection.ops.quote_name(f.column)}" for f in fields)
        return _Part(model=m, alias=alias, attnames=[f.attname for f in fields], converters=converters, start=start)

    chunk = part(model, "c", _DEFERRED["chunk"])
    version = part(version_model, "v", _DEFERRED["version"])
    policy = part(policy_model, "p", _DEFERRED["policy"])
    source = part(source_model, "s", _DEFERRED["source"])
    parent = part(model, "pc", _DEFERRED["chunk"]) if with_parent else None
    q = connection.ops.quote_name
    parent_join = (
        f"LEFT JOIN {q(model._meta.db_table)} pc ON pc.{q(model._meta.pk.column)} = c.{q(model._meta.get_field('parent').column)} "
        if with_parent else ""
    )
    sql = (
        f"SELECT {', '.join(columns)} FROM {q(model._meta.db_table)} c "
        f"JOIN {q(version_model._meta.db_table)} v ON v.{q(version_model._meta.pk.column)} = c.{q(model._meta.get_field('version').column)} "
        f"JOIN {q(policy_model._meta.db_table)} p ON p.{q(policy_model._meta.pk.column)} = v.{q(version_model._meta.get_field('policy').column)} "
        f"LEFT JOIN {q(source_model._meta.db_table)} s ON s.{q(source_model._meta.pk.column)} = c.{q(model._meta.get_field('source').column)} "
        f"{parent_join}WHERE c.{q(model._meta.pk.column)} = ANY(%s::bigint[])"
    )
    return _Query(sql=sql, chunk=chunk, version=version, policy=policy, source=source, parent=parent)


def forget(model: type[Chunk]) -> None:
    """Drop the SQL written for a chunk table (a temporary evaluation table that is dropped)."""
    for key in [k for k in _QUERIES if k[1] == model._meta.db_table]:
        del _QUERIES[key]
