"""The admin console at company size: the policy list's search (title, key, headings of the current
version), filters, sorting and pages through GET parameters, bounded queries at 5,000 policies,
and the bulk actions (publish, retire, re-index, change groups), each audited and for policy admins
only."""
from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from policypal.policies.bulk_actions import GroupChange, policies_groups_change, policies_publish, policies_reindex
from policypal.policies.ingestion import version_ingest_inline, version_reindex_inline
from policypal.policies.models import AuditEvent, Policy, PolicyVersion
from policypal.policies.selectors import POLICY_PAGE_SIZE, PolicyFilters, policy_list, search_words
from policypal.policies.services import UploadedSource, policy_upsert, policy_version_create
from retrieval.access import VERSIONS_IN_FORCE_SQL, access_params
from retrieval.models import Chunk

pytestmark = pytest.mark.django_db
Status = PolicyVersion.Status
TODAY = dt.date(2026, 6, 1)
PAST, FUTURE = dt.date(2025, 1, 1), dt.date(2027, 1, 1)


@pytest.fixture(autouse=True)
def media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path

@pytest.fixture(autouse=True)
def no_other_policies(only_this_tests_policies):
    """Only this test's policies."""


@pytest.fixture
def policy_admin(make_policy_admin):
    return make_policy_admin("console-admin")


@pytest.fixture
def employee_user(django_user_model):
    return django_user_model.objects.create_user("console-employee", password="pw-employee-123")


@pytest.fixture
def admin_client(client, policy_admin):
    client.force_login(policy_admin)
    return client


def make_policy(key: str, title: str, *versions: dict, category: str = "", groups: tuple[str, ...] = ()) -> Policy:
    """A policy with version rows (no files): each dict sets the version's fields; numbers in order."""
    policy = Policy.objects.create(key=key, title=title, category=category)
    policy.groups.set([Group.objects.get_or_create(name=name)[0] for name in groups])
    for number, fields in enumerate(versions, start=1):
        fields = {"effective_from": PAST, "status": Status.READY, "published": True, **fields}
        PolicyVersion.objects.create(policy=policy, number=number, **fields)
    return policy


def keys(*, user, as_of=TODAY, **filters) -> list[str]:
    return list(policy_list(user=user, filters=PolicyFilters(**filters), as_of=as_of).values_list("key", flat=True))


@pytest.fixture
def catalogue():
    """Policies in every state a list filter tells apart (as of TODAY)."""
    make_policy("travel", "Travel and Expenses", {"effective_from": PAST, "effective_to": FUTURE,
                                                  "headings": "Travel\nMeal allowance\nClass of travel"},
                {"effective_from": FUTURE, "headings": "Travel\nPer diem rates"}, category="Finance", groups=("finance",))
    make_policy("leave", "Leave Policy", {"headings": "Leave\nAnnual leave\nLeave of absence"}, category="People")
    make_policy("security", "Information Security", {"headings": "Passwords"},
                {"status": Status.INDEXING, "published": False, "progress": 60}, category="IT", groups=("it", "finance"))
    make_policy("old-canteen", "Canteen Rules", {"published": False, "retired_at": timezone.now(), "headings": "Canteen"})
    make_policy("draft-remote", "Remote Work (draft)", {"published": False, "headings": "Remote work"},
                {"published": False, "status": Status.FAILED, "error": "boom"}, category="People")
    for policy, changed in zip(Policy.objects.order_by("key"), [5, 1, 4, 3, 2]):
        PolicyVersion.objects.filter(policy=policy).update(updated_at=timezone.now() - dt.timedelta(days=changed))


# --- the selector -------------------------------------------------------------------------------

def test_search_matches_title_key_and_the_headings_of_the_version_in_force(policy_admin, catalogue):
    assert keys(user=policy_admin, q="expenses") == ["travel"]  # title, a substring
    assert keys(user=policy_admin, q="CANTEEN") == ["old-canteen"]  # key and title, any case
    assert keys(user=policy_admin, q="meal allow") == ["travel"]  # heading words, by prefix
    assert keys(user=policy_admin, q="leave of absence") == ["leave"]  # "of" is no stop word here
    assert keys(user=policy_admin, q="passwords") == ["security"]  # in force (the latest is still indexing)
    assert keys(user=policy_admin, q="remote work") == ["draft-remote"]  # title and the latest's headings
    # "Per diem" is a heading of the announced version only: not the current one, not found...
    assert keys(user=policy_admin, q="diem") == []
    # ... until that version is in force.
    assert keys(user=policy_admin, q="diem", as_of=FUTURE) == ["travel"]
    assert keys(user=policy_admin, q="meal", as_of=FUTURE) == []
    assert keys(user=policy_admin, q="travel leave") == []  # every word must match
    assert keys(user=policy_admin, q="  ") == keys(user=policy_admin)


