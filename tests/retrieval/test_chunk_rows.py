"""Chunks by id (retrieval/chunk_rows.py): the loader every answer uses instead of compiling
``chunks_with_sources().in_bulk(ids)`` through the ORM on each call must give what that gives: the
same columns loaded, the same ones deferred, the version, its policy and the source read with the
chunk and no other query; the parent too when asked; ids that are not there left out."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from retrieval.chunk_rows import chunks_by_id
from retrieval.models import Chunk, chunks_with_sources

pytestmark = pytest.mark.django_db


def _loaded(obj) -> dict:
    """The column values an instance holds (deferred columns are absent from its __dict__)."""
    return {f.attname: obj.__dict__[f.attname] for f in obj._meta.concrete_fields if f.attname in obj.__dict__}


def _some_ids(**filters) -> list[int]:
    return list(Chunk.objects.filter(**filters).order_by("id").values_list("id", flat=True)[:40])


def test_chunks_come_as_the_orm_gives_them_with_version_policy_and_source(sample_corpus):
    ids = _some_ids(kind=Chunk.Kind.TABLE_ROW) + _some_ids(level=Chunk.Level.SECTION)
    assert len(ids) > 40
    expected = chunks_with_sources().in_bulk(ids)
    got = chunks_by_id(ids)
    assert set(got) == set(expected) == set(ids)
    for pk, chunk in got.items():
        orm = expected[pk]
        assert _loaded(chunk) == _loaded(orm), pk
        assert chunk.get_deferred_fields() >= {"embedding", "search_vector"}
        assert chunk.get_deferred_fields() == orm.get_deferred_fields()
        with CaptureQueriesContext(connection) as queries:
            version, policy, source = chunk.version, chunk.version.policy, chunk.source
        assert len(queries) == 0, "version, policy and source come with the chunk"
        assert _loaded(version) == {k: v for k, v in _loaded(orm.version).items() if k in _loaded(version)}
        assert "headings_search" not in _loaded(version), "the version's tsvector is never read for an answer"
        assert _loaded(policy) == _loaded(orm.version.policy)
        assert source is not None and _loaded(source) == {k: v for k, v in _loaded(orm.source).items() if k != "tree"}
        assert "tree" in source.get_deferred_fields(), "the converted document is never read for an answer"
    # a deferred column is still there when asked for, as with the ORM
    chunk = got[ids[0]]
    assert chunk.embedding is not None and len(chunk.embedding) == 384


def test_one_query_and_none_for_no_ids(sample_corpus):
    ids = _some_ids(level=Chunk.Level.BLOCK)
    with CaptureQueriesContext(connection) as queries:
        got = chunks_by_id(ids + ids[:3])
    assert len(queries) == 1 and len(got) == len(ids)
    with CaptureQueriesContext(connection) as queries:
        assert chunks_by_id([]) == {}
    assert len(queries) == 0


def test_ids_not_there_are_left_out(sample_corpus):
    ids = _some_ids()[:3]
    missing = Chunk.objects.order_by("-id").values_list("id", flat=True)[0] + 1000
    got = chunks_by_id([missing, *ids])
    assert set(got) == set(ids)


def test_a_chunk_without_a_source_has_none(sample_corpus):
    chunk = Chunk.objects.filter(source__isnull=False).order_by("id").first()
    Chunk.objects.filter(pk=chunk.pk).update(source=None)
    got = chunks_by_id([chunk.pk])[chunk.pk]
    with CaptureQueriesContext(connection) as queries:
        assert got.source is None
    assert len(queries) == 0


def test_parents_come_with_the_chunk_when_asked(sample_corpus):
    ids = _some_ids(level=Chunk.Level.BLOCK, parent__isnull=False)[:10] + _some_ids(parent__isnull=True)[:2]
    expected = chunks_with_sources().select_related("parent").defer("parent__embedding", "parent__search_vector").in_bulk(ids)
    got = chunks_by_id(ids, with_parent=True)
    assert set(got) == set(ids)
    for pk, chunk in got.items():
        with CaptureQueriesContext(connection) as queries:
            parent = chunk.parent
        assert len(queries) == 0
        if expected[pk].parent is None:
            assert parent is None
        else:
            assert _loaded(parent) == _loaded(expected[pk].parent)
            assert parent.get_deferred_fields() >= {"embedding", "search_vector"}
