"""A row that does not hold the code the question names is another row: when no row of a table is
named ("Z9" where the bands are B8a and B8d), the search's nearest row is never given as the
answer to it. Times, ordinals and quantities with a unit are no codes."""
from policypal.answering.compose import compose_answer, unheld_codes
from policypal.answering.time_windows import unheld_days
from tests.answering.row_helpers import ranked_rows, table

RATES = table(["Band", "Weekday day", "Sunday"], [["B8a", "£29.44", "£44.16"], ["B8d", "£49.12", "£73.68"]],
              caption="Table 1: Bank hourly rates")
ROWS = ranked_rows("Bank > 3 Rates", RATES)


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


def test_days_the_question_names_that_a_row_does_not():
    assert unheld_days("What weighting applies to teaching on a Sunday?", "Saturday 09:00–13:00: ×1.6") == ["Sunday"]
    assert unheld_days("a class on Tuesday evening", "Monday–Friday 18:00-19:59: ×1.25") == []  # inside the span
    assert unheld_days("a shift on a Saturday", "Weekend Night, Fri-Sun 22:00-05:00: 83.50") == []
    assert unheld_days("a shift on a Saturday", "Core hours 09:00-17:00") == []  # no day named: nothing said
    assert unheld_days("I sat the exam on Monday", "the sun was out") == []  # "sat", "sun" in prose are no days


WEIGHTS = table(["Time window", "Workload weighting"],
                [["09:00–17:59", "×1.0"], ["18:00–19:59", "×1.25"], ["Saturday 09:00–13:00", "×1.6"]],
                caption="Table 12: Workload weightings")


def test_the_row_of_another_day_does_not_answer_for_the_day_asked():
    rows = ranked_rows("Workload > 6 Weightings", WEIGHTS, list(reversed(WEIGHTS.rows)))
    answer = compose_answer("What workload weighting applies to teaching on a Sunday?", rows, corpus_mentions={})
    assert "×1.6" not in answer.text
