"""A defined term whose condition a quantity the asker tells meets is what the question is about
("I'm contracted for 32 hours a week" and "Part-time employee means an employee contracted to
work fewer than 40 hours per week"; "about 13 miles away" and "Local location means a filming
location within 40 miles of base"), before a term whose definition only shares the words. The
look-up reads every policy the asker may read; on the real pipeline for that part."""
import pytest

from policypal.answering.quantities import decides_the_case, the_same_measure, told_quantities, told_units
from policypal.answering.terms import key_terms
from policypal.assistant.answering import _definitions_of_told_quantities, _terms_about

from .single_policy import another_policy, only_policy

DEFINITIONS = {
    "Full-time employee": (None, "Full-time employee means an employee contracted to work 40 hours per week, "
                                 "averaged over the rota cycle, on every working day."),
    "Part-time employee": (None, "Part-time employee means an employee contracted to work fewer than 40 hours per week."),
}


def _about(question):
    return _terms_about([t for t in key_terms(question) if not t.generic], DEFINITIONS, question=question)


def test_the_term_whose_bound_the_told_quantity_meets_is_what_the_question_is_about():
    assert _about("I'm contracted for 32 hours a week, averaged over the rota. Is my call-out rate reduced?")[0] \
        == "Part-time employee"
    # 42 hours meets no bound: the words decide, and the full-time definition holds more of them
    assert _about("I'm contracted for 42 hours a week, averaged over the rota. Is my call-out rate reduced?")[0] \
        == "Full-time employee"


SHIFT_TERMS = {
    "Short-notice call-in": (None, "Short-notice call-in means a request for a colleague to work a shift that was not "
                                   "on their rota, made less than 24 hours before the shift is due to start."),
    "Cold environment work": (None, "Cold environment work means work in a walk-in freezer for more than 30 minutes "
                                    "in a shift."),
}


def test_a_bound_said_of_another_thing_is_not_met_by_the_told_quantity():
    question = "On my night shift I spend two hours straight in the walk-in freezer. Do I get the freezer money?"
    about = _terms_about([t for t in key_terms(question) if not t.generic], SHIFT_TERMS, question=question)
    assert about == ["Cold environment work"]
    assert not the_same_measure(question, SHIFT_TERMS["Short-notice call-in"][1])
    assert the_same_measure("contracted for 32 hours a week", "contracted to work fewer than 40 hours per week")


def test_a_half_is_read_with_its_number():
    assert told_quantities("about seven and a half hours from the gate") == told_quantities("about 7.5 hours from the gate")
    assert told_quantities("two and a half days") == told_quantities("60 hours")


def test_within_is_a_bound_a_told_distance_meets():
    assert told_units("We film in Bath next week, about 13 miles away.") == ["miles"]
    assert decides_the_case(told_quantities("about 13 miles away"), "a filming location within 40 miles of base")
    assert not decides_the_case(told_quantities("about 60 miles away"), "a filming location within 40 miles of base")


RULES = b"""# Call-out Policy

## 1 Call-out pay

1.1 Every call-out is paid at the hourly rate, from leaving home until returning home.
"""
PAY = b"""# Pay Policy

## 1 Definitions

- **Part-time employee** means an employee contracted to work fewer than 40 hours per week.
- **Annual salary** means the salary shown against a grade.

## 2 Part-time pay

2.1 Part-time employees receive salary pro rata, but the hourly call-out rate is paid in full.
"""


@pytest.mark.django_db
def test_the_definition_is_found_in_a_policy_the_search_did_not_reach(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    rules = only_policy(key="callout", title="Call-out Policy", name="callout.md", content=RULES)
    pay = another_policy(key="pay", title="Pay Policy", name="pay.md", content=PAY, effective_from=rules.effective_from)
    found = _definitions_of_told_quantities("I'm contracted for 32 hours a week. Is my call-out rate reduced?",
                                            [rules.pk, pay.pk])
    assert list(found) == ["Part-time employee"] and found["Part-time employee"][0].version_id == pay.pk
    assert _definitions_of_told_quantities("I'm contracted for 45 hours a week. Is my call-out rate reduced?",
                                           [rules.pk, pay.pk]) == {}
    assert _definitions_of_told_quantities("Is my call-out rate reduced?", [rules.pk, pay.pk]) == {}