def test_search_words_are_plain_words_safe_in_a_tsquery():
    assert search_words("Meal & (allowance):* 'x' | !6.1 meal") == ["meal", "allowance", "x", "6", "1"]
    assert len(search_words(" ".join(f"w{i}" for i in range(20)))) == 8


def test_filters_each(policy_admin, catalogue):
    assert keys(user=policy_admin, status="failed") == ["draft-remote"]
    assert keys(user=policy_admin, status="processing") == ["security"]
    assert keys(user=policy_admin, status="indexing") == ["security"]
    assert keys(user=policy_admin, status="ready") == ["old-canteen", "leave", "travel"]  # by title
    finance = Group.objects.get(name="finance")
    assert keys(user=policy_admin, group=str(finance.pk)) == ["security", "travel"]
    assert keys(user=policy_admin, group="everyone") == ["old-canteen", "leave", "draft-remote"]
    assert keys(user=policy_admin, category="People") == ["leave", "draft-remote"]
    assert keys(user=policy_admin, state="in_force") == ["security", "leave", "travel"]
    assert keys(user=policy_admin, state="announced") == ["travel"]
    assert keys(user=policy_admin, state="retired") == ["old-canteen"]
    assert keys(user=policy_admin, state="unpublished") == ["draft-remote"]
    assert keys(user=policy_admin, category="People", state="in_force", q="annual") == ["leave"]


def test_in_force_is_the_rule_retrieval_answers_from(policy_admin, catalogue):
    """The list's "in force" version is the one retrieval.access lets questions reach."""
    with connection.cursor() as cursor:
        cursor.execute(VERSIONS_IN_FORCE_SQL, {**access_params(policy_admin, TODAY), "all": True})
        answering = {pk for (pk,) in cursor.fetchall()}
    listed = policy_list(user=policy_admin, filters=PolicyFilters(), as_of=TODAY)
    assert {p.in_force_id for p in listed if p.in_force_id} == answering


def test_sorting(policy_admin, catalogue):
    assert keys(user=policy_admin, sort="title") == ["old-canteen", "security", "leave", "draft-remote", "travel"]
    assert keys(user=policy_admin, sort="-title") == ["travel", "draft-remote", "leave", "security", "old-canteen"]
    assert keys(user=policy_admin, sort="key") == ["draft-remote", "leave", "old-canteen", "security", "travel"]
    assert keys(user=policy_admin, sort="-updated") == ["leave", "travel", "security", "old-canteen", "draft-remote"]
    assert keys(user=policy_admin, sort="updated")[0] == "draft-remote"
    PolicyVersion.objects.filter(policy__key="leave").update(effective_from=dt.date(2024, 3, 1))
    assert keys(user=policy_admin, sort="effective")[0] == "leave"
    assert keys(user=policy_admin, sort="nonsense") == keys(user=policy_admin, sort="title")


def test_the_selector_shows_nothing_to_a_user_who_is_not_a_policy_admin(employee_user, catalogue):
    assert keys(user=employee_user) == []


# --- the page -----------------------------------------------------------------------------------

def _rows(html: str) -> list[str]:
    return re.findall(r'<tr id="policy-([\w-]+)" class="policy-row"', html)


def test_the_page_filters_sorts_and_pages_with_get_parameters_that_survive_paging(admin_client):
    Policy.objects.bulk_create([Policy(key=f"p{i:03d}", title=f"Policy {i:03d}", category="HR" if i % 2 else "IT")
                                for i in range(130)])
    html = admin_client.get("/manage/", {"category": "HR", "sort": "-key", "q": "policy"}).content.decode()
    rows = _rows(html)
    assert len(rows) == POLICY_PAGE_SIZE and rows[0] == "p129" and rows[1] == "p127"
    assert "1–50 of 65" in html
    next_link = re.search(r'href="\?([^"]+)" id="page-next"', html).group(1).replace("&amp;", "&")
    assert {"category=HR", "sort=-key", "q=policy", "page=2"} <= set(next_link.split("&"))
    html = admin_client.get(f"/manage/?{next_link}").content.decode()
    assert _rows(html)[0] == "p029" and "51–65 of 65" in html and 'id="page-next"' not in html
    assert 'value="policy"' in html and '<option value="HR" selected>' in html  # the form shows its filters
    # the bulk form carries the filters (not the page), to come back to them
    carried = re.search(r'name="query" value="([^"]*)"', html).group(1).replace("&amp;", "&")
    assert set(carried.split("&")) == {"category=HR", "sort=-key", "q=policy"}


