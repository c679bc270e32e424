"""Fidelity on the real pipeline (sample policies, real index and model): the named row and no
other, an absent label said to be absent, a definition followed to its rule, an honest "not
covered" with closest sections."""
import datetime as dt

import pytest

from policypal.assistant.answering import answer_compose

pytestmark = pytest.mark.django_db
TODAY = dt.date(2026, 11, 29)


def ask(user, question: str):
    return answer_compose(question=question, user=user, as_of=TODAY)


@pytest.mark.parametrize("question", [
    "What is the daily subsistence rate for band B14 in Europe?",
    "b14 europe subsistence per day?",
    "I'm in band 14 and travelling to Europe: what daily subsistence do I get?",
])
def test_the_named_band_row_is_answered_and_no_neighbour(employee, sample_corpus, question):
    answer = ask(employee, question)
    assert answer.outcome == "answered"
    first = answer.text.split("\n\n")[0]
    assert "B14" in first and "Europe: 63.10" in first
    for other in ("56.30", "60.90", "63.80", "66.40", "39.90"):  # Europe for B12, B13, B15, B16, B2
        assert other not in answer.text
    assert answer.citations[0].kind == "table_row" and "B14" in answer.citations[0].text


def test_a_band_the_table_lacks_is_said_to_be_absent_with_its_range(employee, sample_corpus):
    answer = ask(employee, "What is the daily subsistence rate for band B25 in Europe?")
    assert answer.outcome == "not_covered"
    assert "bands B1 to B20" in answer.text and "no row for B25" in answer.text
    assert "63.10" not in answer.text and "56.30" not in answer.text
    assert [c.kind for c in answer.citations] == ["table"] and answer.citations[0].breadcrumb.endswith("Rates by band")


def test_a_definition_is_followed_to_the_rule_that_uses_the_term(employee, sample_corpus):
    answer = ask(employee, "How often is access reviewed for a database that holds payment card data?")
    assert answer.outcome != "not_covered"
    assert "For a Restricted System the review is quarterly" in answer.text
    breadcrumbs = " | ".join(c.breadcrumb for c in answer.citations)
    assert "Definitions" in breadcrumbs  # the definition that makes the card database a Restricted System


def test_a_question_on_something_no_policy_mentions_is_not_covered(employee, sample_corpus):
    answer = ask(employee, "Is there a company pension scheme?")
    assert answer.outcome == "not_covered"
    assert answer.citations == []
    assert "pension" in answer.text
    assert 1 <= len(answer.closest) <= 3


def test_a_rule_found_by_its_own_words_brings_the_definition_that_links_it_to_the_question(employee, sample_corpus):
    """The question names the payroll system; the rule says "a Restricted System"; only the
    definition says that payroll records make a Restricted System: both are cited."""
    answer = ask(employee, "Do I need a hardware key to sign in to the payroll system?")
    assert answer.outcome == "answered"
    assert "must be confirmed with a hardware security key" in answer.text
    assert any(c.breadcrumb.endswith("Definitions") for c in answer.citations)


def test_a_second_defined_term_is_followed_only_when_it_adds_a_word_of_the_question():
    from policypal.answering.terms import key_terms
    from policypal.assistant.answering import _terms_about

    definitions = {
        "Restricted System": (None, "A Restricted System means any system that holds the payroll records of staff."),
        "Information Owner": (None, "The Information Owner of a system is its head, e.g. the Head of Payroll."),
        "Third-Party User": (None, "A Third-Party User means a person given an account on a system, including contractors."),
    }
    asked = [t for t in key_terms("Can a contractor sign in to the payroll system?") if not t.generic]
    about = _terms_about(asked, definitions)
    assert about[0] == "Restricted System"
    assert "Third-Party User" in about  # adds "contractor"
    assert "Information Owner" not in about  # "payroll" and "system" add nothing
