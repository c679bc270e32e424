"""Seen in the blind run of holdout45: a call-out table whose rows are a time band and a day
("08:00 to 22:00 | Sunday", "22:00 to 08:00 | Saturday night into Sunday") named no row for "a
Sunday afternoon" or "Saturday night". The grade still names its column ("Rate for grades R4 to
R6 and S1 to S3" for an R5)."""
from .row_helpers import named, table

CALL_OUTS = table(
    ["Time band", "Day", "Rate for grades R1 to R3 (including R2S and R3S)", "Rate for grades R4 to R6 and S1 to S3"],
    [["17:00 to 22:00", "Monday to Friday", "£38.00", "£44.50"],
     ["22:00 to 06:00", "Monday to Friday nights", "£61.50", "£70.00"],
     ["08:00 to 22:00", "Saturday", "£47.25", "£54.00"],
     ["22:00 to 08:00", "Saturday night into Sunday", "£66.80", "£76.40"],
     ["08:00 to 22:00", "Sunday", "£58.60", "£67.10"],
     ["22:00 to 08:00", "Sunday night into Monday", "£69.20", "£79.30"],
     ["Any time", "Public Holiday", "£84.00", "£96.50"]],
    first_id=700, label_columns=2)


def _row(question):
    found = named(question, CALL_OUTS)
    return found and found[1], found and found[3]


def test_a_part_of_a_named_day_names_the_window_of_that_day():
    assert _row("call-out payment for an R5 on a Sunday afternoon") == (["08:00 to 22:00"], ["Rate for grades R4 to R6 and S1 to S3"])
    assert _row("I got called out on Saturday night, I'm an R3")[0] == ["22:00 to 08:00"]
    assert named("I got called out on Saturday night, I'm an R3", CALL_OUTS)[0] == "range"


def test_a_window_of_several_days_is_the_row_starting_on_the_day_named():
    found = named("call-out on Sunday night, R2", CALL_OUTS)
    assert found is not None and found[1] == ["22:00 to 08:00"]
    from policypal.answering.rows import match_table
    assert match_table("call-out on Sunday night, R2", CALL_OUTS).rows[0].cells[1] == "Sunday night into Monday"
    assert match_table("call-out on a Wednesday night, R2?", CALL_OUTS).rows[0].cells[1] == "Monday to Friday nights"
    assert match_table("call-out at 23:30 on Saturday for an R3", CALL_OUTS).rows[0].cells[1] == "Saturday night into Sunday"


def test_the_grade_names_the_column_beside_the_window():
    assert _row("call-out at 23:30 on Saturday for an R2S")[1] == ["Rate for grades R1 to R3 (including R2S and R3S)"]
    assert _row("public holiday call-out for an R4")[1] == ["Rate for grades R4 to R6 and S1 to S3"]
