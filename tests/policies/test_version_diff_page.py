"""The diff page between two versions of a policy: two versions built and ingested inline by the
real pipeline, the page's sections and table rows, who may open it, the default versions, and
the links to it from the version page and from an answer's upcoming-change notice."""
from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import Group

from policypal.policies.ingestion import version_ingest_inline
from policypal.policies.models import Policy, PolicyVersion
from policypal.policies.roles import POLICY_ADMINS, REVIEWERS
from policypal.policies.selectors import policy_version_diff, version_sections
from policypal.policies.services import UploadedSource, policy_upsert, policy_version_create

pytestmark = pytest.mark.django_db

LEAVE_V1 = b"""# Leave Policy

## 1 Purpose

This policy sets out the leave that every employee of the company is entitled to.

## 2 Annual leave

Employees get 24 days of annual leave a year, booked in the HR system in advance.

## 3 Sick leave

Sick leave of more than two days needs a note from a doctor, sent to your manager.

## 4 Carry forward

Up to 5 days of unused annual leave may be carried forward to the next year.

## 5 Leave by grade

| Grade | Days | Notes |
|---|---|---|
| L1 | 20 | none |
| L2 | 22 | none |
| L3 | 24 | senior staff |
"""

LEAVE_V2 = b"""# Leave Policy

## 1 Purpose

This policy sets out the leave that every employee of the company is entitled to.

## 2 Annual leave

Employees get 26 days of annual leave a year, booked in the HR system in advance.

## 3 Carry forward

Up to 5 days of unused annual leave may be carried forward to the next year.

## 4 Leave by grade

| Grade | Days | Notes |
|---|---|---|
| L1 | 20 | none |
| L2 | 23 | none |
| L4 | 28 | principal staff |

## 5 Parental leave

Parents get 26 weeks of paid leave after the birth or adoption of a child.
"""


@pytest.fixture(autouse=True)
def media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def ingest(policy: Policy, content: bytes, *, effective_from: dt.date) -> PolicyVersion:
    version = policy_version_create(policy=policy, sources=[UploadedSource(name="leave.md", content=content)],
                                    effective_from=effective_from, enqueue=False)
    version = version_ingest_inline(version_id=version.pk)
    assert version.status == PolicyVersion.Status.READY, version.error
    return version


@pytest.fixture
def leave():
    policy = policy_upsert(key="diff-leave", title="Leave Policy", group_names=[])
    v1 = ingest(policy, LEAVE_V1, effective_from=dt.date(2025, 1, 1))
    v2 = ingest(policy, LEAVE_V2, effective_from=dt.date(2027, 1, 1))
    return policy, v1, v2


def user_in(django_user_model, name: str, group: str | None):
    user = django_user_model.objects.create_user(name, password="pw-diff-12345")
    if group:
        user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user


@pytest.fixture
def policy_admin(django_user_model):
    return user_in(django_user_model, "diff-admin", POLICY_ADMINS)


def test_the_selector_reads_section_chunks_in_document_order(leave, policy_admin):
    policy, v1, v2 = leave
    assert [s.path[-1] for s in version_sections(version=v1)] == [
        "1 Purpose", "2 Annual leave", "3 Sick leave", "4 Carry forward", "5 Leave by grade"]
    result = policy_version_diff(user=policy_admin, policy_key=policy.key)
    assert (result.old, result.new) == (v1, v2)  # by default the latest ready version and the one before
    statuses = {s.path[-1]: s.status for s in result.diff.sections}
    assert statuses == {"1 Purpose": "unchanged", "2 Annual leave": "changed", "3 Sick leave": "removed",
                        "3 Carry forward": "changed", "4 Leave by grade": "changed", "5 Parental leave": "added"}
    carry = next(s for s in result.diff.changed if s.path[-1] == "3 Carry forward")
    assert carry.renumbered and carry.old.path[-1] == "4 Carry forward"
    (table,) = next(s for s in result.diff.changed if s.path[-1] == "4 Leave by grade").tables
    assert sorted((r.status, r.label) for r in table.rows) == [("added", "L4"), ("changed", "L2"), ("removed", "L3")]


