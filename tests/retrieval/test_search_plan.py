"""The vector plan is chosen by the measured width of the access filter: at most
sqrt(SEARCH_EXACT_RATIO * n * searchable chunks) allowed chunks (or SEARCH_EXACT_MAX_ROWS when
set), every allowed chunk's distance is sorted (exact); above it the HNSW iterative scan runs
with a visit budget scaled to 1 / (the fraction the filter keeps).
The allowed count is the sum of per-version counts kept by triggers on the chunk table.
Also: the policy titles of the visible versions are cached until a policy is saved or deleted."""
import datetime as dt
import math

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from policypal.policies.models import Policy, PolicyVersion
from retrieval import search
from retrieval.access import access_params
from retrieval.embedding import get_embedder
from retrieval.lookup import policy_titles, visible_versions
from retrieval.models import Chunk
from retrieval.search import (  # noqa: I001
    MAX_SCAN_TUPLES,
    candidate_rows,
    candidates_sql,
    hnsw_options,
    query_params,
    search_plan,
    vector_literal,
)
from tests.retrieval.synthetic import insert_synthetic_chunks

pytestmark = pytest.mark.django_db

AS_OF = dt.date(2026, 11, 29)
QUESTION = "What is the daily meal allowance in Mumbai for grade L4?"


def counts() -> dict[int, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT version_id, searchable FROM retrieval_versionchunkcount WHERE searchable <> 0")
        return dict(cursor.fetchall())


def counted_from_rows() -> dict[int, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT version_id, count(*) FROM retrieval_chunk WHERE searchable GROUP BY version_id")
        return dict(cursor.fetchall())


def ran_exact_lists(queries) -> bool:
    """Whether the candidate query that candidate_rows ran had exact vector lists (the exact
    list's subquery ends with OFFSET 0, the HNSW one has none)."""
    [sql] = [q["sql"] for q in queries.captured_queries if "vec AS MATERIALIZED" in q["sql"]]
    return "OFFSET 0" in sql


def plan_for(user, n: int = 40):
    with transaction.atomic(), connection.cursor() as cursor:
        plan = search_plan(cursor, params=access_params(user, AS_OF), n=n)
        cursor.execute("SELECT current_setting('hnsw.max_scan_tuples'), current_setting('hnsw.scan_mem_multiplier')")
        in_force = cursor.fetchone()
    return plan, in_force


def test_chunk_counts_follow_inserts_updates_and_deletes(employee):
    assert counts() == counted_from_rows() and counts(), "filled from the ingested corpus"
    travel = PolicyVersion.objects.get(policy__key="travel", number=1)
    before = counts()[travel.pk]
    insert_synthetic_chunks(travel, 50)
    assert counts()[travel.pk] == before + 50
    filler = list(Chunk.objects.filter(version=travel, breadcrumb="Synthetic filler").values_list("pk", flat=True))
    Chunk.objects.filter(pk__in=filler[:10]).update(searchable=False)
    assert counts()[travel.pk] == before + 40
    Chunk.objects.filter(pk__in=filler[:20]).update(embedding=None)  # other columns: no change
    assert counts()[travel.pk] == before + 40
    Chunk.objects.filter(pk__in=filler).delete()
    assert counts() == counted_from_rows()
    assert counts()[travel.pk] == before


def test_a_deleted_version_leaves_no_count(employee):
    version = PolicyVersion.objects.get(policy__key="travel", number=1)
    assert version.pk in counts()
    version.delete()  # its chunks go by cascade
    assert version.pk not in counts()
    assert counts() == counted_from_rows()


def test_a_narrow_filter_sorts_the_allowed_chunks_exactly(employee):
    """3000 noisy copies of the corpus in a policy the employee may not read crowd every
    neighbourhood: the employee's few hundred chunks are under the threshold, so the vector
    list is the exact 40 nearest of them."""
    insert_synthetic_chunks(PolicyVersion.objects.get(policy__key="manager-compensation"), 3000, copies=True)
    plan, _ = plan_for(employee)
    allowed = visible_versions(employee, AS_OF)
    assert plan.exact
    assert sorted(plan.versions) == sorted(allowed)
    assert plan.allowed == Chunk.objects.filter(version_id__in=allowed, searchable=True).count()
    assert plan.indexed >= 3000 and plan.fraction < 0.5
    literal = vector_literal(get_embedder().encode_one(QUESTION))
    with CaptureQueriesContext(connection) as queries:
        rows = candidate_rows(params=access_params(employee, AS_OF), qvec=literal, terms=QUESTION, n=40)
    assert ran_exact_lists(queries)
    served = [cid for lst, cid, _ in sorted((r for r in rows if r[0] == "v"), key=lambda r: (r[2], r[1]))]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id FROM retrieval_chunk WHERE version_id = ANY(%s) AND searchable AND embedding IS NOT NULL "
            "ORDER BY (embedding <=> %s::vector) + 0, id LIMIT 40", [allowed, literal],  # + 0: no index
        )
        exact = [r[0] for r in cursor.fetchall()]
    assert served == exact
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + candidates_sql(exact=True),
                       query_params(versions=allowed, qvec=literal, terms=QUESTION, n=40))
        text = "\n".join(r[0] for r in cursor.fetchall())
    assert "chunk_embedding_hnsw" not in text, text


