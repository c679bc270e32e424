"""The chat page with a language model, in headless Chromium: the reply streams into a draft,
then the checked answer replaces it with the unsupported sentence flagged. Screenshots of both
go to test-output/screenshots/."""
from __future__ import annotations

import re
import threading

import pytest
from playwright.sync_api import expect

from tests.conftest import signed_in_page

from .llm_server import Reply, words_of

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "llm-Page-42"
MEAL_QUESTION = "What is the daily meal allowance in Mumbai for grade L4?"


@pytest.fixture
def asker(sample_corpus, django_user_model):
    return django_user_model.objects.create_user("llm-page-employee", password=PASSWORD, first_name="Asha")


def test_the_model_answer_streams_in_and_its_unsupported_sentence_is_flagged(live_server, browser, screenshots, llm, asker):
    gate = threading.Event()

    def script(request):
        n = request.source_number("L4", "1,800")
        text = (
            f"The daily meal allowance for grade L4 in a metro city such as Mumbai is INR 1,800 per day [{n}]. "
            f"In a Tier 2 city it is 1,420 [{n}]. "
            f"Meals with clients are always reimbursed in full, up to INR 5,000 per head [{n}]."
        )
        return Reply(words_of(text), pause=0.05, gate=gate, gate_timeout=20)

    llm.script = script
    context, page = signed_in_page(browser, live_server, "llm-page-employee", PASSWORD)
    expect(page.locator("#nav-username")).to_contain_text("Asha")

    page.fill("#id_question", MEAL_QUESTION)
    page.fill("#id_as_of", "2026-06-01")
    page.click("#ask-submit")
    # the first words are on the page while the model holds back the rest
    expect(page.locator("#answer-draft")).to_have_text(re.compile(r"^The daily meal"), timeout=60_000)
    expect(page.locator("#answer-draft-card")).to_contain_text("every sentence is checked against its source")
    screenshots(page, "draft")
    gate.set()

    answer = page.locator("#answer")
    expect(answer).to_contain_text("written by the language model", timeout=30_000)
    flagged = page.locator("#answer-text .claim--unsupported")
    expect(flagged).to_have_count(1)
    expect(flagged).to_contain_text("Not supported by the cited source")
    expect(flagged).to_contain_text("Meals with clients are always reimbursed in full")
    expect(page.locator("#answer-text .claim[data-supported=true]")).to_have_count(2)
    expect(page.locator("#claims-summary")).to_contain_text("1 sentence is not supported")
    expect(page.locator("#answer-draft")).to_have_count(0)
    expect(page.locator("#history")).to_contain_text(MEAL_QUESTION)
    # the flag is styled, not just text: a red badge before the sentence
    badge = flagged.locator(".claim__flag")
    assert badge.evaluate("node => getComputedStyle(node).backgroundColor") == "rgb(180, 35, 24)"
    page.evaluate("window.scrollTo(0, 0)")
    screenshots(page, "flagged")

    # a marker of the checked answer still opens its citation
    page.locator("#answer-text a.cite-marker").first.click()
    expect(page.locator("#chunk-breadcrumb")).to_contain_text("5.1 Daily meal allowance")
    context.close()
