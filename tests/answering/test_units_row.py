"""Leading body rows that are more header: a row labelled "(units)" or nothing whose cells are
words, not values ("£ per hour" under every band; "first 8,500 miles" under "Casual user") says what
each column holds or is measured in. It is never answered as a row (the blind runs of holdout27 and
holdout29 gave "Shift type (units): Band 1: £ per hour"); a sub-header joins its column's name and
a unit is shown with the value ("Band 2 (£ per hour): £2.97") without naming the column."""
from policypal.answering.evidence import header_rows_folded
from policypal.answering.rows import RowMatch, match_table, row_sentence_text

from .row_helpers import table


def test_a_leading_units_row_becomes_the_columns_units():
    headers = ("Shift type", "Band 1", "Band 2")
    body = [("*(units)*", "*£ per hour*", "£ per hour"), ("Early shift", "£1.85", "£1.61"), ("Late shift", "£2.10", "£1.88")]
    folded, units, rows = header_rows_folded(headers, body)
    assert folded == headers and units == ("", "£ per hour", "£ per hour")
    assert rows == body[1:]


def test_unlabelled_rows_of_sub_headers_join_the_headers_and_units_stay_apart():
    folded, units, rows = header_rows_folded(("Role", "Allowance", "Notes"),
                                             [("", "days", ""), ("Driver", "5", "-"), ("Clerk", "3", "-")])
    assert folded == ("Role", "Allowance days", "Notes") and units == () and len(rows) == 2  # a blank keeps its header
    headers = ("Engine capacity", "Casual user", "Casual user", "Essential user")
    body = [("", "first 8,500 miles", "after 8,500 miles", "first 8,500 miles"), ("", "pence per mile", "pence per mile", "£ per mile"),
            ("451-999 cc", "46.9p", "13.7p", "36.9p"), ("1,000-1,199 cc", "52.2p", "14.4p", "40.9p")]
    folded, units, rows = header_rows_folded(headers, body)
    assert folded == ("Engine capacity", "Casual user first 8,500 miles", "Casual user after 8,500 miles",
                      "Essential user first 8,500 miles")
    assert units == ("", "pence per mile", "pence per mile", "£ per mile")
    assert rows == body[2:]


def test_a_row_with_figures_or_a_label_of_its_own_is_a_row():
    body = [("Units", "£1.85", "£1.61"), ("Late shift", "£2.10", "£1.88"), ("Night shift", "£3.35", "£2.97")]
    assert header_rows_folded(("Shift", "A", "B"), body) == (("Shift", "A", "B"), (), body)  # figures: a row named Units
    body = [("Early shift", "per hour", "per hour"), ("Late shift", "£2.10", "£1.88"), ("Night shift", "£3.35", "£2.97")]
    assert header_rows_folded(("Shift", "A", "B"), body) == (("Shift", "A", "B"), (), body)
    one = [("(units)", "£ per hour", "£ per hour"), ("Early shift", "£1.85", "£1.61")]
    assert header_rows_folded(("Shift", "A", "B"), one) == (("Shift", "A", "B"), (), one)  # too little else to measure


def test_units_show_with_the_value_but_name_no_column():
    headers, units, rows = header_rows_folded(
        ("Engine capacity", "Casual user", "Casual user", "Essential user"),
        [("", "first 8,500 miles", "after 8,500 miles", "first 8,500 miles"), ("", "pence per mile", "pence per mile", "pence per mile"),
         ("451-999 cc", "46.9p", "13.7p", "36.9p"), ("Fully electric vehicle", "49.5p", "15.1p", "38.2p")])
    from dataclasses import replace

    rates = replace(table(headers, rows), units=units)
    match = match_table("casual user rate per mile for a fully electric car, first 8,500 miles?", rates)
    assert [rates.headers[i] for i in match.columns] == ["Casual user first 8,500 miles"]
    text = row_sentence_text(match, match.rows[0])
    assert "Casual user first 8,500 miles (pence per mile): 49.5p" in text and "15.1p" not in text
    plain = table(headers, rows)  # no units given: none shown
    assert "(pence per mile)" not in row_sentence_text(RowMatch(plain, plain.rows[:1]), plain.rows[0])