def test_the_page_shows_sections_word_diff_and_rows(client, leave, policy_admin):
    policy, v1, v2 = leave
    client.force_login(policy_admin)
    response = client.get(f"/manage/policies/{policy.key}/diff/", {"from": 1, "to": 2})
    assert response.status_code == 200
    html = response.content.decode()
    assert "v1 → v2" in html
    for name, count in (("added", 1), ("removed", 1), ("changed", 3), ("unchanged", 1)):
        assert f'id="diff-count-{name}">{count}<' in html
    assert "<del>24</del><ins>26</ins>" in html
    assert 'diff-section--added' in html and "Parents get 26 weeks" in html
    assert 'diff-section--removed' in html and "needs a note from a doctor" in html
    assert "was 4 Carry forward" in html
    assert 'class="diff-row diff-row--changed" data-label="L2"' in html and "<del>22</del> <ins>23</ins>" in html
    assert 'class="diff-row diff-row--added" data-label="L4"' in html
    assert 'class="diff-row diff-row--removed" data-label="L3"' in html


def test_the_versions_can_be_swapped_and_unknown_ones_are_404(client, leave, policy_admin):
    policy, _, _ = leave
    client.force_login(policy_admin)
    html = client.get(f"/manage/policies/{policy.key}/diff/", {"from": 2, "to": 1}).content.decode()
    assert "v2 → v1" in html and 'id="diff-count-added">1<' in html  # 3 Sick leave comes back
    assert client.get(f"/manage/policies/{policy.key}/diff/", {"from": 1, "to": 7}).status_code == 404
    assert client.get("/manage/policies/no-such-policy/diff/").status_code == 404


def test_one_ready_version_is_nothing_to_compare(client, policy_admin):
    policy = policy_upsert(key="diff-single", title="Single", group_names=[])
    ingest(policy, LEAVE_V1, effective_from=dt.date(2025, 1, 1))
    client.force_login(policy_admin)
    assert client.get(f"/manage/policies/{policy.key}/diff/").status_code == 404


@pytest.mark.parametrize("group, status", [(POLICY_ADMINS, 200), (REVIEWERS, 200), (None, 403), ("managers", 403)])
def test_who_may_open_the_diff(client, django_user_model, leave, group, status):
    policy, _, _ = leave
    client.force_login(user_in(django_user_model, "diff-user", group))
    assert client.get(f"/manage/policies/{policy.key}/diff/").status_code == status
    if status == 403:
        assert policy_version_diff(user=django_user_model.objects.get(username="diff-user"), policy_key=policy.key) is None


def test_signed_out_goes_to_login(client, leave):
    response = client.get(f"/manage/policies/{leave[0].key}/diff/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_the_version_page_links_to_the_previous_version(client, leave, policy_admin):
    policy, v1, v2 = leave
    client.force_login(policy_admin)
    html = client.get(f"/manage/versions/{v2.pk}/").content.decode()
    assert f'href="/manage/policies/{policy.key}/diff/?from=1&amp;to=2" id="compare-previous"' in html
    assert 'id="compare-previous"' not in client.get(f"/manage/versions/{v1.pk}/").content.decode()


# --- the link from an answer's upcoming-change notice ---------------------------------------------

MEAL_QUESTION = "What is the daily meal allowance in Mumbai for grade L4?"  # travel v2 announced from 1 April 2027


def ask(client, question: str) -> str:
    response = client.post("/", {"question": question, "as_of": "2026-06-01"}, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def test_the_upcoming_change_notice_links_to_the_diff_for_admins_only(client, sample_corpus, employee, django_user_model):
    html = ask_as(client, employee)
    assert "Upcoming change." in html and "notice-diff-link" not in html
    reviewer = django_user_model.objects.get(username="reviewer")
    html = ask_as(client, reviewer)
    notices = html[html.index('id="answer-notices"'):]
    notices = notices[:notices.index("</ul>")]
    assert notices.count('class="notice-diff-link" href="/manage/policies/travel/diff/"') == 1
    assert client.get("/manage/policies/travel/diff/").status_code == 200


def ask_as(client, user) -> str:
    client.force_login(user)
    return ask(client, MEAL_QUESTION)
