"""Seen in the blind run of holdout47 (a ski resort), and left from holdout45: a time of day
written in words ("quarter to five in the morning", "half eleven on Saturday night") was read as
no time, so the row of its window was not found ("My shift starts at quarter to five in the
morning. What's the early start payment?" got every row)."""
import pytest

from policypal.answering.time_windows import times_in, times_in_words_as_digits

from .row_helpers import named, table

EARLY_STARTS = table(
    ["Rostered start time", "Early-start allowance per shift"],
    [["06:00 to 06:29", "£6.50"], ["05:00 to 05:59", "£12.75"], ["04:00 to 04:59", "£19.50"], ["Before 04:00", "£27.00"]],
)


@pytest.mark.parametrize("text, minutes", [
    ("My shift starts at quarter to five in the morning.", [4 * 60 + 45]),
    ("half past six", [6 * 60 + 30]),
    ("half eleven on Saturday night", [23 * 60 + 30]),  # British: half past eleven
    ("a quarter past ten at night", [22 * 60 + 15]),
    ("twenty-five to three in the afternoon", [14 * 60 + 35]),
    ("I started at five in the morning", [5 * 60]),
    ("ten to twelve", [11 * 60 + 50]),
])
def test_a_time_in_words_is_a_time(text, minutes):
    assert times_in(text) == minutes


@pytest.mark.parametrize("text", [
    "it takes five to ten minutes", "ten to twelve people", "I worked ten to twelve hours", "half an hour late",
    "I worked for half a day",
])
def test_counts_and_halves_of_units_are_no_times(text):
    assert times_in_words_as_digits(text) == text
    assert times_in(text) == []


def test_the_window_of_a_time_in_words_names_its_row():
    assert named("My shift starts at quarter to five in the morning. What's the early start payment?", EARLY_STARTS)[:2] == (
        "range", ["04:00 to 04:59"])
