"""The audit log in headless Chromium: reached from the console, filtered in place (the address
follows), paged, with no Content-Security-Policy violation. Screenshots go to
test-output/screenshots/."""
from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from policypal.policies.models import AuditEvent, Policy, PolicyVersion
from tests.conftest import policy_admin_user, signed_in_page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "audit-Browser-42"


@pytest.fixture
def admin(django_user_model):
    return policy_admin_user(django_user_model, "audit-e2e-admin", PASSWORD)


@pytest.fixture
def trail(transactional_db, admin, django_user_model):
    """120 changes over 30 days by two admins and the system, on a handful of policies."""
    Policy.objects.all().delete()
    other = django_user_model.objects.create_user("ravi.k", password=PASSWORD)
    topics = ["travel", "leave", "expenses", "security", "equipment"]
    policies = Policy.objects.bulk_create([Policy(key=key, title=f"{key.title()} Policy") for key in topics])
    versions = PolicyVersion.objects.bulk_create([
        PolicyVersion(policy=p, number=1, effective_from=dt.date(2026, 1, 1), status="ready", progress=100, published=True)
        for p in policies
    ])
    now = timezone.now().replace(minute=0, second=0, microsecond=0)
    details = {
        "publish": "bulk action: publish v1 (effective 1 Jan 2026)",
        "retire": "bulk action: retire v1",
        "reindex": "bulk action: re-index v1",
        "groups": "bulk action: readable by finance-team (was everyone signed in)",
    }
    events = []
    for i in range(120):
        action = ("publish", "retire", "reindex", "groups")[i % 4]
        policy, version = policies[i % 5], versions[i % 5]
        actor = (admin, other, None)[i % 3]
        events.append(AuditEvent(
            at=now - dt.timedelta(hours=6 * i), actor=actor, actor_name=actor.username if actor else "system",
            action=action, target=policy.key if action == "groups" else f"{policy.key} v1", policy=policy,
            version=None if action == "groups" else version, detail=details[action] if actor else "manage.py reindex",
        ))
    events.append(AuditEvent(at=now + dt.timedelta(minutes=5), actor=admin, actor_name=admin.username, action="import",
                             target="import handbook-2026.zip",
                             detail="handbook-2026.zip: 12 new, 3 new versions, 1 unchanged, 0 invalid, 0 failed to queue"))
    AuditEvent.objects.bulk_create(events)
    return events


def test_audit_log_reached_from_the_console_filtered_and_paged(live_server, browser, admin, trail, screenshots):
    context, page = signed_in_page(browser, live_server, admin.username, PASSWORD)
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    rows = page.locator("#audit-table tbody tr.audit-row")
    try:
        page.goto(f"{live_server.url}/manage/")
        page.click("#audit-link")
        expect(page).to_have_url(re.compile(r"/manage/audit/$"))
        expect(page.locator("h1")).to_have_text("Audit log")
        expect(page.locator("#result-count")).to_contain_text("121 changes recorded")
        expect(rows).to_have_count(50)
        expect(rows.first).to_contain_text("import handbook-2026.zip")  # the newest first
        expect(page.locator("#page-number")).to_have_text("Page 1 of 3")
        screenshots(page, "audit-log")

        # Filters apply in place, and the address follows them.
        page.select_option("#id_action", "reindex")
        expect(page.locator("#result-count")).to_contain_text("30 changes match the filters")
        expect(page).to_have_url(re.compile(r"action=reindex"))
        page.fill("#id_policy", "travel")
        expect(page.locator("#result-count")).to_contain_text("6 changes match")
        expect(page).to_have_url(re.compile(r"policy=travel"))
        for text in rows.all_inner_texts():
            assert "travel v1" in text and "Re-indexed" in text
        page.fill("#id_actor", "system")
        expect(page.locator("#result-count")).to_contain_text("2 changes match")
        screenshots(page, "audit-log-filtered")

        # A date range in the future: nothing matches, said plainly.
        page.fill("#id_date_from", (timezone.localdate() + dt.timedelta(days=2)).isoformat())
        expect(page.locator("#audit-empty")).to_contain_text("No change matches")

        # A range that ends before it starts: the message says so; the other filters still apply.
        page.goto(f"{live_server.url}/manage/audit/?action=retire&date_from=2026-06-01&date_to=2026-05-01")
        expect(page.locator("#form-errors")).to_contain_text("The range ends (2026-05-01) before it starts (2026-06-01).")
        expect(page.locator("#result-count")).to_contain_text("30 changes match")
        screenshots(page, "audit-log-bad-range")

        # Clicking an actor narrows to that actor; the pages keep the filters.
        page.goto(f"{live_server.url}/manage/audit/?action=publish")
        page.locator("#audit-table a.audit-filter-link", has_text="ravi.k").first.click()
        expect(page).to_have_url(re.compile(r"actor=ravi\.k"))
        expect(page.locator("#result-count")).to_contain_text("10 changes match")
        since = timezone.localdate() - dt.timedelta(days=20)
        expected = AuditEvent.objects.filter(
            at__gte=timezone.make_aware(dt.datetime.combine(since, dt.time.min)), actor_name="system").count()
        page.goto(f"{live_server.url}/manage/audit/?date_from={since.isoformat()}")
        page.fill("#id_actor", "system")
        expect(page.locator("#result-count")).to_contain_text(f"{expected} changes match")
        page.goto(f"{live_server.url}/manage/audit/?date_from={since.isoformat()}")
        total = AuditEvent.objects.filter(at__gte=timezone.make_aware(dt.datetime.combine(since, dt.time.min))).count()
        assert total > 50
        page.click("#page-next")
        expect(page).to_have_url(re.compile(r"page=2"))
        expect(page).to_have_url(re.compile(rf"date_from={since.isoformat()}"))
        expect(page.locator("#id_date_from")).to_have_value(since.isoformat())
        expect(page.locator("#page-range")).to_have_text(f"51–{total} of {total}")
        screenshots(page, "audit-log-page-2")
        assert not violations, violations
    finally:
        context.close()
