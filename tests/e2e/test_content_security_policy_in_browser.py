"""The Content-Security-Policy in headless Chromium: signing in, an HTMX question, the progress
poll and the Retire confirmation all work, and the browser reports no violation (htmx needs no
eval and injects no style; no template holds an inline script, handler or style)."""
from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import expect

from policypal.policies.models import Policy, PolicyVersion
from policypal.policies.roles import POLICY_ADMINS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "csp-Browser-42"


@pytest.fixture
def versions(django_user_model):
    user = django_user_model.objects.create_user("csp-admin", password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name=POLICY_ADMINS)[0])
    policy = Policy.objects.create(key="csp-leave", title="Leave Policy")
    published = PolicyVersion.objects.create(policy=policy, number=1, effective_from=dt.date(2025, 1, 1),
                                             status=PolicyVersion.Status.READY, published=True, progress=100)
    processing = PolicyVersion.objects.create(policy=policy, number=2, effective_from=dt.date(2026, 1, 1),
                                              status=PolicyVersion.Status.CHUNKING, progress=45)
    return published, processing


def test_pages_work_under_the_policy_without_violations(live_server, browser, versions, screenshots):
    published, processing = versions
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    violations = []
    page.on("console", lambda message: violations.append(message.text) if "Content Security Policy" in message.text else None)

    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", "csp-admin")
    page.fill("#id_password", PASSWORD)
    page.click("#login-submit")
    expect(page.locator("#nav-username")).to_contain_text("csp-admin")

    page.fill("#id_question", "   ")  # passes the browser's `required`, refused by the form
    with page.expect_request(lambda request: request.method == "POST" and request.headers.get("hx-request") == "true"):
        page.click("#ask-submit")
    expect(page.locator("#ask-errors")).to_contain_text("Please type a question.")

    page.goto(f"{live_server.url}/manage/versions/{processing.pk}/")
    with page.expect_response(lambda response: "partial=progress" in response.url, timeout=5_000):
        pass  # HTMX polls the progress card
    expect(page.locator("#version-progress progress")).to_have_attribute("value", "45")
    screenshots(page, "progress")

    page.goto(f"{live_server.url}/manage/versions/{published.pk}/")
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.click("#action-retire")
    page.wait_for_timeout(300)
    published.refresh_from_db()
    assert published.retired_at is None  # dismissed: nothing posted
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#action-retire")
    expect(page.locator("#messages")).to_contain_text("Retired version 1")

    context.close()
    assert not violations, violations
