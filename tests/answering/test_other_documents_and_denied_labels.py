"""References to a section of another document, labels named by a word both the question and the
label deny, counts of people written by their age, and nouns after a determiner and a participle:
plain data, no database."""
import pytest

from policypal.answering.coverage import missing_value, names_a_thing
from policypal.answering.definitions import names_the_document, other_document_references, referenced_sections, writes_its_own_code
from policypal.answering.evidence import TableData, TableRow
from policypal.answering.rows import match_table
from policypal.answering.terms import equivalents, stem, stems_of


def test_a_section_of_another_document_is_read_with_its_code_or_name():
    text = "paid as a travel day (see section 6.1 of TLP-PRD-01). Rest applies (see 4.2)."
    assert other_document_references(text) == [("6.1", "", "TLP-PRD-01")]
    assert referenced_sections(text) == ["4.2"]  # its own 4.2; not the other document's 6.1
    named = 'have the meaning given in section 2 of the On-Set Health and Safety Policy (TLP-HS-01).'
    assert other_document_references(named) == [("2", "On-Set Health and Safety Policy", "TLP-HS-01")]
    assert other_document_references("see section 4.2 below") == []


def test_a_document_name_names_the_policy_whose_title_holds_its_words():
    assert names_the_document("On-Set Health and Safety Policy", "On-Set Health and Safety Policy: Stunts and Work at Height")
    assert names_the_document("the Working Hours and Overtime Policy", "Working Hours and Overtime")
    assert not names_the_document("Health and Safety Policy", "Finance Policy")
    assert not names_the_document("the Policy", "Any Policy")  # filler names nothing


DAY_TYPES = TableData(caption="", headers=("Day type", "Pay"), rows=tuple(TableRow(cells=c) for c in (
    ("Sixth day", "1.5 x daily rate"), ("Night shoot", "Daily rate plus a 25% night premium"),
    ("Prep or wrap day", "90% of daily rate"), ("Travel day with no work", "50% of daily rate"),
    ("Rest day on a distant location", "No daily rate; per diem only"))))


def test_a_word_the_question_and_the_label_both_deny_names_the_row():
    m = match_table("What do I get for a day where I'm only travelling and not working?", DAY_TYPES)
    assert m is not None and [r.cells[0] for r in m.rows] == ["Travel day with no work"] and not m.partial
    # stated, not denied, the common word tells nothing: one word of the label, a partial name
    stated = match_table("What do I get for a day where I'm travelling and working?", DAY_TYPES)
    assert stated is None or stated.partial


def test_people_counted_by_their_age_are_counted_as_children():
    question = "How many ten-year-olds can one licensed chaperone look after at once?"
    assert missing_value(question, "Maximum children per licensed chaperone: 9 children") == ""
    assert missing_value("How many under-18s can one chaperone supervise?", "Maximum: 9 children") == ""
    assert missing_value(question, "Maximum performing time: 4.5 hours") != ""


def test_a_noun_after_a_determiner_and_a_participle():
    assert names_a_thing("chaperone", "How many children can one licensed chaperone look after?")
    assert names_a_thing("form", "Who keeps each signed form?")
    assert not names_a_thing("form", "The forms they form")  # no determiner before a participle


def test_looking_after_is_supervising():
    assert "look_after" in stems_of("Who can look after the children?")
    assert stem("supervise") in equivalents("look_after") and stem("supervision") in equivalents("look_after")


@pytest.mark.parametrize("text, owns", [
    ("**Policy reference:** MSH-FIN-04", True),
    ("Document no. MSH-FIN-04", True),
    ("Ref: MSH-FIN-04", True),
    ("MSH-FIN-04: Crew Travel and Subsistence Policy", True),
    ("Travel and subsistence are covered by MSH-FIN-04.", False),
    ("The mileage rate is in section 3.3 of MSH-FIN-04.", False),
])
def test_a_document_gives_its_own_code_as_its_reference(text, owns):
    assert writes_its_own_code(text, "MSH-FIN-04") is owns
