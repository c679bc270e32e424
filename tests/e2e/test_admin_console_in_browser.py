"""The admin console in headless Chromium: the policy list's live search, filters and pages (the
filters surviving paging), a bulk action through its confirm page, and a zip import from upload to
the batch's progress reaching finished on a real Celery worker. No Content-Security-Policy
violation on the way. Screenshots of every step go to test-output/screenshots/."""
from __future__ import annotations

import datetime as dt
import io
import re
import zipfile

import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import expect

from policypal.policies.models import AuditEvent, Policy, PolicyVersion
from tests.conftest import policy_admin_user, signed_in_page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "console-Browser-42"
CATEGORIES = ("Finance", "People", "IT", "Facilities")


@pytest.fixture
def admin(django_user_model):
    return policy_admin_user(django_user_model, "console-e2e-admin", PASSWORD)


@pytest.fixture
def no_other_policies(transactional_db):
    """Only this test's policies: the sample corpus that other tests keep in the database is
    removed (the database is emptied after this test in any case, and the corpus put back for the
    next test that asks for it)."""
    Policy.objects.all().delete()


@pytest.fixture
def catalogue(no_other_policies):
    """240 policies in four categories, most in force, some announced, failed, processing or never
    published."""
    groups = [Group.objects.get_or_create(name=name)[0] for name in ("finance-team", "people-team", "it-team")]
    topics = ["Travel", "Leave", "Expenses", "Security", "Equipment", "Conduct", "Privacy", "Training", "Hiring", "Safety"]
    policies = Policy.objects.bulk_create([
        Policy(key=f"{topics[i % 10].lower()}-{i:03d}", title=f"{topics[i % 10]} Policy {i:03d}", category=CATEGORIES[i % 4])
        for i in range(240)
    ])
    Policy.groups.through.objects.bulk_create([
        Policy.groups.through(policy_id=p.pk, group_id=groups[i % 3].pk) for i, p in enumerate(policies) if i % 5
    ])
    versions = []
    for i, p in enumerate(policies):
        headings = f"{p.title}\n1 Purpose\n2 Meal allowance\n3 Approvals" if i % 10 == 0 else f"{p.title}\n1 Purpose\n2 Rules"
        published = i % 9 != 4
        versions.append(PolicyVersion(policy=p, number=1, effective_from=dt.date(2025, 1, 1), status="ready",
                                      published=published, progress=100, headings=headings,
                                      effective_to=dt.date(2027, 1, 1) if i % 6 == 1 else None))
        if i % 6 == 1:
            versions.append(PolicyVersion(policy=p, number=2, effective_from=dt.date(2027, 1, 1), status="ready",
                                          published=True, progress=100, headings=headings))
        elif i % 13 == 3:
            versions.append(PolicyVersion(policy=p, number=2, effective_from=dt.date(2026, 6, 1), status="failed",
                                          error="handbook.docx: not a Word document"))
        elif i % 17 == 5:
            versions.append(PolicyVersion(policy=p, number=2, effective_from=dt.date(2026, 6, 1), status="indexing",
                                          progress=62, running_step="indexing"))
    PolicyVersion.objects.bulk_create(versions)
    return policies


@pytest.fixture
def shot(screenshots):
    """A screenshot, then the empty style attributes it leaves on inputs removed: Playwright hides
    the caret with them, and htmx, settling a swapped element, would copy them onto the new one,
    which the Content-Security-Policy (style-src 'self') reports as an inline style."""

    def take(page, step: str):
        path = screenshots(page, step)
        page.evaluate("document.querySelectorAll('[style=\"\"]').forEach(e => e.removeAttribute('style'))")
        return path

    return take


def _watch_csp(page) -> list[str]:
    violations: list[str] = []
    page.on("console", lambda m: violations.append(f"{m.text} at {m.location} on {page.url}") if "Content Security Policy" in m.text else None)
    return violations


