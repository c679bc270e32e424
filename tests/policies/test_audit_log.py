"""The audit log page of the admin console: who did what to which policy, newest first, filtered
by actor, action, policy key and dates, in pages whose cost does not grow with the table."""
from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from policypal.policies.models import AuditEvent, Policy
from policypal.policies.roles import REVIEWERS
from policypal.policies.selectors import AUDIT_PAGE_SIZE
from policypal.policies.services import audit_event_record

pytestmark = pytest.mark.django_db
URL = "/manage/audit/"


@pytest.fixture
def admin(make_policy_admin, only_this_tests_policies):
    AuditEvent.objects.all().delete()  # (rolled back with the test)
    return make_policy_admin("audit-admin")


@pytest.fixture
def signed_in(client, admin):
    client.force_login(admin)
    return client


def _at(day: int, hour: int = 12) -> dt.datetime:
    return timezone.make_aware(dt.datetime(2026, 3, day, hour, 0))


@pytest.fixture
def trail(admin, make_policy_admin):
    """Six events by two admins and the system, on two policies, over three days."""
    other = make_policy_admin("audit-other")
    travel = Policy.objects.create(key="travel", title="Travel Policy")
    leave = Policy.objects.create(key="leave", title="Leave Policy")
    rows = [
        (admin, "publish", travel, _at(1, 9), "travel v1"),
        (admin, "groups", leave, _at(1, 17), "leave"),
        (other, "retire", travel, _at(2, 0), "travel v1"),
        (None, "reindex", leave, _at(2, 23), "leave v2"),
        (other, "import", None, _at(3, 8), "import policies.zip"),
        (admin, "reindex", travel, _at(3, 10), "travel v2"),
    ]
    for actor, action, policy, at, target in rows:
        event = audit_event_record(actor=actor, action=action, target=target, policy=policy, detail=f"{action} detail")
        AuditEvent.objects.filter(pk=event.pk).update(at=at)
    return rows


def _targets(response) -> list[str]:
    page = response.context["page"]
    return [f"{e.actor_name}:{e.action}:{e.target}" for e in page.object_list]


def test_newest_first_with_who_what_and_links(signed_in, trail):
    response = signed_in.get(URL)
    assert response.status_code == 200
    assert _targets(response) == [
        "audit-admin:reindex:travel v2", "audit-other:import:import policies.zip", "system:reindex:leave v2",
        "audit-other:retire:travel v1", "audit-admin:groups:leave", "audit-admin:publish:travel v1",
    ]
    html = response.content.decode()
    assert "<strong>6</strong> changes recorded" in html
    assert 'class="badge badge--publish">Published<' in html and 'class="chip">system<' in html
    assert "?actor=audit-other" in html and "?policy=travel" in html  # each row filters by its actor and policy
    assert 'id="nav-manage" href="/manage/" class="nav__link is-active"' in html
    assert 'href="/manage/audit/" id="audit-link"' in signed_in.get("/manage/").content.decode()  # the console links it


@pytest.mark.parametrize(
    "query, expected",
    [
        ("actor=audit-other", ["audit-other:import:import policies.zip", "audit-other:retire:travel v1"]),
        ("actor=system", ["system:reindex:leave v2"]),
        ("action=reindex", ["audit-admin:reindex:travel v2", "system:reindex:leave v2"]),
        ("policy=travel", ["audit-admin:reindex:travel v2", "audit-other:retire:travel v1", "audit-admin:publish:travel v1"]),
        ("policy=+travel+", ["audit-admin:reindex:travel v2", "audit-other:retire:travel v1", "audit-admin:publish:travel v1"]),
        ("date_from=2026-03-02&date_to=2026-03-02", ["system:reindex:leave v2", "audit-other:retire:travel v1"]),
        ("date_to=2026-03-01", ["audit-admin:groups:leave", "audit-admin:publish:travel v1"]),
        ("date_from=2026-03-03", ["audit-admin:reindex:travel v2", "audit-other:import:import policies.zip"]),
        ("actor=audit-admin&action=reindex&policy=travel&date_from=2026-03-01", ["audit-admin:reindex:travel v2"]),
        ("policy=no-such-policy", []),
        ("actor=nobody", []),
    ],
)
def test_filters(signed_in, trail, query, expected):
    response = signed_in.get(f"{URL}?{query}")
    assert response.status_code == 200
    assert _targets(response) == expected
    html = response.content.decode()
    if expected:
        assert f"<strong>{len(expected)}</strong> change" in html and "match" in html
    else:
        assert "No change matches" in html and 'id="audit-empty"' in html


