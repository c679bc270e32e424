"""Filters run inside the SQL of both candidate lists: access scope, published, ready, not retired,
version in force on the asked date. Checked on the raw candidate rows, before fusion."""
import datetime as dt

import pytest
from django.utils import timezone

from policypal.policies.models import PolicyVersion
from retrieval.access import access_params
from retrieval.embedding import get_embedder
from retrieval.models import Chunk
from retrieval.search import candidate_rows, chunk_search_hybrid, vector_literal, websearch_terms

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 11, 29)
AFTER_V2 = dt.date(2027, 5, 1)
BONUS = "How is the manager bonus pool funded and what share of salary is the target bonus?"
MEALS = "What is the daily meal allowance in Mumbai for grade L4?"


def candidate_versions(question: str, user, as_of) -> dict[str, set]:
    """{'v': {(policy key, version number)}, 't': {...}} of the raw rows of each candidate list."""
    vector = get_embedder().encode_one(question)
    rows = candidate_rows(params=access_params(user, as_of), qvec=vector_literal(vector),
                          terms=websearch_terms(question), n=200)
    versions = dict(Chunk.objects.filter(pk__in=[cid for _, cid, _ in rows]).values_list("pk", "version_id"))
    keys = {v.pk: (v.policy.key, v.number) for v in PolicyVersion.objects.select_related("policy")}
    out = {"v": set(), "t": set()}
    for lst, cid, _ in rows:
        out[lst].add(keys[versions[cid]])
    return out


def test_employee_never_gets_a_group_policy_from_either_list(employee):
    found = candidate_versions(BONUS, employee, TODAY)
    assert found["v"] and found["t"], "both lists return candidates"
    for lst in ("v", "t"):
        assert all(key != "manager-compensation" for key, _ in found[lst])


def test_manager_in_the_group_gets_it(manager):
    found = candidate_versions(BONUS, manager, TODAY)
    assert ("manager-compensation", 1) in found["v"]
    assert ("manager-compensation", 1) in found["t"]
    hits = chunk_search_hybrid(question=BONUS, user=manager, as_of=TODAY, k=3)
    assert hits[0].chunk.version.policy.key == "manager-compensation"


def test_the_version_in_force_on_the_asked_date(employee):
    today = candidate_versions(MEALS, employee, TODAY)
    later = candidate_versions(MEALS, employee, AFTER_V2)
    for lst in ("v", "t"):
        assert ("travel", 1) in today[lst] and ("travel", 2) not in today[lst]
        assert ("travel", 2) in later[lst] and ("travel", 1) not in later[lst]


def test_before_a_policy_took_effect_it_is_not_searched(employee):
    found = candidate_versions(MEALS, employee, dt.date(2025, 12, 31))
    assert found["v"] and found["t"], "both lists return candidates"
    assert all(key != "travel" for lst in ("v", "t") for key, _ in found[lst])


def test_unpublished_version_is_not_searched(employee):
    PolicyVersion.objects.filter(policy__key="travel", number=2).update(published=False)
    found = candidate_versions(MEALS, employee, AFTER_V2)
    assert found["v"] and found["t"], "both lists return candidates"
    assert all(key != "travel" or number == 1 for lst in ("v", "t") for key, number in found[lst])
    assert ("travel", 2) not in found["v"] | found["t"]


def test_retired_version_is_not_searched(employee):
    PolicyVersion.objects.filter(policy__key="travel", number=1).update(retired_at=timezone.now())
    found = candidate_versions(MEALS, employee, TODAY)
    assert found["v"] and found["t"], "both lists return candidates"
    assert all(key != "travel" for lst in ("v", "t") for key, _ in found[lst])


def test_version_not_ready_is_not_searched(employee):
    PolicyVersion.objects.filter(policy__key="travel", number=1).update(status=PolicyVersion.Status.INDEXING)
    found = candidate_versions(MEALS, employee, TODAY)
    assert found["v"] and found["t"], "both lists return candidates"
    assert all(key != "travel" for lst in ("v", "t") for key, _ in found[lst])


def test_section_and_document_chunks_do_not_compete(employee):
    hits = chunk_search_hybrid(question=MEALS, user=employee, as_of=TODAY, k=30)
    assert hits and all(h.chunk.level == Chunk.Level.BLOCK for h in hits)
    assert all(h.chunk.searchable for h in hits)
