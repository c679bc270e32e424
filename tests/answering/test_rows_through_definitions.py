"""A row named through a definition: "my grandad died" names no label of a leave table, but the
label "Bereavement of a Close Relative" uses a defined term whose definition lists grandparents, so
that row answers (not the row for someone who is not a Close Relative, not the whole table); a
relative the definition does not list is not tied to the row."""
from policypal.answering.compose import compose_answer
from policypal.answering.defined_rows import row_by_definition
from policypal.answering.evidence import ANSWERED, NOT_COVERED, Evidence, TableData, TableRow

from .row_helpers import table

LEAVE = TableData(
    "Table 2: Discretionary leave of absence by reason",
    ("Reason", "Paid leave", "Further unpaid leave"),
    tuple(TableRow(cells, chunk_id=800 + i) for i, cells in enumerate([
        ("Bereavement of a Close Relative", "5 days", "Up to 10 days"),
        ("Funeral of a person who is not a Close Relative", "Half a day", "None"),
        ("Emergency care of a Dependant", "2 days", "Up to 3 days"),
        ("Own wedding or civil partnership", "Not paid", "Up to 7 days"),
    ])),
)
DEFINITION = ("2.2 In this policy, a Close Relative is a spouse, civil partner or partner, a child or step-child, "
              "a parent or step-parent, a sibling, a grandparent, a grandchild, or a parent-in-law.")
GLOSSARY = {"Close Relative": DEFINITION}


def _evidence():
    return [
        Evidence(key=1, breadcrumb="Absence > 6. Leave of absence", text="Table 2", kind="table", rank=1, similarity=0.5, table=LEAVE),
        Evidence(key=2, breadcrumb="Absence > 2. Definitions", text=DEFINITION, rank=2, similarity=0.4),
    ]


def test_the_definition_listing_the_askers_relative_names_the_row():
    match = row_by_definition("my grandad died last night. how many days paid leave do I get?", LEAVE, GLOSSARY)
    assert match is not None and [r.cells[0] for r in match.rows] == ["Bereavement of a Close Relative"]


def test_a_label_that_excludes_the_term_is_not_its_row():
    excluding = TableData("Table 3: Other leave", ("Reason", "Paid leave"), (
        TableRow(("Funeral of a person who is not a Close Relative", "Half a day"), chunk_id=901),
        TableRow(("Moving house", "1 day"), chunk_id=902),
    ))
    assert row_by_definition("my grandad died last night. how many days paid leave do I get?", excluding, GLOSSARY) is None


def test_a_relative_the_definition_does_not_list_names_no_row():
    assert row_by_definition("my uncle died, what leave do I get?", LEAVE, GLOSSARY) is None


def test_the_answer_gives_that_row_only():
    answer = compose_answer("my grandad died last night. how many days paid leave do I get?", _evidence(), corpus_mentions={})
    assert answer.outcome != NOT_COVERED and "5 days" in answer.text
    assert "Half a day" not in answer.text and "2 days" not in answer.text


STAGES = table(["Career stage", "UK", "Europe", "Rest of world"],
               [["Early career researcher", "£1,200", "£1,850", "£2,600"], ["Mid-career academic", "£950", "£1,500", "£2,150"],
                ["Senior academic", "£800", "£1,250", "£1,900"]],
               caption="Table 7: Maximum contribution per conference", first_id=820)
STAGE_GLOSSARY = {
    "Early career researcher": "Early career researcher (ECR) means an academic within five years of their doctorate.",
    "Mid-career academic": "Mid-career academic means a Lecturer or Senior Lecturer who is not an ECR.",
    "Senior academic": "Senior academic means a Reader or Associate Professor.",
}


def test_what_the_asker_says_they_are_not_leaves_the_definition_that_fits():
    # "not an ECR": the definition of an ECR describes someone else; the Lecturer's definition
    # (which says "not an ECR" too) names the row
    match = row_by_definition("I'm a senior lecturer (not an ECR any more). What's the cap in Europe?", STAGES, STAGE_GLOSSARY)
    assert match is not None and [r.cells[0] for r in match.rows] == ["Mid-career academic"]


def test_a_term_the_asker_states_still_counts_against_a_second_definition():
    # "an ECR lecturer": two definitions, two rows: the question does not decide
    assert row_by_definition("I'm a lecturer and an ECR. What's the cap in Europe?", STAGES, STAGE_GLOSSARY) is None


def test_a_row_named_through_a_definition_pins_the_askers_story():
    # "my nan" tells who died, in words no policy uses; the definition ties her to the row, so
    # the answer is the row's, not partly answered for want of the asker's own word
    answer = compose_answer("My nan passed away on Sunday. How many days paid leave do I get?", _evidence(),
                            corpus_mentions={"nan": False, "sunday": False})
    assert answer.outcome == ANSWERED and "5 days" in answer.text
    assert "do not mention" not in answer.text
