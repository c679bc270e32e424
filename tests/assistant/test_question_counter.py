"""The ask page counts the question's characters against the limit as the asker types, and says
when the limit is reached: the browser stops a question at its maxlength, so a pasted question
longer than that would otherwise be cut without a word."""
from __future__ import annotations

import pytest

from policypal.assistant.forms import QUESTION_MAX_LENGTH
from tests.conftest import signed_in_page

PASSWORD = "pw-counter-employee-1"


@pytest.mark.e2e  # a real browser on the live server
def test_the_question_counter_follows_typing_and_names_the_limit(live_server, browser, screenshots, django_user_model):
    from playwright.sync_api import expect

    django_user_model.objects.create_user("counter-employee", password=PASSWORD)
    context, page = signed_in_page(browser, live_server, "counter-employee", PASSWORD)
    counter = page.locator("#question-count")
    expect(counter).to_have_text(f"0 of {QUESTION_MAX_LENGTH:,} characters")

    page.locator("#id_question").press_sequentially("Can I carry over leave?")
    expect(counter).to_have_text(f"23 of {QUESTION_MAX_LENGTH:,} characters")
    assert "field__count--near" not in counter.get_attribute("class")

    # a pasted question past the limit: the browser keeps the first 2,000 characters, the counter says so
    page.locator("#id_question").fill("x" * (QUESTION_MAX_LENGTH + 50))
    expect(counter).to_contain_text(f"{QUESTION_MAX_LENGTH:,} of {QUESTION_MAX_LENGTH:,} characters: the limit")
    assert "field__count--near" in counter.get_attribute("class")
    assert len(page.locator("#id_question").input_value()) == QUESTION_MAX_LENGTH
    screenshots(page, "question-at-the-limit")
    context.close()


@pytest.mark.django_db
def test_without_scripts_the_page_states_the_limit(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("counter-plain", password=PASSWORD))
    html = client.get("/").content.decode()
    assert 'id="question-count"' in html and f"Up to {QUESTION_MAX_LENGTH} characters." in html
