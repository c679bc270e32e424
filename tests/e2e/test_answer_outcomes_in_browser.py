"""The three outcomes as an employee sees them, in headless Chromium: the named table row,
a row the table does not have, a partly answered question, and a question no policy covers
with its closest sections. Screenshots go to test-output/screenshots/."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import signed_in_page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "outcomes-Page-42"


@pytest.fixture
def rates_policy_alone(transactional_db):
    """The sample rates policy and no other, whatever ran before (a test before this one may have
    left the whole sample corpus in the database, or nothing): the outcomes below are those of that
    policy alone (with the travel policy in, for one, "gym" is mentioned)."""
    from policypal.policies.ingestion import version_ingest_inline
    from policypal.policies.models import Policy
    from policypal.policies.samples import sample_manifest, samples_ingest

    Policy.objects.exclude(key="travel-rates").delete()
    entries = [e for e in sample_manifest() if e.policy == "travel-rates"]
    for version in samples_ingest(entries, enqueue=False):
        assert version_ingest_inline(version_id=version.pk).status == "ready"


@pytest.fixture
def page(rates_policy_alone, live_server, browser, django_user_model):
    django_user_model.objects.create_user("outcomes-employee", password=PASSWORD, first_name="Ravi")
    context, page = signed_in_page(browser, live_server, "outcomes-employee", PASSWORD, height=1000)
    expect(page.locator("#nav-username")).to_contain_text("Ravi")
    yield page
    context.close()


def ask(page, question: str) -> None:
    page.fill("#id_question", question)
    page.click("#ask-submit")
    expect(page.locator("#answer-question")).to_have_text(question, timeout=60_000)


def test_each_outcome_is_shown_as_what_it_is(page, screenshots):
    # answered: the named row, its asked column, cited by the row itself
    ask(page, "What is the daily subsistence rate for band B14 in Europe?")
    text = page.locator("#answer-text")
    expect(text).to_contain_text("Band B14: Europe: 63.10")
    expect(text).not_to_contain_text("56.30")  # B12's Europe rate
    expect(page.locator("#answer")).to_have_attribute("data-covered", "true")
    expect(page.locator("#citation-1")).to_contain_text("B14")
    # the "Searching the policies" indicator is gone once the answer is in, not a faint ghost
    expect(page.locator("#ask-indicator")).to_be_hidden()
    screenshots(page, "answered-row")

    # a band the table does not have: said to be absent, with the range, the table cited
    ask(page, "What is the daily subsistence rate for band B25 in Europe?")
    expect(page.locator("#answer-not-covered")).to_contain_text("covers bands B1 to B20; it has no row for B25")
    expect(page.locator("#answer-not-covered a.cite-marker")).to_have_count(1)
    expect(page.locator("#citations")).to_contain_text("Rates by band")
    # the whole table is cited, shown as a table, not one of its rows
    expect(page.locator("#citation-1 table")).to_have_count(1)
    expect(page.locator("#citation-1")).to_contain_text("B1")
    # every piece the table was indexed in: its last row too
    expect(page.locator("#citation-1 table tbody tr")).to_have_count(20)
    expect(page.locator("#citation-1 table")).to_contain_text("B20")
    screenshots(page, "absent-row")

    # partly answered: what the sources cover, and what they do not mention, named
    ask(page, "What is the daily subsistence rate for band B14 in Europe, and does Harbourline pay for my gym membership?")
    expect(page.locator("#answer-partly")).to_contain_text("Partly answered")
    expect(page.locator("#answer-text")).to_contain_text("do not mention gym membership")
    expect(page.locator("#answer-text")).to_contain_text("63.10")
    # the recent questions say which outcome each had
    expect(page.locator("#history .history__item").first).to_contain_text("partly answered")
    screenshots(page, "partly")

    # not covered: said plainly, with closest sections offered as links, not as citations
    ask(page, "Is there a company pension scheme?")
    expect(page.locator("#answer-not-covered")).to_contain_text("do not mention pension scheme")
    closest = page.locator("#answer-closest .closest__link")
    expect(closest.first).to_be_visible()
    assert 1 <= closest.count() <= 3
    expect(page.locator("#citations")).to_have_count(0)
    screenshots(page, "not-covered")
    closest.first.click()
    expect(page.locator("#chunk-breadcrumb")).to_contain_text("Harbourline Subsistence and Relocation Rates")
