"""An identifier the question names is a fact to match: a grade table that lacks "G9" says so, even
when another table of the same policy, without grades, has a row for the place the question names
and reads as much like the question (seen in the blind run of holdout11)."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import NOT_COVERED, TableData, TableRow

from .row_helpers import ranked_tables

HOTEL = TableData(
    "Table 1: Maximum nightly hotel rate by Grade and Destination Type (GBP)",
    ("Grade", "UK Regional", "London", "Europe"),
    tuple(TableRow((f"G{i}", f"{90 + 7 * i}", f"{160 + 8 * i}", f"{130 + 6 * i}"), chunk_id=300 + i) for i in range(1, 9)),
)
SUBSISTENCE = TableData(
    "Table 2: Daily subsistence caps by Destination Type (GBP per person)",
    ("Destination Type", "Day trip", "Overnight, per 24 hours"),
    tuple(TableRow(cells, chunk_id=400 + i) for i, cells in enumerate([
        ("UK Regional", "£11", "£47"), ("London", "£14", "£58"), ("Europe", "£17", "£64"),
    ])),
)


def _evidence():
    return ranked_tables(("Travel > 5 Accommodation", HOTEL), ("Travel > 6 Subsistence", SUBSISTENCE))


def test_a_code_the_grade_table_lacks_is_absent_not_answered_by_a_table_without_grades():
    answer = compose_answer("What's the hotel cap in London for a G9?", _evidence(), corpus_mentions={})
    assert answer.outcome == NOT_COVERED
    assert "no row for G9" in answer.text and "G1 to G8" in answer.text
    assert "£58" not in answer.text and "£14" not in answer.text


def test_a_code_the_table_has_is_answered_from_it():
    answer = compose_answer("What's the hotel cap in London for a G7?", _evidence(), corpus_mentions={})
    assert "216" in answer.text  # G7's London cell
    assert "£58" not in answer.text


CITY_TIERS = TableData(
    "Table 2: Daily Per Diem by city tier and Grade (GBP)",
    ("City tier", "Grades G1-G3", "Grades G4-G6", "Grades G7-G9"),
    tuple(TableRow((f"Tier {letter}", f"£{60 + i}", f"£{70 + i}", f"£{80 + i}"), chunk_id=500 + i) for i, letter in enumerate("ABCD")),
)
COST_TIERS = TableData(
    "Table 3: Recurring allowances by Cost Tier (GBP)",
    ("Cost Tier", "Monthly internet allowance", "Ergonomic budget (every 3 years)"),
    tuple(TableRow((f"CT{i}", f"£{50 - 4 * i}", f"£{600 - 70 * i}"), chunk_id=600 + i) for i in range(1, 6)),
)


def _tiers():
    return ranked_tables(("Travel > 6 Per Diem", CITY_TIERS), ("Equipment > 5 Allowances", COST_TIERS))


def test_a_row_whose_code_the_question_writes_with_the_label_columns_name_answers_it():
    # "tier 3" is CT3 of the Cost Tier table; the city tier table's letters lacking a "tier 3" is not the answer
    answer = compose_answer("what's the ergonomic budget for someone in tier 3", _tiers(), corpus_mentions={})
    assert answer.outcome != NOT_COVERED and "£390" in answer.text and "no row for" not in answer.text


def test_a_tier_neither_table_has_is_still_absent():
    answer = compose_answer("what's the ergonomic budget for someone in tier 7", _tiers(), corpus_mentions={})
    assert answer.outcome == NOT_COVERED and "no row for" in answer.text
