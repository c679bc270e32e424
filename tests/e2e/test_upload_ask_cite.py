"""End to end in headless Chromium, with a real Celery worker process, the real database and the
real model: an admin uploads a DOCX policy and watches it reach ready; an employee asks, sees a
cited answer, and opens the citation. A broken upload ends failed with its reason on the page.
Screenshots of every step go to test-output/screenshots/."""
from __future__ import annotations

import re

import docx
import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "e2e-Secret-42"


def _remote_work_docx(path):
    document = docx.Document()
    document.add_heading("Remote Work Policy", level=0)
    document.add_heading("1 Working from home", level=1)
    document.add_heading("1.1 Eligibility", level=2)
    document.add_paragraph(
        "Employees may work from home for up to three days a week once they have completed probation."
    )
    document.add_paragraph(
        "This does not apply to roles that must be on site, such as warehouse and reception staff."
    )
    document.add_heading("1.2 Home office allowance", level=2)
    document.add_paragraph("The yearly home office allowance depends on the employee's grade:")
    table = document.add_table(rows=3, cols=2)
    for row, cells in zip(table.rows, [("Grade", "Allowance per year"), ("L1 to L3", "4,000"), ("L4 to L6", "6,500")]):
        for cell, text in zip(row.cells, cells):
            cell.text = text
    document.save(path)
    return path


@pytest.fixture
def people(sample_corpus, django_user_model):
    """A policy admin and an employee, on the app with the sample policies in it (as `make run` has)."""
    admins, _ = Group.objects.get_or_create(name="policy_admins")
    admin = django_user_model.objects.create_user("e2e-admin", password=PASSWORD)
    admin.groups.add(admins)
    employee = django_user_model.objects.create_user("e2e-employee", password=PASSWORD)
    return admin, employee


@pytest.fixture
def login(browser, live_server):
    """Signs a user in, in a browser context of its own; the contexts are closed after the test
    (an open one keeps a connection to the live server, and its thread a database session)."""
    contexts = []

    def sign_in(username):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(context)
        page = context.new_page()
        page.goto(f"{live_server.url}/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", PASSWORD)
        page.click("#login-submit")
        expect(page.locator("#nav-username")).to_contain_text(username)
        return page

    yield sign_in
    for context in contexts:
        context.close()


def test_admin_uploads_employee_asks_and_opens_the_citation(
    live_server, celery_worker_process, login, screenshots, people, tmp_path
):
    admin_page = login("e2e-admin")
    admin_page.goto(f"{live_server.url}/manage/upload/")
    admin_page.set_input_files("#id_files", str(_remote_work_docx(tmp_path / "remote-work.docx")))
    admin_page.fill("#id_key", "remote-work")
    admin_page.fill("#id_title", "Remote Work Policy")
    admin_page.fill("#id_effective_from", "2025-01-01")
    screenshots(admin_page, "upload-form")
    admin_page.click("#upload-submit")
    expect(admin_page).to_have_url(re.compile(r"/manage/versions/\d+/"))
    screenshots(admin_page, "progress")
    expect(admin_page.locator("#version-status")).to_have_text(re.compile("ready"), timeout=240_000)
    expect(admin_page.locator("#chunk-table")).to_contain_text("1.1 Eligibility")
    screenshots(admin_page, "ready")

    page = login("e2e-employee")
    page.fill("#id_question", "How many days a week can I work from home?")
    page.click("#ask-submit")
    answer = page.locator("#answer-text")
    expect(answer).to_contain_text("three days a week", timeout=60_000)
    expect(answer).to_contain_text("This does not apply to roles that must be on site")  # the exception came along
    expect(page.locator("#answer")).to_have_attribute("data-covered", re.compile("true", re.I))
    screenshots(page, "answer")

    page.locator("#citations a.citation-link").first.click()
    expect(page.locator("#chunk-breadcrumb")).to_contain_text("Remote Work Policy")
    expect(page.locator("#chunk-breadcrumb")).to_contain_text("1.1 Eligibility")
    expect(page.locator("#chunk-version")).to_contain_text("1")
    expect(page.locator("#chunk-dates")).to_contain_text("2025")
    expect(page.locator("#chunk-text")).to_contain_text("up to three days a week")
    screenshots(page, "citation")


def test_broken_upload_fails_with_its_reason_on_the_page(live_server, celery_worker_process, login, screenshots, people, tmp_path):
    broken = tmp_path / "handbook.docx"
    broken.write_bytes(b"PK\x03\x04 not really a word document")
    page = login("e2e-admin")
    page.goto(f"{live_server.url}/manage/upload/")
    page.set_input_files("#id_files", str(broken))
    page.fill("#id_key", "handbook")
    page.fill("#id_title", "Employee Handbook")
    page.fill("#id_effective_from", "2025-01-01")
    page.click("#upload-submit")
    expect(page.locator("#version-status")).to_have_text(re.compile("failed"), timeout=120_000)
    expect(page.locator("#version-error")).to_contain_text("handbook.docx")
    screenshots(page, "failed")
