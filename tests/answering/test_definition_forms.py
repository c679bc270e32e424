"""The ways a policy defines a term, each found (and the abbreviation it gives the term), and
the sentences that only look like definitions left alone; a rule that writes the defined term's
abbreviation reads with the definition; "drags on past four hours" is "lasts more than four hours"."""
import pytest

from policypal.answering.compose import compose_answer
from policypal.answering.coverage import decide
from policypal.answering.definitions import defined_terms
from policypal.answering.evidence import Evidence


@pytest.mark.parametrize("sentence, terms", [
    ('We use "Key Holder" to refer to the employee who locks the depot at night.', ["Key Holder"]),
    ("We use the term Site Day to mean a day spent at a customer's premises.", ["Site Day"]),
    ('The term "Lone Shift" is used for any shift worked without a second person on site.', ["Lone Shift"]),
    ("References to the Notice Window are to the 14 days before a rota is published.", ["Notice Window"]),
    ("A delivery counts as a Late Drop if it arrives after 22:00.", ["Late Drop"]),
    ('The Site Controller (the "SC") is the manager who opens the depot each morning.', ["Site Controller", "SC"]),
    ("Motorised Yard Equipment (MYE) is any vehicle used in the yard.", ["Motorised Yard Equipment", "MYE"]),
    ("4.2 A Courier is a person who carries parcels for the company.", ["Courier"]),
    ("4.3 Carer : the person who looks after a dependant at home.", ["Carer"]),
    ("- Remote day: a day worked away from any office.", ["Remote day"]),
    ("4.4 Working at Height permit (WAH permit): a written permission to work above two metres.",
     ["Working at Height permit", "WAH permit"]),
    ("4.5 Two-Factor Sign-in (2FA) : a sign-in with a second factor.", ["Two-Factor Sign-in", "2FA"]),
])
def test_each_form_of_definition_names_its_term(sentence, terms):
    assert defined_terms(sentence) == terms


@pytest.mark.parametrize("sentence", [
    "Note: the form must be signed by your manager.",
    "For example: the driver checks the tyres.",
    "- Poland: the voucher is funded from the social fund.",  # a place's note
    "If the host does not attend, the meal is treated as a Gift.",
    "The manager is the person who approves the rota.",
    "The Policy is a statement of what the company expects.",
])
def test_sentences_that_only_look_like_definitions_define_nothing(sentence):
    assert defined_terms(sentence) == []


DEFINITION = Evidence(1, "Depot Standard > 2. Definitions",
                      'The Site Controller (the "SC") is the senior manager who opens the depot each morning.',
                      policy="depot", rank=1, similarity=0.6)
RULE = Evidence(2, "Depot Standard > 7. Alarms",
                "If an alarm lasts more than ten minutes, the SC must call the monitoring centre.",
                policy="depot", rank=2, similarity=0.5)
OTHER = Evidence(3, "Depot Standard > 8. Keys", "Keys are collected from reception by the first driver of the day.",
                 policy="depot", rank=3, similarity=0.4)


def test_a_rule_writing_the_abbreviation_reads_with_the_definition():
    question = "The senior manager who opens the depot each morning - who must they call if an alarm drags on past ten minutes?"
    answer = compose_answer(question, [DEFINITION, RULE, OTHER], corpus_mentions={})
    assert answer.outcome == "answered"
    assert "must call the monitoring centre" in answer.text
    assert {e.key for e in answer.cited} == {1, 2}


def test_dragging_on_past_a_time_is_lasting_more_than_it():
    decision = decide("Who do I call if the alarm drags on past ten minutes?", [[RULE.text, RULE.breadcrumb]])
    assert decision.outcome == "answered"
    assert "drag" in decision.asks[0].carried
