"""Rows told apart by a span written after a shared name ("Sickness absence up to 7 calendar days",
"... from the 8th calendar day"), spans whose end is closed ("5 or more days", "10 years and
over", "2 days or less"), a header the question writes as a phrase, and a label shared with the
question only through a modifier of its own head noun ("the whole kitchen" is no "Kitchen
Porter")."""
import pytest

from policypal.answering.rows import _range, asked_columns

from .row_helpers import named, table

ABSENCE = table(
    ["Type of absence", "Notify", "Deadline", "Evidence required"],
    [["Sickness absence, first day", "Cover Manager", "By 6.45am", "Not required on the first day"],
     ["Sickness absence up to 7 calendar days", "Line Manager", "By 2pm the day before returning", "Self-certification form"],
     ["Sickness absence from the 8th calendar day", "HR", "Within 3 working days", "Fit note from a doctor"],
     ["Routine appointment", "Line Manager", "5 working days in advance", "Appointment card"],
     ["Hospital appointment", "Headteacher", "As soon as known", "Hospital letter"]],
    caption="Table 1: Absence reporting requirements",
)


@pytest.mark.parametrize("question, row", [
    ("What paperwork do I need after being off sick for 4 days?", "Sickness absence up to 7 calendar days"),
    ("I have been off sick for 10 days, what evidence do I give?", "Sickness absence from the 8th calendar day"),
    ("I was off sick for two weeks with flu, who do I notify?", "Sickness absence from the 8th calendar day"),
])
def test_a_stated_length_picks_the_span_among_rows_named_alike(question, row):
    how, rows, _, _ = named(question, ABSENCE)
    assert (how, rows) == ("range", [row])


def test_a_quantity_of_another_thing_picks_no_span_row():
    assert named("I have a hospital appointment in 4 days, what evidence?", ABSENCE)[1] == ["Hospital appointment"]


DAY = 12 / 365  # spans of time are read in months


@pytest.mark.parametrize("label, low, high", [
    ("Notice for 5 or more days", 5 * DAY, None),
    ("10 years and over", 120, None),
    ("2 days or less", None, 2 * DAY),
    ("from the 8th calendar day", 8 * DAY, None),
])
def test_closed_ends_and_ordinals_keep_their_unit(label, low, high):
    span = _range(label)
    assert span.months
    assert (span.low, span.high) == (pytest.approx(low) if low else None, pytest.approx(high) if high else None)
    assert span.low_inclusive and span.high_inclusive


def test_over_alone_still_excludes_its_number():
    assert _range("over 10 years").low_inclusive is False


BOOKING = table(
    ["Department", "Maximum on leave", "Notice for 1 to 4 days", "Notice for 5 or more days"],
    [["Transport (Drivers)", "15%", "14 days", "6 weeks"], ["Warehouse", "12%", "7 days", "4 weeks"]],
    caption="Table 2: Holiday booking rules",
)


@pytest.mark.parametrize("question, column", [
    ("I'm a driver and want 2 weeks off in the summer - how much notice do I have to give?", "Notice for 5 or more days"),
    ("Drivers: how much notice for 3 days off?", "Notice for 1 to 4 days"),
])
def test_a_length_of_time_picks_the_column_whose_span_holds_it(question, column):
    assert [BOOKING.headers[i] for i in asked_columns(question, BOOKING)] == [column]


DUTY = table(
    ["Role", "Maximum Duty Period", "Maximum consecutive duty days", "Maximum consecutive night duties",
     "Maximum duty hours per Roster Period"],
    [["Catering Driver", "9 hours", "5 days", "3 nights", "148 hours"], ["Ramp Agent", "10 hours", "6 days", "4 nights", "160 hours"]],
    caption="Table 3: Duty-time limits by role",
)


@pytest.mark.parametrize("question, column", [
    ("What's the longest duty period a Catering Driver can be rostered for?", "Maximum Duty Period"),
    ("How many duty hours per roster period for a ramp agent?", "Maximum duty hours per Roster Period"),
])
def test_a_header_written_as_a_phrase_keeps_its_column_against_one_word_of_another(question, column):
    assert [DUTY.headers[i] for i in asked_columns(question, DUTY)] == [column]


ROLES = table(
    ["Job Role", "Points per shift"],
    [["Head Chef", "24"], ["Sous Chef", "19"], ["Kitchen Porter", "8.5"], ["Server", "13"], ["Bartender", "11.5"]],
    caption="Table 1: Tronc points by job role",
)


def test_a_modifier_alone_does_not_name_a_row_whose_own_head_noun_is_left_out():
    # "the whole kitchen" is where the head chef works: neither the porter's row, nor an absent one
    assert named("How many points does the person running the whole kitchen get for a full shift?", ROLES) is None


def test_the_head_noun_or_the_whole_label_still_names_the_row():
    assert named("How many points does a porter get?", ROLES)[1] == ["Kitchen Porter"]
    assert named("How many points does a kitchen porter get?", ROLES)[1] == ["Kitchen Porter"]
    assert named("How many tronc points does a waiter get?", ROLES)[1] == ["Server"]


DEDUCTIONS = table(
    ["Item", "Rate"],
    [["Full-day per diem, Denmark", "DKK 560"], ["Breakfast deduction", "15%"], ["Lunch deduction", "30%"],
     ["Dinner deduction", "35%"]],
    caption="Table 2: Fixed allowances and rates",
)


def test_a_modifier_that_tells_apart_rows_sharing_their_head_names_its_row():
    assert named("The airline bought us dinner. How much comes off my daily allowance?", DEDUCTIONS)[1] == ["Dinner deduction"]


def test_a_modifier_with_the_head_written_elsewhere_names_the_row():
    leave = table(["Type of leave", "Company pay"],
                  [["Paternity or partner leave (FL3)", "Full pay"], ["Neonatal care leave (FL5)", "Full pay for 12 weeks"],
                   ["Shared parental leave (FL4)", "16 weeks"]])
    assert named("What company pay is there for neonatal leave?", leave)[1] == ["Neonatal care leave (FL5)"]


def test_a_title_the_table_lacks_is_still_absent_beside_a_lone_modifier():
    assert named("How many points does the Pastry Cook in the kitchen get?", ROLES)[:3] == ("absent", [], "Pastry Cook")


def test_a_column_named_by_words_of_its_own_stays_beside_a_phrased_one():
    overtime = table(["Grade", "Weekday rate", "Saturday rate", "Maximum TOIL balance"],
                     [["G1", "1.25x", "1.50x", "16 hours"], ["G2", "1.5x", "1.75x", "24 hours"]])
    columns = asked_columns("what is the weekday overtime rate and the max toil balance for g1", overtime)
    assert [overtime.headers[i] for i in columns] == ["Weekday rate", "Maximum TOIL balance"]
