"""A row that does not hold the code the question names is another row: when no row of a table is
named ("Z9" where the bands are B8a and B8d), the search's nearest row is never given as the
answer to it. Times, ordinals and quantities with a unit are no codes."""
from policypal.answering.compose import compose_answer, unheld_codes
from policypal.answering.evidence import Evidence
from tests.answering.row_helpers import table

RATES = table(["Band", "Weekday day", "Sunday"], [["B8a", "£29.44", "£44.16"], ["B8d", "£49.12", "£73.68"]],
              caption="Table 1: Bank hourly rates")
ROWS = [Evidence(key=900 + i, breadcrumb="Bank > 3 Rates", kind="table_row", rank=i + 1, similarity=0.6 - i * 0.01,
                 text=f"Table 1: Bank hourly rates: Band {r.cells[0]}, Weekday day: {r.cells[1]}, Sunday: {r.cells[2]}",
                 table=RATES) for i, r in enumerate(RATES.rows)]


def test_codes_the_text_does_not_hold_in_any_form():
    assert unheld_codes("hourly bank rate for 8b on a sunday?", "Band B8d, Weekday day: £49.12") == ["8b"]
    assert unheld_codes("rate for B8b on sunday", "Band B8b, Weekday day") == []
    assert unheld_codes("time logged under nc6", "Code NC-06: network changes") == []  # another way of writing it
    assert unheld_codes("paged at 11pm on the 3rd, 24h after a 5km walk", "anything") == []


def test_the_nearest_row_does_not_answer_a_code_no_row_holds():
    answer = compose_answer("what is the bank rate on a sunday for Z9?", ROWS, corpus_mentions={})
    assert answer.outcome == "not_covered"
    assert "£44.16" not in answer.text and "£73.68" not in answer.text
    answer = compose_answer("what is the bank rate on a sunday for B8d?", ROWS, corpus_mentions={})
    assert answer.outcome == "answered" and "£73.68" in answer.text and "£44.16" not in answer.text
