"""A row named exactly (a number inside its range, a code) pins the asker's case: the words that
only tell the case before the ask ("There's a crate that weighs about 20kg, ...") are the
asker's story, not more that they ask for, so a thing the policies never name in that story does
not make the answer partial. The same thing named in the ask itself still does, and so does a
story whose row is not pinned."""
from policypal.answering.compose import compose_answer
from policypal.answering.coverage import lead_in
from policypal.answering.evidence import ANSWERED, Evidence, TableData, TableRow

LIFTING = TableData(
    "Table 3: Lifting limits",
    ("Weight of the load", "What you must do"),
    tuple(TableRow(cells, chunk_id=700 + i) for i, cells in enumerate([
        ("Up to 15 kg", "One person may lift after a dynamic risk check"),
        ("15.1 to 25 kg", "One person may lift only with a sack truck or trolley"),
        ("More than 25 kg", "Team lift or mechanical aid required"),
    ])),
)
NEVER_NAMED = {"crate": False, "yard": False, "ladder": False}


def _evidence():
    return [Evidence(key=1, breadcrumb="Safety > 4 Manual handling", text="Table 3", kind="table", rank=1,
                     similarity=0.5, table=LIFTING)]


def test_the_lead_in_is_what_the_sentence_tells_before_it_asks():
    assert lead_in("There's a crate that weighs about 20kg, can I lift it?") == "There's a crate that weighs about 20kg"
    assert lead_in("racking has amber damage - what happens to the bay?") == "racking has amber damage"
    assert lead_in("if I get back after 8pm what can I claim?") == "if I get back after 8pm"
    assert lead_in("Can I lift a 20 kg crate alone?") == ""


def test_a_thing_only_the_story_names_does_not_make_a_pinned_row_partial():
    answer = compose_answer("There's a crate in the yard that weighs about 20kg, can I lift it on my own?", _evidence(),
                            corpus_mentions=NEVER_NAMED)
    assert answer.outcome == ANSWERED
    assert "sack truck" in answer.text and "Team lift" not in answer.text
    assert "do not mention" not in answer.text


def test_the_same_thing_in_the_ask_itself_still_makes_it_partial():
    answer = compose_answer("Can I lift a 20kg crate up a ladder on my own?", _evidence(), corpus_mentions=NEVER_NAMED)
    assert answer.outcome != ANSWERED
    assert "ladder" in answer.text  # named as what the sources do not mention


def test_a_story_without_a_pinned_row_is_not_answered_by_the_table():
    answer = compose_answer("There's a crate in the yard, can I lift it on my own?", _evidence(), corpus_mentions=NEVER_NAMED)
    assert answer.outcome != ANSWERED
