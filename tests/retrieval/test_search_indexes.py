"""The candidate query uses the HNSW index for the vector list and the GIN index for the full-text
list, with the access filter applied inside both; a narrow filter does not starve the HNSW result
(pgvector iterative index scans)."""
import datetime as dt
import re

import pytest
from django.db import connection, transaction

from policypal.policies.models import PolicyVersion
from retrieval.access import access_params
from retrieval.embedding import get_embedder
from retrieval.search import (  # noqa: I001
    candidate_rows,
    candidates_sql,
    chunk_search_hybrid,
    prepare_search,
    query_params,
    vector_literal,
)
from tests.retrieval.synthetic import insert_synthetic_chunks

pytestmark = pytest.mark.django_db

AS_OF = dt.date(2026, 11, 29)
QUESTION = "What is the daily meal allowance in Mumbai for grade L4?"


def explain(user, question: str, *, n: int = 40) -> str:
    """The plan of the candidate query with sequential scans and sorts made unattractive.

    With a few thousand rows, reading the allowed rows and sorting them by distance is the
    cheapest plan, and the planner rightly takes it (on 10,000 and 100,000 chunks it takes the
    HNSW index: bench/query_latency.py prints the plan). What this test checks is whether the
    query's shape (operator class, generated tsvector column, the access filter as a list of
    version ids) lets the planner use the indexes at all: a query that cannot use them gets a
    plan without them even so."""
    vector = vector_literal(get_embedder().encode_one(question))
    with transaction.atomic(), connection.cursor() as cursor:
        versions = prepare_search(cursor, params=access_params(user, AS_OF), n=n)
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute("EXPLAIN " + candidates_sql(), query_params(versions=versions, qvec=vector, terms=question, n=n))
        plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("SET LOCAL enable_seqscan = on")  # SET LOCAL outlives the savepoint
        cursor.execute("SET LOCAL enable_sort = on")
    return plan


def _cte(plan: str, name: str) -> str:
    """The lines of one CTE of the plan."""
    match = re.search(rf"CTE {name}\n(.*?)(?=\n  CTE |\n  ->  CTE Scan|\Z)", plan, re.S)
    assert match, f"no CTE {name} in plan:\n{plan}"
    return match.group(1)


def test_vector_list_uses_hnsw_and_text_list_uses_gin_with_the_filter_inside(employee):
    travel = PolicyVersion.objects.get(policy__key="travel", number=1)
    insert_synthetic_chunks(travel, 3000)
    plan = explain(employee, QUESTION)
    vec, fts = _cte(plan, "vec"), _cte(plan, "fts")
    assert "Index Scan using chunk_embedding_hnsw" in vec, plan
    assert "version_id = ANY" in vec, "the access filter must run inside the vector list"
    assert "chunk_search_vector_gin" in fts, plan
    assert re.search(r"version_id( \+ 0\))? = ANY", fts), "the access filter must run inside the full-text list"


def _vector_rows(user, vector: str, *, iterative: bool) -> int:
    """How many rows the vector list returns when the HNSW index scan is used (forced)."""
    with transaction.atomic(), connection.cursor() as cursor:
        versions = prepare_search(cursor, params=access_params(user, AS_OF), n=40)
        if not iterative:  # one pass of 40 candidates, as pgvector does by default
            cursor.execute("SET LOCAL hnsw.iterative_scan = off")
            cursor.execute("SET LOCAL hnsw.ef_search = 40")
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(candidates_sql(), query_params(versions=versions, qvec=vector, terms=QUESTION, n=40))
        rows = cursor.fetchall()
        for knob in ("enable_sort", "enable_seqscan"):
            cursor.execute(f"SET LOCAL {knob} = on")
    return sum(1 for lst, _, _ in rows if lst == "v")


