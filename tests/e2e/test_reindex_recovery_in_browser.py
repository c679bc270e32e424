"""A re-index that lost its message, on the version page in headless Chromium: the page says no
worker has shown progress and offers Queue again; the button sends a real message to the
broker and the page says so. No Content-Security-Policy violation. Screenshots go to
test-output/screenshots/."""
from __future__ import annotations

import datetime as dt
import json

import pytest
import redis
from django.utils import timezone
from playwright.sync_api import expect

from policypal.policies.models import Policy, PolicyVersion
from policypal.policies.pipeline import REINDEX_TASK
from tests.conftest import policy_admin_user, signed_in_page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "reindex-Browser-42"


@pytest.fixture
def admin(django_user_model):
    return policy_admin_user(django_user_model, "reindex-e2e-admin", PASSWORD)


@pytest.fixture
def queue(settings):
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    client.delete(settings.CELERY_TASK_DEFAULT_QUEUE)
    yield lambda: [json.loads(raw)["headers"]["task"] for raw in client.lrange(settings.CELERY_TASK_DEFAULT_QUEUE, 0, -1)]
    client.delete(settings.CELERY_TASK_DEFAULT_QUEUE)


def test_a_stale_reindex_is_shown_and_queued_again_from_the_version_page(live_server, browser, admin, queue, screenshots):
    policy = Policy.objects.create(key="stale-travel", title="Travel Policy", category="Finance")
    then = timezone.now() - dt.timedelta(minutes=40)
    version = PolicyVersion.objects.create(
        policy=policy, number=2, effective_from=dt.date(2026, 1, 1), status="ready", published=True, progress=100,
        progress_detail="Ready", reindex_requested_at=then, reindex_queued_at=then, heartbeat_at=then,
        reindex_progress=0, reindex_detail="Queued for re-indexing",
    )
    context, page = signed_in_page(browser, live_server, admin.username, PASSWORD)
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    try:
        page.goto(f"{live_server.url}/manage/versions/{version.pk}/")
        stale = page.locator("#version-reindex-stale")
        expect(stale).to_contain_text("No worker has shown progress on this re-index for 40 minutes")
        expect(page.locator("#version-reindexing")).to_have_class("alert alert--warning")
        screenshots(page, "stale-reindex")
        assert queue() == []

        page.click("#action-reindex-again")
        expect(page.locator("#messages")).to_contain_text("Queued the re-index of version 2 again")
        expect(page.locator("#version-reindex-stale")).to_have_count(0)
        expect(page.locator("#version-reindex-detail")).to_contain_text(
            "Queued for re-indexing again (the earlier request had shown no progress for 40 minutes)")
        screenshots(page, "queued-again")
        assert queue() == [REINDEX_TASK]
        assert not violations, violations
    finally:
        context.close()