@pytest.mark.parametrize(
    "query, message, count",
    [
        ("date_from=yesterday", "From: Enter a date as YYYY-MM-DD.", 6),
        ("date_from=2026-13-45&action=publish", "From: Enter a date as YYYY-MM-DD.", 1),
        ("date_from=2026-03-03&date_to=2026-03-01", "To: The range ends (2026-03-01) before it starts (2026-03-03).", 2),
        ("action=delete-everything", "Action: Select a valid choice.", 6),
        ("page=999", "", 6),
        ("page=abc", "", 6),
    ],
)
def test_bad_filters_are_reported_and_the_rest_applied(signed_in, trail, query, message, count):
    response = signed_in.get(f"{URL}?{query}")
    assert response.status_code == 200
    html = response.content.decode()
    if message:
        assert "These filters were left out:" in html and message in html
    assert response.context["page"].paginator.count == count


def test_only_policy_admins_read_it(client, trail, django_user_model):
    assert client.get(URL).status_code == 302  # to the sign-in page
    reviewer = django_user_model.objects.create_user("audit-reviewer", password="pw-reviewer-1")
    reviewer.groups.add(Group.objects.get_or_create(name=REVIEWERS)[0])
    client.force_login(reviewer)
    assert client.get(URL).status_code == 403
    plain = django_user_model.objects.create_user("audit-employee", password="pw-employee-1")
    client.force_login(plain)
    assert client.get(URL).status_code == 403


def test_htmx_filter_renders_the_results_only(signed_in, trail):
    response = signed_in.get(f"{URL}?action=retire", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="audit-results")
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="card card--flush policy-results" id="audit-results"')
    assert "audit-other:retire" not in html and "travel v1" in html and "<html" not in html


def _many_events(admin, count: int) -> None:
    policies = list(Policy.objects.filter(key__startswith="audit-bulk-").order_by("key")) or Policy.objects.bulk_create(
        [Policy(key=f"audit-bulk-{i:03d}", title=f"Bulk Policy {i}") for i in range(40)])
    start = timezone.now() - dt.timedelta(days=60)
    AuditEvent.objects.bulk_create([
        AuditEvent(at=start + dt.timedelta(minutes=20 * i), actor=admin if i % 3 else None,
                   actor_name=admin.username if i % 3 else "system", action=("publish", "retire", "reindex", "groups")[i % 4],
                   target=f"audit-bulk-{i % 40:03d} v{i % 7 + 1}", policy=policies[i % 40], detail=f"bulk action {i}")
        for i in range(count)
    ])


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def test_a_page_costs_the_same_queries_at_thousands_of_rows(signed_in, admin):
    """Two queries for the log (count, rows) on top of the session, user and navigation: the same
    at 3,000 rows as at 30, on the first page, the last, and filtered."""
    _many_events(admin, 30)
    small = _queries(signed_in, URL)
    AuditEvent.objects.all().delete()
    _many_events(admin, 3000)
    response = signed_in.get(URL)
    assert response.context["page"].paginator.count == 3000 and len(response.context["page"].object_list) == AUDIT_PAGE_SIZE
    newest = response.context["page"].object_list[0]
    assert newest.at == AuditEvent.objects.order_by("-at").first().at
    assert _queries(signed_in, URL) == small
    assert _queries(signed_in, f"{URL}?page=60") == small
    assert _queries(signed_in, f"{URL}?actor={admin.username}&action=publish&policy=audit-bulk-004&page=2") == small
    assert _queries(signed_in, f"{URL}?date_from=2020-01-01&date_to=2099-12-31&page=3") == small
    assert small <= 7, small  # session, user, groups, count, rows, the datalist's names (+ a savepoint)
    last = signed_in.get(f"{URL}?page=60").context["page"]
    assert last.number == 60 and list(last.object_list)[-1].at == AuditEvent.objects.order_by("at").first().at


def test_no_filter_scans_the_whole_table(admin):
    """EXPLAIN of a filtered page: an index in the log's order serves each filter (which one is the
    planner's choice: at 3,000 rows, walking the date index until 50 rows match may beat the
    filter's own), never a scan and sort of the whole table."""
    from policypal.policies.forms import AuditLogForm
    from policypal.policies.selectors import audit_events_list

    _many_events(admin, 3000)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE policies_auditevent")
    for query in [{"actor": admin.username}, {"action": "retire"}, {"policy": "audit-bulk-007"}, {},
                  {"date_from": "2020-01-01", "actor": "system"}]:
        events = audit_events_list(user=admin, filters=AuditLogForm(query).filters())[:AUDIT_PAGE_SIZE]
        plan = events.explain()
        assert "Seq Scan on policies_auditevent" not in plan and "Index" in plan, (query, plan)
