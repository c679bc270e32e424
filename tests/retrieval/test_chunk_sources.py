"""Chunk sources: the answer context keeps every ranked hit and says which its chunks stand for;
an evaluation table is the live table's definition on another (temporary) table, filled and
embedded by the same services, and is searched the same way; the visible-version rule is the
same for search and for the ORM."""
import datetime as dt
import re

import numpy as np
import pytest
from django.apps import apps
from django.db import connection

from policypal.policies.models import PolicyVersion
from retrieval.access import versions_visible
from retrieval.context import HITS_PER_CONTEXT_CHUNK, answer_context
from retrieval.embedding import get_embedder
from retrieval.lookup import visible_versions
from retrieval.models import Chunk
from retrieval.search import chunk_search_hybrid
from retrieval.sources import LIVE_CHUNKS
from retrieval.strategies import chunk_table_of, strategy_chunk_table

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 11, 29)
MEALS = "What is the daily meal allowance in Mumbai for grade L4?"


@pytest.mark.parametrize("k", [1, 5])
def test_the_context_keeps_its_ranked_hits_and_says_which_it_shows(employee, k):
    """k=1 used to keep no hit (and so no notice) and k=5 counted all 15 hits as shown: the
    count of hits read and the tokens taken were one variable."""
    vector = get_embedder().encode_one(MEALS)
    ranked = chunk_search_hybrid(question=MEALS, user=employee, as_of=TODAY, k=k * HITS_PER_CONTEXT_CHUNK,
                                 query_vector=vector)
    context = answer_context(question=MEALS, user=employee, as_of=TODAY, k=k, query_vector=vector)
    assert len(context.chunks) == k
    assert [h.chunk.pk for h in context.hits] == [h.chunk.pk for h in ranked]  # 3 and 15: every ranked hit
    assert context.hits_shown, "the hits the chunks stand for"
    assert len(context.hits_shown) < len(ranked)
    assert {h.chunk.pk for h in context.hits_shown} == {pk for c in context.chunks for pk in c.expanded_from}
    assert any("1 April 2027" in n.message for n in context.notices)  # travel v2 is announced


def _index_definitions(table: str) -> list[str]:
    """Each index's definition without its name and table."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE tablename = %s", [table])
        return sorted(re.sub(r"INDEX \S+ ON \S+ USING", "INDEX ON USING", d) for (d,) in cursor.fetchall())


def _columns(table: str) -> list[tuple]:
    """Name, type, nullability and generation of each column."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT column_name, data_type, is_nullable, is_generated, generation_expression "
                       "FROM information_schema.columns WHERE table_name = %s ORDER BY ordinal_position", [table])
        return sorted(cursor.fetchall())  # the live table's column order follows its migrations


def test_an_evaluation_table_has_the_live_definition_and_searches_the_same(employee):
    live = list(Chunk.objects.filter(version__in=versions_visible()))
    vector = get_embedder().encode_one(MEALS)
    live_hits = chunk_search_hybrid(question=MEALS, user=employee, as_of=TODAY, k=10, query_vector=vector)
    with chunk_table_of(live, name="copy") as chunk_source:
        table = chunk_source.table
        assert table != LIVE_CHUNKS.table
        assert _columns(table) == _columns(LIVE_CHUNKS.table)
        assert _index_definitions(table) == _index_definitions(LIVE_CHUNKS.table)
        assert any("USING hnsw (embedding vector_cosine_ops)" in d for d in _index_definitions(table))
        copied_hits = chunk_search_hybrid(question=MEALS, user=employee, as_of=TODAY, k=10, query_vector=vector,
                                          chunk_source=chunk_source)
        assert copied_hits, "the copy finds chunks"
        assert [h.chunk.pk for h in copied_hits] == [h.chunk.pk for h in live_hits]
        assert copied_hits[0].chunk.version.policy.key == "travel"
    assert table not in connection.introspection.table_names()
    assert not any(m._meta.db_table == table for m in apps.get_models())


def test_the_structure_strategy_rebuilds_the_live_chunks_and_reuses_their_vectors(employee):
    live = Chunk.objects.filter(version__in=versions_visible())
    live_vectors = dict(live.filter(searchable=True).values_list("content_hash", "embedding"))
    with strategy_chunk_table(strategy="structure") as chunk_source:
        rebuilt = chunk_source.model.objects
        assert sorted(rebuilt.values_list("version_id", "breadcrumb", "text")) == sorted(
            live.values_list("version_id", "breadcrumb", "text"))
        assert chunk_source.searchable_count() == live.filter(searchable=True).count() > 0
        vectors = list(rebuilt.filter(searchable=True).values_list("content_hash", "embedding"))
        assert vectors and all(np.array_equal(vector, live_vectors[h]) for h, vector in vectors)  # reused, not re-encoded


def test_one_rule_for_visible_versions(employee):
    retired, unpublished, failed = PolicyVersion.objects.filter(policy__key__in=["refunds", "leave", "it-security"])
    assert {retired.pk, unpublished.pk, failed.pk} <= set(visible_versions(employee, TODAY))  # open to all, in force
    PolicyVersion.objects.filter(pk=retired.pk).update(published=False, retired_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC))
    PolicyVersion.objects.filter(pk=unpublished.pk).update(published=False)
    PolicyVersion.objects.filter(pk=failed.pk).update(status=PolicyVersion.Status.FAILED)
    hidden = {retired.pk, unpublished.pk, failed.pk}
    visible = set(versions_visible().values_list("pk", flat=True))
    assert visible and not visible & hidden
    assert visible | hidden == set(PolicyVersion.objects.values_list("pk", flat=True))
    assert set(visible_versions(employee, TODAY)) <= visible
    assert set(visible_versions(employee, TODAY)).isdisjoint(hidden)