def test_a_narrow_filter_does_not_starve_the_vector_list(employee, manager):
    """3000 chunks of a policy the employee may not read crowd every neighbourhood of the real
    chunks (noisy copies of them), so most of any question's nearest rows are forbidden. An HNSW
    scan that filters afterwards returns only the few allowed rows among its first candidates;
    the iterative scan keeps going until enough allowed chunks are found. (On so few allowed
    rows the planner would rather sort them exactly; the HNSW plan is forced here.)"""
    restricted = PolicyVersion.objects.get(policy__key="manager-compensation")
    vector = get_embedder().encode_one(QUESTION)
    literal = vector_literal(vector)
    insert_synthetic_chunks(restricted, 3000, copies=True)
    assert "chunk_embedding_hnsw" in _cte(explain(employee, QUESTION), "vec")
    assert _vector_rows(employee, literal, iterative=False) < 40, "without iterative scans the list starves"
    assert _vector_rows(employee, literal, iterative=True) == 40
    hits = chunk_search_hybrid(question=QUESTION, user=employee, as_of=AS_OF, k=10, query_vector=vector)
    assert len(hits) == 10
    assert all(h.chunk.version.policy.key != "manager-compensation" for h in hits)
    assert hits[0].chunk.version.policy.key == "travel"
    rows = candidate_rows(params=access_params(employee, AS_OF), qvec=literal, terms=QUESTION, n=40)
    assert sum(1 for lst, _, _ in rows if lst == "v") == 40
    manager_hits = chunk_search_hybrid(question=QUESTION, user=manager, as_of=AS_OF, k=10, query_vector=vector)
    assert any(h.chunk.breadcrumb == "Synthetic filler" for h in manager_hits), "the manager does see them"


def test_definition_look_ups_state_the_predicate_of_their_partial_index():
    """definitions_carrying and chunks_defining read only the chunks that define something, through
    the partial index chunk_defining (migration 0005), not every row of the versions: the planner
    takes a partial index only for a query stating its predicate, so a change to
    lookup.DEFINES_SQL that the index does not follow shows here."""
    from retrieval.lookup import DEFINES_SQL

    versions = [1, 2, 3, 4]  # the plan is what is checked, not the rows
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_bitmapscan = off")
        cursor.execute(f"EXPLAIN SELECT c.id FROM retrieval_chunk c WHERE c.version_id = ANY(%s::bigint[]) AND {DEFINES_SQL} "
                       "AND c.search_vector @@ phraseto_tsquery('english', 'annual leave')", [versions])
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "chunk_defining " in plan, plan


def test_the_defining_predicate_keeps_what_its_words_and_headings_mean():
    """The predicate is written as a tsquery constant and an opaque heading function so that it is
    cheap to plan (migration 0005); it must still say what the words say: the constant is what the
    english configuration makes of "mean", "refer" and "is defined as", and a chunk is defining
    by those words in any form or by a definitions or glossary heading, in any case."""
    from retrieval.models import DEFINING_CHUNKS

    with connection.cursor() as cursor:
        cursor.execute("SELECT (to_tsquery('english', 'mean') || to_tsquery('english', 'refer') || "
                       "phraseto_tsquery('english', 'is defined as')) = '''mean'' | ''refer'' | ''defin'''::tsquery")
        assert cursor.fetchone()[0] is True
        cases = [
            ("A Close Relative means a spouse, parent or child.", "Leave > Scope", True),
            ("We use the word contractor to refer to anyone paid by invoice.", "Scope", True),
            ("Overtime is defined as hours over the contract.", "Pay", True),
            ("Band B2 staff may claim 30 GBP a day.", "Travel > KEY TERMS", True),
            ("Band B2 staff may claim 30 GBP a day.", "Annex > Glossary of roles", True),
            ("Band B2 staff may claim 30 GBP a day.", "Travel > Rates", False),
            ("Claims are paid monthly.", "Expenses > Payment", False),
        ]
        for text, breadcrumb, defining in cases:
            cursor.execute(
                "SELECT " + DEFINING_CHUNKS.format(c="t.") + " FROM (SELECT true AS searchable, 'block' AS level, "
                "to_tsvector('english', %s) AS search_vector, %s::text AS breadcrumb) t", [text, breadcrumb])
            assert cursor.fetchone()[0] is defining, (text, breadcrumb)