def test_policy_list_search_filters_paging_and_a_bulk_action(live_server, browser, admin, catalogue, shot):
    context, page = signed_in_page(browser, live_server, admin.username, PASSWORD)
    violations = _watch_csp(page)
    rows = page.locator("#policy-table tbody tr.policy-row")
    try:
        page.goto(f"{live_server.url}/manage/")
        expect(page.locator("#result-count")).to_contain_text("240 policies")
        expect(rows).to_have_count(50)
        expect(page.locator("#page-number")).to_have_text("Page 1 of 5")
        shot(page, "list")

        # Live search over headings: the results change without a page load, the address follows.
        page.fill("#id_q", "meal allow")
        expect(page.locator("#result-count")).to_contain_text("24 policies match")
        expect(page).to_have_url(re.compile(r"q=meal(\+|%20)allow"))
        expect(rows.first).to_contain_text("Travel Policy")
        shot(page, "search")

        # A filter on top of the search.
        page.select_option("#id_category", "Finance")
        expect(page.locator("#result-count")).to_contain_text("12 policies match")
        expect(page).to_have_url(re.compile(r"category=Finance"))

        # Paging keeps the filters: clear the search, keep Finance, sort by key Z to A.
        page.fill("#id_q", "")
        expect(page.locator("#result-count")).to_contain_text("60 policies match")
        page.select_option("#id_sort", "-key")
        expect(page).to_have_url(re.compile(r"sort=-key"))
        expect(rows).to_have_count(50)
        page.click("#page-next")
        expect(page).to_have_url(re.compile(r"page=2"))
        expect(page).to_have_url(re.compile(r"category=Finance"))
        expect(page).to_have_url(re.compile(r"sort=-key"))
        expect(page.locator("#id_category")).to_have_value("Finance")
        expect(page.locator("#id_sort")).to_have_value("-key")
        expect(rows).to_have_count(10)
        expect(page.locator("#page-range")).to_have_text("51–60 of 60")
        expect(page.locator("#sort-key")).to_have_class(re.compile("is-desc"))
        shot(page, "filtered-page-2")

        # Back to page 1 of Finance, select two policies and change who may read them.
        page.goto(f"{live_server.url}/manage/?category=Finance&sort=title")
        expect(page.locator("#bulk-groups")).to_be_hidden()
        page.locator("#policy-table tbody input[name=ids]").nth(0).check()
        page.locator("#policy-table tbody input[name=ids]").nth(1).check()
        expect(page.locator("#bulk-selected")).to_have_text("· 2 selected")
        page.select_option("#bulk-action", "groups")
        expect(page.locator("#bulk-groups")).to_be_visible()
        page.select_option("#bulk-group-mode", "set")
        page.locator("#bulk-groups label.check", has_text="it-team").locator("input").check()
        shot(page, "bulk-selection")
        page.click("#bulk-apply")
        expect(page.locator("h1")).to_contain_text("Change who may read them?")
        expect(page.locator("#bulk-plan tbody tr")).to_have_count(2)
        shot(page, "bulk-confirm")
        page.click("#bulk-confirm")
        expect(page.locator("#messages")).to_contain_text("Changed who may read: 2 policies.")
        expect(page.locator("#id_category")).to_have_value("Finance")  # back to the same list
        expect(rows.nth(0).locator(".policy-table__groups")).to_have_text("it-team")
        shot(page, "bulk-done")
        assert AuditEvent.objects.filter(action="groups").count() == 2
        assert not violations, "\n".join(v[-400:] for v in violations)
    finally:
        context.close()


def _zip(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return out.getvalue()


def test_zip_import_from_upload_to_the_batch_finished(
    live_server, browser, admin, celery_worker_process, shot, tmp_path, no_other_policies
):
    archive = tmp_path / "policies-2026.zip"
    archive.write_bytes(_zip({
        "policies-2026/people/leave.md": b"# Leave Policy\n\n## 1 Annual leave\n\nEmployees get 24 days of annual leave a year.\n",
        "policies-2026/people/parental-leave.md": b"# Parental Leave\n\n## 1 Eligibility\n\nAfter six months of service.\n",
        "policies-2026/finance/travel.md": b"# Travel\n\n## 1 Booking\n\nBook trains through TravelDesk.\n",
        "policies-2026/finance/notes.txt": b"not a policy",
        "policies-2026/manifest.yaml": b"- path: finance/travel.md\n  key: travel\n  title: Travel and Expenses Policy\n"
                                       b"- path: people\n  category: People\n  groups: [people-team]\n",
    }))
    context, page = signed_in_page(browser, live_server, admin.username, PASSWORD)
    violations = _watch_csp(page)
    try:
        page.goto(f"{live_server.url}/manage/")
        page.click("#import-link")
        page.set_input_files("#id_archive", str(archive))
        page.fill("#id_effective_from", "2026-01-01")
        shot(page, "upload-form")
        page.click("#import-submit")

        expect(page).to_have_url(re.compile(r"/manage/import/[0-9a-f-]+/$"))
        expect(page.locator("#count-new")).to_have_text("3")
        expect(page.locator("#count-invalid")).to_have_text("1")
        expect(page.locator("#plan-table")).to_contain_text("Travel and Expenses Policy")
        expect(page.locator("#plan-table")).to_contain_text("finance/notes.txt: this file type is not supported")
        shot(page, "plan")
        page.click("#plan-confirm")

        expect(page).to_have_url(re.compile(r"/progress/$"))
        expect(page.locator("#messages")).to_contain_text("queued for processing")
        shot(page, "progress")
        expect(page.locator("#batch-status")).to_have_text("finished", timeout=240_000)
        expect(page.locator("#batch-ready")).to_have_text("3")
        expect(page.locator("#batch-percent")).to_have_text("100%")
        shot(page, "finished")
        assert not violations, violations
    finally:
        context.close()
    assert set(Policy.objects.values_list("key", flat=True)) == {"travel", "people-leave", "people-parental-leave"}
    assert PolicyVersion.objects.filter(status="ready", published=True).count() == 3