def test_bad_parameters_are_ignored_not_errors(admin_client):
    make_policy("leave", "Leave Policy")
    response = admin_client.get("/manage/", {"status": "bogus", "group": "x", "sort": "drop table", "page": "zz"})
    assert response.status_code == 200 and _rows(response.content.decode()) == ["leave"]


def test_an_htmx_search_returns_only_the_results(admin_client):
    make_policy("leave", "Leave Policy", {"headings": "Annual leave"})
    make_policy("travel", "Travel Policy")
    response = admin_client.get("/manage/", {"q": "annual"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="policy-results")
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="card card--flush policy-results" id="policy-results"')
    assert _rows(html) == ["leave"] and "<html" not in html


def test_no_match_says_so(admin_client):
    make_policy("leave", "Leave Policy")
    html = admin_client.get("/manage/", {"q": "zebra"}).content.decode()
    assert 'id="policy-empty"' in html and "No policy matches" in html and "zebra" in html


def test_headings_are_stored_when_a_version_turns_ready_and_found_by_the_search(admin_client, policy_admin):
    policy = policy_upsert(key="console-remote", title="Remote Work Policy", group_names=[])
    content = b"# Remote Work Policy\n\n## 1 Working from home\n\n### 1.1 Home office allowance\n\nUp to 4,000 a year.\n"
    version = policy_version_create(policy=policy, sources=[UploadedSource(name="remote.md", content=content)],
                                    effective_from=dt.date(2025, 1, 1), enqueue=False)
    assert PolicyVersion.objects.get(pk=version.pk).headings == ""
    version = version_ingest_inline(version_id=version.pk)
    assert version.status == Status.READY
    assert version.headings.splitlines() == ["Remote Work Policy", "1 Working from home", "1.1 Home office allowance"]
    assert keys(user=policy_admin, q="office allow", as_of=timezone.localdate()) == ["console-remote"]
    assert _rows(admin_client.get("/manage/", {"q": "home office"}).content.decode()) == ["console-remote"]


# --- 5,000 policies -----------------------------------------------------------------------------

@pytest.fixture
def five_thousand():
    """5,000 policies, 7,500 versions: in force, announced, superseded, failed; 3 groups, 10 categories."""
    groups = [Group.objects.get_or_create(name=name)[0] for name in ("finance", "people", "it")]
    policies = Policy.objects.bulk_create([
        Policy(key=f"policy-{i:04d}", title=f"Policy {i:04d} {'Travel' if i % 7 == 0 else 'Conduct'}",
               category=f"Category {i % 10}") for i in range(5000)
    ])
    Policy.groups.through.objects.bulk_create([
        Policy.groups.through(policy_id=p.pk, group_id=groups[i % 3].pk) for i, p in enumerate(policies) if i % 4
    ])
    versions = []
    for i, p in enumerate(policies):
        versions.append(PolicyVersion(policy=p, number=1, effective_from=PAST, status=Status.READY, published=True,
                                      effective_to=FUTURE if i % 2 else None, progress=100,
                                      headings=f"Policy {i}\nSection {i % 50}\nMeal allowance" if i % 5 == 0 else f"Section {i}"))
        if i % 2:
            status = Status.READY if i % 3 else Status.FAILED
            versions.append(PolicyVersion(policy=p, number=2, effective_from=FUTURE, status=status,
                                          published=status == Status.READY, headings="Announced changes"))
    PolicyVersion.objects.bulk_create(versions)
    return policies


@pytest.mark.parametrize("params", [
    {},
    {"q": "meal allowance", "category": "Category 5", "sort": "-updated", "page": "3"},
    {"status": "failed", "state": "in_force", "category": "Category 3", "sort": "effective", "page": "2"},
    {"group": "everyone", "state": "in_force", "sort": "-title", "page": "4"},
    {"q": "travel", "sort": "-key", "page": "last"},
])
def test_the_page_at_5000_policies_is_one_page_in_a_bounded_number_of_queries(admin_client, five_thousand, params):
    with CaptureQueriesContext(connection) as queries:
        response = admin_client.get("/manage/", params)
    html = response.content.decode()
    assert response.status_code == 200
    # session, user, the user's groups (for every role check), the filters' groups and categories,
    # the count, the page, its groups, its versions: 9, whatever the number of policies
    assert len(queries) <= 9, "\n".join(q["sql"][:200] for q in queries.captured_queries)
    rows = _rows(html)
    assert 0 < len(rows) <= POLICY_PAGE_SIZE
    assert len(html) < 150_000
    if not params:
        assert len(rows) == POLICY_PAGE_SIZE and "1–50 of 5,000" in html and "Page 1 of 100" in html


def test_the_headings_search_is_one_hashed_subquery_that_the_gin_index_serves(five_thousand, policy_admin):
    """Each search word's versions are found once (a hashed subplan), not per policy row; the GIN
    index on the generated tsvector serves that lookup (here the planner prefers a scan of the
    7,500 small rows; with scans made expensive, the index is taken: its config matches)."""
    queryset = policy_list(user=policy_admin, filters=PolicyFilters(q="meal allowance"), as_of=TODAY)
    assert queryset.explain().count("hashed SubPlan") == 2
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        assert "Bitmap Index Scan on version_headings_search" in queryset.explain()
    assert queryset.count() == 1000


# --- bulk actions -------------------------------------------------------------------------------

def _post_bulk(client, **data):
    return client.post("/manage/bulk/", data)


def test_bulk_publish_asks_first_then_publishes_and_audits(admin_client, policy_admin):
    draft = make_policy("leave", "Leave Policy", {"published": False, "publish_when_ready": False})
    failed = make_policy("travel", "Travel Policy", {"status": Status.FAILED, "published": False})
    published = make_policy("it", "IT Policy", {})
    ids = [draft.pk, failed.pk, published.pk]
    response = _post_bulk(admin_client, ids=ids, action="publish", query="q=policy")
    html = response.content.decode()
    assert response.status_code == 200 and 'id="bulk-plan"' in html
    assert "publish v1 (effective 1 Jan 2025)" in html
    assert "no ready version (v1 is failed)" in html and "already published" in html
    assert not PolicyVersion.objects.get(policy=draft).published  # nothing happened yet
    assert not AuditEvent.objects.exists()

    response = _post_bulk(admin_client, ids=",".join(map(str, ids)), action="publish", query="q=policy", confirm="yes")
    assert response.status_code == 302 and response["Location"] == "/manage/?q=policy"
    assert PolicyVersion.objects.get(policy=draft).published
    event = AuditEvent.objects.get()
    assert (event.action, event.target, event.actor, event.actor_name, event.policy) == (
        "publish", "leave v1", policy_admin, "console-admin", draft)
    assert event.version == PolicyVersion.objects.get(policy=draft) and "publish v1" in event.detail
    messages = [m.message for m in response.wsgi_request._messages]
    assert messages == ["Published: 1 policy. Left as they were: 2 (it: v1, its latest ready version, is already "
                        "published; travel: no ready version (v1 is failed))."]


def test_bulk_retire_retires_every_published_version(admin_client, policy_admin):
    policy = make_policy("travel", "Travel Policy", {"effective_to": FUTURE}, {"effective_from": FUTURE})
    other = make_policy("leave", "Leave Policy", {"published": False})
    _post_bulk(admin_client, ids=[policy.pk, other.pk], action="retire", confirm="yes")
    assert not PolicyVersion.objects.filter(policy=policy, published=True).exists()
    assert PolicyVersion.objects.filter(policy=policy, retired_at__isnull=False).count() == 2
    assert sorted(AuditEvent.objects.values_list("action", "target")) == [("retire", "travel v1"), ("retire", "travel v2")]
    assert keys(user=policy_admin, state="retired") == ["travel"]


def test_bulk_change_groups_add_remove_set(admin_client):
    finance, people = (Group.objects.get_or_create(name=n)[0] for n in ("finance", "people"))
    a = make_policy("travel", "Travel Policy", {}, groups=("finance",))
    b = make_policy("leave", "Leave Policy", {})
    _post_bulk(admin_client, ids=[a.pk, b.pk], action="groups", group_mode="add", groups=[people.pk], confirm="yes")
    assert {g.name for g in a.groups.all()} == {"finance", "people"} and {g.name for g in b.groups.all()} == {"people"}
    _post_bulk(admin_client, ids=[a.pk, b.pk], action="groups", group_mode="remove", groups=[finance.pk], confirm="yes")
    assert {g.name for g in a.groups.all()} == {"people"}
    details = list(AuditEvent.objects.filter(action="groups").order_by("id").values_list("target", "detail"))
    assert details == [
        ("leave", "bulk action: readable by people (was everyone signed in)"),
        ("travel", "bulk action: readable by finance, people (was finance)"),
        ("travel", "bulk action: readable by people (was finance, people)"),
    ]  # leave was left as it was by the removal: no event
    response = _post_bulk(admin_client, ids=[a.pk], action="groups", group_mode="set")
    assert "every signed-in user may read these policies" in response.content.decode()
    _post_bulk(admin_client, ids=[a.pk], action="groups", group_mode="set", confirm="yes")
    assert not a.groups.exists()


def test_bulk_action_on_every_policy_matching_the_filters(admin_client):
    for i in range(3):
        make_policy(f"hr-{i}", f"HR {i}", {"published": False}, category="HR")
    make_policy("it", "IT", {"published": False}, category="IT")
    _post_bulk(admin_client, scope="matching", query="category=HR", action="publish", confirm="yes")
    assert set(PolicyVersion.objects.filter(published=True).values_list("policy__key", flat=True)) == {"hr-0", "hr-1", "hr-2"}
    assert AuditEvent.objects.count() == 3


def test_bulk_form_errors_go_back_to_the_list_with_a_message(admin_client):
    make_policy("leave", "Leave Policy")
    response = _post_bulk(admin_client, action="publish", query="q=leave")
    assert response.status_code == 302 and response["Location"] == "/manage/?q=leave"
    html = admin_client.get(response["Location"]).content.decode()
    assert "Select at least one policy" in html
    response = _post_bulk(admin_client, ids=[Policy.objects.get().pk], action="groups", group_mode="add")
    assert "Choose the groups to add or remove." in admin_client.get(response["Location"]).content.decode()


def test_bulk_reindex_queues_a_reindex_and_the_version_stays_ready_until_the_swap(
    admin_client, django_capture_on_commit_callbacks
):
    policy = policy_upsert(key="console-leave", title="Leave Policy", group_names=[])
    content = b"# Leave Policy\n\n## 1 Annual leave\n\nEmployees get 24 days of annual leave a year.\n"
    version = policy_version_create(policy=policy, sources=[UploadedSource(name="leave.md", content=content)],
                                    effective_from=dt.date(2025, 1, 1), enqueue=False)
    version = version_ingest_inline(version_id=version.pk)
    old_chunks = set(Chunk.objects.filter(version=version).values_list("pk", flat=True))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = _post_bulk(admin_client, ids=[policy.pk], action="reindex", confirm="yes")
    assert response.status_code == 302
    version.refresh_from_db()
    assert (version.status, version.progress, version.published) == (Status.READY, 100, True)
    assert version.is_reindexing and set(Chunk.objects.filter(version=version).values_list("pk", flat=True)) == old_chunks
    assert len(callbacks) == 1  # the re-index message, queued on commit
    assert AuditEvent.objects.get().action == "reindex"
    # What the worker does with that message: chunk and embed again, then swap.
    version = version_reindex_inline(version_id=version.pk)
    assert version.status == Status.READY and version.published and not version.is_reindexing
    new_chunks = set(Chunk.objects.filter(version=version).values_list("pk", flat=True))
    assert new_chunks and not (new_chunks & old_chunks)
    assert "1 Annual leave" in version.headings


def test_reindex_leaves_versions_that_are_not_ready_or_retired(admin_client):
    make_policy("a", "A", {"status": Status.FAILED, "published": False})
    make_policy("b", "B", {"published": False, "retired_at": timezone.now()})
    response = _post_bulk(admin_client, ids=list(Policy.objects.values_list("pk", flat=True)), action="reindex")
    html = response.content.decode()
    assert html.count("no ready version that is not retired") == 2 and 'disabled id="bulk-confirm"' in html


def test_bulk_actions_are_for_policy_admins_only(client, employee_user, policy_admin):
    policy = make_policy("leave", "Leave Policy", {"published": False})
    client.force_login(employee_user)
    for action in ("publish", "retire", "reindex", "groups"):
        response = client.post("/manage/bulk/", {"ids": [policy.pk], "action": action, "group_mode": "set", "confirm": "yes"})
        assert response.status_code == 403
    assert not PolicyVersion.objects.filter(published=True).exists() and not AuditEvent.objects.exists()
    with pytest.raises(PermissionDenied):
        policies_publish(actor=employee_user, policy_ids=[policy.pk])
    with pytest.raises(PermissionDenied):
        policies_groups_change(actor=employee_user, policy_ids=[policy.pk], change=GroupChange(mode="set"))
    with pytest.raises(PermissionDenied):
        policies_reindex(actor=None, policy_ids=[policy.pk])
    assert policies_publish(actor=policy_admin, policy_ids=[policy.pk]).done == ["leave: publish v1 (effective 1 Jan 2025)"]
