"""A term defined by the list that follows it ("a **Connected Person** is:" and its items) is one
definition, items included; a definition that only sends the reader to another document ("has the
meaning given in the Dealing Policy") is known as a referral, so the other policy's definition is
read instead (a definition naming a section is a cross-reference, followed as one)."""
import pytest

from policypal.answering.definitions import defined_terms, definition_spans, is_referral

LISTED = """In this policy, a **Household Member** is:
- (a) the employee's spouse or civil partner;
- (b) any child of the employee under 18; and
- (c) any relative who has lived with the employee for twelve months.

Rule 4.1 applies to every Household Member."""


def test_the_items_of_a_listed_definition_belong_to_it():
    spans = dict(definition_spans(LISTED))
    assert list(spans) == ["Household Member"]
    definition = spans["Household Member"]
    assert "spouse or civil partner" in definition and "lived with the employee for twelve months" in definition
    assert "Rule 4.1" not in definition  # the paragraph after the list is not part of it


@pytest.mark.parametrize("line, term", [
    ("Eligible Dependants are any of the following:", "Eligible Dependants"),
    ('"Family Member" includes:', "Family Member"),
    ("3.2 A **Site Visitor** is:", "Site Visitor"),
])
def test_list_definition_openers_name_their_term(line, term):
    assert defined_terms(line) == [term]


@pytest.mark.parametrize("line", [
    "The steps are:",  # no term: a procedure's list
    "Note: the following applies:",
    "You must bring:",
])
def test_a_list_that_defines_nothing_names_no_term(line):
    assert defined_terms(line) == []


def test_list_items_after_a_non_defining_line_stay_apart():
    text = 'The steps are:\n- (a) tell your manager;\n"Late Claim" means a claim made after 90 days.'
    assert dict(definition_spans(text)) == {"Late Claim": '"Late Claim" means a claim made after 90 days.'}


@pytest.mark.parametrize("paragraph, referral", [
    ('"Connected Person" has the meaning given in the Personal Dealing Policy.', True),
    ("Personal Data has the same meaning as set out in the Data Protection Policy.", False),  # not this phrasing
    ("Close Relative has the meaning set out in the Leave Policy", True),
    ('"Closed Period" has the meaning given in 4.3.', False),  # a section: followed as a reference
    ("Personal Data has the meaning given in the Data Protection Policy: any information about a person.", False),
])
def test_a_referral_to_another_document_is_known(paragraph, referral):
    assert is_referral(paragraph) is referral
