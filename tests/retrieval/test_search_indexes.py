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
from retrieval.search import (
    candidate_rows,
    candidates_sql,
    chunk_search_hybrid,
    set_search_options,
    vector_literal,
    websearch_terms,
)
from tests.retrieval.synthetic import insert_synthetic_chunks

pytestmark = pytest.mark.django_db

AS_OF = dt.date(2026, 11, 29)
QUESTION = "What is the daily meal allowance in Mumbai for grade L4?"


def explain(user, question: str, *, n: int = 40) -> str:
    """The plan of the candidate query. Sequential scans are switched off: with a few thousand
    rows one is cheaper than any index, and the question here is whether the query's shape
    (operator class, generated column, filter written as an init plan) lets the planner use
    the indexes at all. A query that cannot use them gets a plan without them even so."""
    vector = vector_literal(get_embedder().encode_one(question))
    params = {**access_params(user, AS_OF), "qvec": vector, "terms": websearch_terms(question), "n": n}
    with transaction.atomic(), connection.cursor() as cursor:
        set_search_options(cursor, n=n)
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + candidates_sql(), params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("SET LOCAL enable_seqscan = on")  # SET LOCAL outlives the savepoint
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
    assert "version_id = ANY" in fts, "the access filter must run inside the full-text list"


def test_a_narrow_filter_does_not_starve_the_vector_list(employee, manager):
    """3000 chunks of a policy the employee may not read sit right next to the question's vector.
    An HNSW scan that filtered afterwards would find only those and return nothing; the
    iterative scan keeps going until enough allowed chunks are found."""
    restricted = PolicyVersion.objects.get(policy__key="manager-compensation")
    vector = get_embedder().encode_one(QUESTION)
    insert_synthetic_chunks(restricted, 3000, near=vector_literal(vector))
    assert "chunk_embedding_hnsw" in _cte(explain(employee, QUESTION), "vec")
    hits = chunk_search_hybrid(question=QUESTION, user=employee, as_of=AS_OF, k=10, query_vector=vector)
    assert len(hits) == 10
    assert all(h.chunk.version.policy.key != "manager-compensation" for h in hits)
    assert hits[0].chunk.version.policy.key == "travel"
    rows = candidate_rows(params=access_params(employee, AS_OF), qvec=vector_literal(vector),
                          terms=websearch_terms(QUESTION), n=40)
    assert sum(1 for lst, _, _ in rows if lst == "v") == 40, "the vector list came back short"
    assert sum(1 for h in hits if h.vector_rank is not None) == 10
    manager_hits = chunk_search_hybrid(question=QUESTION, user=manager, as_of=AS_OF, k=10, query_vector=vector)
    assert any(h.chunk.breadcrumb == "Synthetic filler" for h in manager_hits), "the manager does see them"
