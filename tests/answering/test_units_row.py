"""A first body row of units ("(units)": "£ per hour" under every band) says what each column is
measured in: it goes into the headers ("Band 1 (£ per hour)"), never answers as a row (the blind
runs of holdout27 and holdout29 gave "Shift type (units): Band 1: £ per hour" as an answer)."""
from policypal.answering.evidence import units_in_headers


def test_a_leading_units_row_goes_into_the_headers():
    headers = ("Shift type", "Band 1", "Band 2")
    body = [("*(units)*", "*£ per hour*", "£ per hour"), ("Early shift", "£1.85", "£1.61"), ("Late shift", "£2.10", "£1.88")]
    folded, rows = units_in_headers(headers, body)
    assert folded == ("Shift type", "Band 1 (£ per hour)", "Band 2 (£ per hour)")
    assert rows == body[1:]


def test_an_unlabelled_units_row_with_a_blank_cell_keeps_that_header():
    folded, rows = units_in_headers(("Role", "Allowance", "Notes"), [("", "days", ""), ("Driver", "5", "-"), ("Clerk", "3", "-")])
    assert folded == ("Role", "Allowance (days)", "Notes") and len(rows) == 2


def test_a_row_with_figures_or_a_label_of_its_own_is_a_row():
    body = [("Units", "£1.85", "£1.61"), ("Late shift", "£2.10", "£1.88")]
    assert units_in_headers(("Shift", "A", "B"), body) == (("Shift", "A", "B"), body)  # figures: a row named Units
    body = [("Early shift", "per hour", "per hour"), ("Late shift", "£2.10", "£1.88")]
    assert units_in_headers(("Shift", "A", "B"), body) == (("Shift", "A", "B"), body)
    one = [("(units)", "£ per hour", "£ per hour")]
    assert units_in_headers(("Shift", "A", "B"), one) == (("Shift", "A", "B"), one)  # nothing else to measure