def test_a_wide_filter_scans_the_index_with_a_budget_scaled_to_the_filter(employee, settings):
    insert_synthetic_chunks(PolicyVersion.objects.get(policy__key="manager-compensation"), 3000, copies=True)
    settings.SEARCH_EXACT_MAX_ROWS = 10
    settings.HNSW_SCAN_TUPLES_PER_ROW = 2000  # so that the scaled budget is above the floor here
    plan, (tuples_in_force, memory_in_force) = plan_for(employee)
    assert not plan.exact
    expected = max(MAX_SCAN_TUPLES, math.ceil(2000 * 40 / plan.fraction))
    assert plan.options["hnsw.max_scan_tuples"] == str(expected) == tuples_in_force
    assert float(memory_in_force) >= expected * search.SCAN_BYTES_PER_TUPLE / (4 * 1024 * 1024) - 1
    literal = vector_literal(get_embedder().encode_one(QUESTION))
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute("EXPLAIN " + candidates_sql(exact=plan.exact),
                       query_params(versions=plan.versions, qvec=literal, terms=QUESTION, n=40))
        text = "\n".join(r[0] for r in cursor.fetchall())
        cursor.execute("SET LOCAL enable_seqscan = on")
        cursor.execute("SET LOCAL enable_sort = on")
    assert "chunk_embedding_hnsw" in text, text
    with CaptureQueriesContext(connection) as queries:
        rows = candidate_rows(params=access_params(employee, AS_OF), qvec=literal, terms=QUESTION, n=40)
    assert not ran_exact_lists(queries)
    vector_ids = [cid for lst, cid, _ in rows if lst == "v"]
    assert len(vector_ids) == 40
    assert set(Chunk.objects.filter(pk__in=vector_ids).values_list("version_id", flat=True)) <= set(plan.versions)


def test_the_exact_threshold_settings_are_honoured(employee, settings):
    plan, _ = plan_for(employee)
    settings.SEARCH_EXACT_MAX_ROWS = plan.allowed
    assert plan_for(employee)[0].exact
    settings.SEARCH_EXACT_MAX_ROWS = plan.allowed - 1
    wide, _ = plan_for(employee)
    assert not wide.exact and wide.allowed == plan.allowed
    settings.SEARCH_EXACT_MAX_ROWS = None  # the rule: exact while allowed <= sqrt(ratio * n * indexed)
    ratio = plan.allowed ** 2 / (40 * plan.indexed)
    settings.SEARCH_EXACT_RATIO = ratio * 1.001
    assert search.exact_max_rows(n=40, indexed=plan.indexed) == plan.allowed
    assert plan_for(employee)[0].exact
    settings.SEARCH_EXACT_RATIO = ratio * 0.99
    assert not plan_for(employee)[0].exact


def test_the_default_rule_is_exact_for_few_allowed_chunks_of_a_large_index(settings):
    settings.SEARCH_EXACT_MAX_ROWS = None
    settings.SEARCH_EXACT_RATIO = search.EXACT_SCAN_RATIO
    assert search.exact_max_rows(n=40, indexed=1_000_000) == 14_142  # measured crossover ~13,500
    assert search.exact_max_rows(n=40, indexed=100_000) == 4_472  # measured ~5,300
    few = search.choose_plan(versions=[1], allowed=10_000, indexed=1_000_000, n=40, work_mem=4 << 20)
    many = search.choose_plan(versions=[1], allowed=100_000, indexed=1_000_000, n=40, work_mem=4 << 20)
    assert few.exact and not few.options
    assert not many.exact and many.options["hnsw.iterative_scan"] == "relaxed_order"


def test_hnsw_options_scale_with_the_fraction_the_filter_keeps(settings):
    settings.HNSW_SCAN_TUPLES_PER_ROW = 10
    everything = hnsw_options(40, fraction=1.0)
    assert everything["hnsw.max_scan_tuples"] == str(MAX_SCAN_TUPLES)
    assert everything["hnsw.iterative_scan"] == "relaxed_order"
    tenth = hnsw_options(40, fraction=0.1)
    hundredth = hnsw_options(40, fraction=0.01, work_mem=4 * 1024 * 1024)
    assert int(tenth["hnsw.max_scan_tuples"]) == max(MAX_SCAN_TUPLES, 4000)
    assert int(hundredth["hnsw.max_scan_tuples"]) == 40_000
    assert float(hundredth["hnsw.scan_mem_multiplier"]) >= 40_000 * search.SCAN_BYTES_PER_TUPLE / (4 * 1024 * 1024)
    assert float(hnsw_options(40, fraction=1e-9)["hnsw.scan_mem_multiplier"]) <= search.MAX_SCAN_MEM_MULTIPLIER


def test_policy_titles_are_cached_until_a_policy_is_saved(employee, django_assert_num_queries,
                                                         django_capture_on_commit_callbacks):
    versions = visible_versions(employee, AS_OF)
    with django_assert_num_queries(1):
        titles = policy_titles(versions)
    with django_assert_num_queries(0):
        assert policy_titles(list(reversed(versions))) == titles
    policy = Policy.objects.get(pk=PolicyVersion.objects.get(pk=versions[0]).policy_id)
    policy.title = "Renamed Policy Title"
    with django_capture_on_commit_callbacks(execute=True):
        policy.save()
        with django_assert_num_queries(1):
            renamed = policy_titles(versions)  # before the commit: another process would read the old titles
    assert "Renamed Policy Title" in renamed
    with django_assert_num_queries(1):  # so the commit draws a new token again
        assert policy_titles(versions) == renamed
    PolicyVersion.objects.filter(pk=versions[-1]).first().delete()
    with django_assert_num_queries(1):
        policy_titles(versions)
