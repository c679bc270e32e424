"""The built-in answerer: which sentences it keeps, on the sample policies (real index, real model)."""
import datetime as dt

import pytest

from policypal.assistant.answering import answer_compose

pytestmark = pytest.mark.django_db
TODAY = dt.date(2026, 11, 29)


def ask(user, question: str):
    return answer_compose(question=question, user=user, as_of=TODAY)


def test_a_table_question_gets_the_row_it_names_with_its_headers(employee, sample_corpus):
    answer = ask(employee, "What is the daily meal allowance in Mumbai for grade L4?")
    first = answer.text.split("\n\n")[0]
    assert "Grade L4" in first and "Metro city (includes Mumbai" in first and "1,800" in first
    # the other grades' rows are not recited
    assert "Grade L1" not in first and "Grade L5" not in first and "2,350" not in first
    assert "5.1 Daily meal allowance" in answer.citations[0].breadcrumb


def test_a_table_question_naming_no_row_keeps_every_row(employee, sample_corpus):
    answer = ask(employee, "What are the daily meal allowances for each grade and city tier?")
    assert answer.covered
    assert all(grade in answer.text for grade in ("Grade L1", "Grade L3", "Grade L5"))


def test_a_rule_comes_with_its_exception(employee, sample_corpus):
    answer = ask(employee, "Can I claim a first class train ticket for a long journey?")
    first = answer.text.split("\n\n")[0]
    assert "exceeds four hours" in first
    assert "does not apply to employees with an accessibility need" in first
    assert first.endswith("[1]")


def test_a_list_item_comes_with_its_lead_in(employee, sample_corpus):
    answer = ask(employee, "What does Harbourline pay per kilometre if I drive my own car to a client?")
    assert "Mileage is paid at these rates:" in answer.text
    assert "INR 12.50 per km" in answer.text


def test_far_from_every_policy_is_not_covered(employee, sample_corpus):
    answer = ask(employee, "How big a spot award can my manager give me?")
    assert answer.outcome == "not_covered" and not answer.covered
    assert answer.text.startswith("The policies you can see do not")
    assert answer.citations == []
    assert 1 <= len(answer.closest) <= 3  # offered to read, not cited


def test_the_announced_version_is_quoted_where_it_changes_the_rule(employee, sample_corpus):
    """Version 2 of the travel policy (from 1 April 2027) shortens the first-class journey to
    three hours; the sentence it keeps unchanged ("Approval by email ...") is not what changes."""
    answer = ask(employee, "Can I claim a first class train ticket for a long journey?")
    today, announced = answer.text.split("\n\nFrom 1 April 2027 (version 2, announced, not yet in force): ")
    assert "exceeds four hours" in today
    assert announced.startswith("First-class rail travel is reimbursable only where the scheduled journey exceeds three hours")
    assert "does not apply to employees with an accessibility need" in announced  # its exception stays with it
    assert answer.citations[-1].version.number == 2


def test_the_announced_row_is_cited_by_that_row(employee, sample_corpus):
    """Version 2 changes the L4 meal allowance: the citation of the announced paragraph shows the
    L4 row of the new table, not another row of the piece the search found."""
    answer = ask(employee, "What is the daily meal allowance in Mumbai for grade L4?")
    assert "From 1 April 2027" in answer.text
    cited = answer.citations[-1]
    assert cited.version.number == 2
    assert "Grade L4" in cited.text and "L6" not in cited.text


def test_no_announced_paragraph_when_the_cited_section_does_not_change(employee, sample_corpus):
    """Version 2 keeps "6.3 Items that are not reimbursed" as it is: the answer quotes no other
    section of version 2 as if it were the change, and the notice of the new version remains."""
    answer = ask(employee, "Which items are never reimbursed on a business trip?")
    assert "minibar items" in answer.text
    assert "From 1 April 2027" not in answer.text
    assert all(c.version.number == 1 for c in answer.citations if c.policy.key == "travel")
    assert any("1 April 2027" in n for n in answer.notices)
