"""A fault inside the answer layer (a rule that raises on some question) never reaches the asker
as a server error and never as a guess: the page says no answer could be put together, offers the
closest sections of the search to read, and the server log carries the error for the policy team.

The fault is injected by replacing the answer layer's composition with one that raises; the
search, the database and the page around it are the real ones."""
from __future__ import annotations

import logging

import pytest

from policypal.assistant import answering
from policypal.assistant.answering import ANSWER_FAILED, answer_compose
from policypal.assistant.models import Answer

pytestmark = pytest.mark.django_db

QUESTION = "What is the daily meal allowance in Mumbai for grade L4?"  # answered when nothing fails


def _raise(*args, **kwargs):
    raise KeyError("an unseen word")


def test_the_sample_question_is_answered_when_the_layer_works(employee):
    composed = answer_compose(question=QUESTION, user=employee)
    assert composed.outcome == "answered" and not composed.failed


def test_a_fault_of_the_answer_layer_gives_closest_sections_and_a_logged_error(employee, monkeypatch, caplog):
    monkeypatch.setattr(answering, "compose_answer", _raise)
    with caplog.at_level(logging.ERROR, logger="policypal.assistant.answering"):
        composed = answer_compose(question=QUESTION, user=employee)
    assert composed.failed and composed.outcome == "not_covered" and composed.text == ANSWER_FAILED
    assert composed.citations == [] and 1 <= len(composed.closest) <= 3
    assert any("meal" in chunk.text.lower() for chunk in composed.closest)
    logged = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert logged and logged[0].exc_info and "an unseen word" in str(logged[0].exc_info[1])


def test_the_chat_page_shows_the_failure_as_not_covered_with_sections_to_read(client, employee, monkeypatch):
    monkeypatch.setattr(answering, "compose_answer", _raise)
    client.force_login(employee)
    response = client.post("/", {"question": QUESTION})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="answer-not-covered"' in html and "could not put an answer together" in html
    assert 'class="closest__link" href="/chunks/' in html and 'id="citations"' not in html
    saved = Answer.objects.get(user=employee, question=QUESTION)
    assert saved.outcome == "not_covered" and saved.closest and not saved.citations.exists()
