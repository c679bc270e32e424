"""Seen in the blind run of holdout44: "How much notice do I have to give if I resign from an HT4
post?" (no policy gives a resignation notice) was answered with the HT4 row's "Typical posts"
cell, named by the code and by "post". A value the question asks for by a noun that no word of
the table, its cells or its section holds is not given by that table, however the code and another
word name one of its cells."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ANSWERED

from .row_helpers import ranked_tables, table

PAY = table(
    ["Grade", "Typical posts", "Point 1", "Point 2"],
    [["HT3", "Visitor services supervisor", "£26,610", "£27,300"],
     ["HT4", "Learning officer; duty manager", "£30,260", "£31,140"],
     ["HT5", "Site manager", "£34,000", "£35,100"]],
    caption="Salaries by grade and pay point",
)


def _answer(question):
    return compose_answer(question, ranked_tables(("Pay > 3.1 Grades", PAY)), corpus_mentions={})


def test_a_value_the_table_does_not_hold_is_not_answered_by_a_named_cell():
    answer = _answer("How much notice do I have to give if I resign from an HT4 post?")
    assert answer.outcome != ANSWERED
    assert "Learning officer" not in answer.text


def test_a_value_the_table_holds_is_still_answered():
    assert "£31,140" in _answer("What's the HT4 point 2 salary?").text
    assert "Learning officer" in _answer("What are the typical posts at HT4?").text
    answer = _answer("How many posts does HT4 cover?")
    assert answer.outcome == ANSWERED and "Learning officer" in answer.text


def test_a_value_the_table_names_in_its_own_words_is_held():
    # (the lexicon: the evidence asked for is the table's "Supporting Record")
    codes = table(["Code", "Activity", "Annual Credit Cap (hours)", "Supporting Record"],
                  [["NC-05", "Pro bono work", "100", "Matter number"], ["NC-06", "Recruitment interviews", "40", "Interview schedule issued by HR"]],
                  caption="Table 2: Non-chargeable time-recording codes")
    answer = compose_answer("What evidence do I need to back up time logged under nc6?",
                            ranked_tables(("Hours > 5.4 Non-chargeable time", codes)), corpus_mentions={})
    assert answer.outcome == ANSWERED and "Interview schedule issued by HR" in answer.text
