"""A version with a future effective date does not answer today's question but does answer
an as-of question after that date; the current answer announces the coming change."""
import pytest

from tests.assistant.test_access_scope import ask_json

pytestmark = pytest.mark.django_db

QUESTION = "What is the daily meal allowance in a metro city like Mumbai for grade L4?"


def test_today_answers_from_the_version_in_force(employee, sample_corpus):
    data = ask_json(QUESTION, "employee", as_of="2026-11-29")
    assert data["covered"]
    first = data["citations"][0]
    assert first["policy"] == "travel" and first["version"] == 1
    assert first["effective_to"] == "2027-04-01"
    assert "1,800" in data["answer"]


def test_as_of_after_the_future_date_answers_from_the_new_version(employee):
    data = ask_json(QUESTION, "employee", as_of="2027-05-01")
    assert data["covered"]
    assert {c["version"] for c in data["citations"] if c["policy"] == "travel"} == {2}
    assert "2,000" in data["answer"]
    assert "1,800" not in data["answer"]


def test_today_answer_announces_the_coming_version(employee):
    data = ask_json(QUESTION, "employee", as_of="2026-11-29")
    assert any("1 April 2027" in notice for notice in data["notices"])


def test_as_of_before_any_version_is_not_covered(employee):
    data = ask_json(QUESTION, "employee", as_of="2020-01-01")
    assert all(c["policy"] != "travel" for c in data["citations"])
