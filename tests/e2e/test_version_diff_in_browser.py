"""The diff between two versions of a policy in headless Chromium: reached from the version page's
"Compare with previous version" link, sections added (green), removed (red), changed with their
word diff and changed table rows; another pair of versions picked with the form. No
Content-Security-Policy violation. Screenshots go to test-output/screenshots/."""
from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from policypal.policies.services import policy_upsert
from tests.conftest import policy_admin_user, signed_in_page
from tests.policies.test_version_diff_page import LEAVE_V1, LEAVE_V2, ingest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "diff-Browser-42"


@pytest.fixture(autouse=True)
def media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture
def admin(django_user_model):
    return policy_admin_user(django_user_model, "diff-e2e-admin", PASSWORD)


def test_compare_two_versions_from_the_version_page(live_server, browser, admin, screenshots):
    policy = policy_upsert(key="diff-leave", title="Leave Policy", group_names=[])
    ingest(policy, LEAVE_V1, effective_from=dt.date(2025, 1, 1))
    v2 = ingest(policy, LEAVE_V2, effective_from=dt.date(2027, 1, 1))
    context, page = signed_in_page(browser, live_server, admin.username, PASSWORD)
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    try:
        page.goto(f"{live_server.url}/manage/versions/{v2.pk}/")
        page.click("#compare-previous")
        expect(page.locator("h1")).to_contain_text("v1 → v2")
        expect(page.locator("#diff-count-changed")).to_have_text("3")
        sections = page.locator(".diff-section")
        expect(sections.filter(has_text="5 Parental leave")).to_have_class("card diff-section diff-section--added")
        expect(sections.filter(has_text="3 Sick leave")).to_have_class("card diff-section diff-section--removed")
        annual = sections.filter(has_text="2 Annual leave")
        expect(annual.locator("del")).to_have_text("24")
        expect(annual.locator("ins")).to_have_text("26")
        expect(page.locator('tr.diff-row--changed[data-label="L2"] del')).to_have_text("22")
        expect(page.locator('tr.diff-row--added[data-label="L4"]')).to_be_visible()
        expect(page.locator('tr.diff-row--removed[data-label="L3"]')).to_be_visible()
        screenshots(page, "diff")

        # the other way round, picked with the form
        page.select_option("#diff-from", "2")
        page.select_option("#diff-to", "1")
        page.click("#diff-compare")
        expect(page.locator("h1")).to_contain_text("v2 → v1")
        expect(page.locator("#diff-count-added")).to_have_text("1")
        assert not violations, "\n".join(violations)
    finally:
        context.close()
