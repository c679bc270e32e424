"""Times of day name rows whose labels give a window ("paged at 11pm": "Night shift (22:00-06:00)",
a window across midnight included); an amount is no time ("£3.50"); a time in no window or in
several names no row by itself (seen in the blind run of holdout21)."""
import pytest

from policypal.answering.time_windows import in_window, times_in, window_of

from .row_helpers import named, table

CALLOUT = table(["Time window", "Hourly rate", "Minimum paid per Callout"], [
    ["Evening (18:00-22:00)", "£27.50", "1 hour"], ["Night shift (22:00-06:00)", "£38.75", "2 hours"],
    ["Early morning (06:00-09:00)", "£31.25", "90 minutes"], ["Weekend day (Saturday or Sunday)", "£41.40", "2.5 hours"],
], caption="Table 2: Callout rates by time window")


@pytest.mark.parametrize("text, minutes", [
    ("paged at 11pm and worked till 1am", [23 * 60, 60]),
    ("at 7 in the morning", [7 * 60]),
    ("at 10 at night", [22 * 60]),
    ("19:30 on a Tuesday", [19 * 60 + 30]),
    ("7.30pm", [19 * 60 + 30]),
    ("midnight", [0]),
    ("grade 3.50 costs £10.30", []),
])
def test_times_of_day_are_read_in_minutes(text, minutes):
    assert times_in(text) == minutes


def test_a_window_across_midnight_holds_the_small_hours():
    night = window_of("Night shift (22:00-06:00)")
    assert in_window(23 * 60, night) and in_window(3 * 60, night) and not in_window(7 * 60, night)


@pytest.mark.parametrize("question, row, columns", [
    ("got paged at 11pm and worked till 1am, what's the hourly rate for that?", "Night shift (22:00-06:00)",
     ["Hourly rate"]),
    ("If I'm called out at 7 in the morning, what's the minimum time I get paid for?", "Early morning (06:00-09:00)",
     ["Minimum paid per Callout"]),
    ("called out at 19:30 on a Tuesday, hourly rate?", "Evening (18:00-22:00)", ["Hourly rate"]),
])
def test_the_time_names_the_window_row(question, row, columns):
    assert named(question, CALLOUT) == ("range", [row], "", columns)

