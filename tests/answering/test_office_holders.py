""""Who is our Data Protection Officer?" asks who holds an office: sentences on what the office
does are no answer, a name, another office or contact details are."""
import pytest

from policypal.answering.compose import ANSWERED, compose_answer
from policypal.answering.coverage import missing_value
from policypal.answering.evidence import Evidence

ASK = "Who is our Data Protection Officer?"


@pytest.mark.parametrize("sentence", [
    "The Data Protection Officer is Dana Reyes.",
    "Our Data Protection Officer, Dana Reyes, handles subject access requests.",
    "Dana Reyes is our Data Protection Officer.",
    "The Head of Legal acts as the Data Protection Officer.",
    "The Data Protection Officer is the Head of Legal.",
    "Contact the Data Protection Officer at dpo@example.com.",
])
def test_a_sentence_naming_the_holder_gives_who(sentence):
    assert missing_value(ASK, sentence) == ""


@pytest.mark.parametrize("sentence", [
    "The Data Protection Officer decides within 48 hours whether a regulator must be told.",
    "The Data Protection Officer is responsible for audits.",
    "Personal Data is sent to the Data Protection Officer for review.",
    "The Data Protection Officer (DPO) must approve the transfer.",
])
def test_a_sentence_on_what_the_office_does_does_not(sentence):
    assert missing_value(ASK, sentence) == "who the data protection officer is"


def test_other_who_questions_ask_for_no_holder():
    assert missing_value("Who is eligible for a company car?", "Staff in grade 5 and above.") == ""
    assert missing_value("Who is the preferred supplier for PC-11?", "Cryon Gas Supply.") == ""


def _evidence(text):
    return [Evidence(key=1, breadcrumb="Data Protection > 10 Breaches", text=text, kind="text", rank=1, similarity=0.6)]


def test_the_answer_says_what_the_policies_leave_out():
    answer = compose_answer(ASK, _evidence("The Data Protection Officer decides within 48 hours whether a regulator "
                                           "or the people affected must be told."))
    assert answer.outcome != ANSWERED
    assert "do not say who the data protection officer is" in answer.text
    named = compose_answer(ASK, _evidence("The Data Protection Officer is Dana Reyes, reached at dpo@example.com."))
    assert named.outcome == ANSWERED and "Dana Reyes" in named.text
