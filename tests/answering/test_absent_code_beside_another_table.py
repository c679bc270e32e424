"""An identifier the question names is a fact to match: a grade table that lacks "G9" says so, even
when another table of the same policy, without grades, has a row for the place the question names
and reads as much like the question (seen in the blind run of holdout11)."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import NOT_COVERED, Evidence, TableData, TableRow

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
    return [
        Evidence(key=1, breadcrumb="Travel > 5 Accommodation", text="Table 1", kind="table", rank=1, similarity=0.5, table=HOTEL),
        Evidence(key=2, breadcrumb="Travel > 6 Subsistence", text="Table 2", kind="table", rank=2, similarity=0.5, table=SUBSISTENCE),
    ]


def test_a_code_the_grade_table_lacks_is_absent_not_answered_by_a_table_without_grades():
    answer = compose_answer("What's the hotel cap in London for a G9?", _evidence(), corpus_mentions={})
    assert answer.outcome == NOT_COVERED
    assert "no row for G9" in answer.text and "G1 to G8" in answer.text
    assert "£58" not in answer.text and "£14" not in answer.text


def test_a_code_the_table_has_is_answered_from_it():
    answer = compose_answer("What's the hotel cap in London for a G7?", _evidence(), corpus_mentions={})
    assert "216" in answer.text  # G7's London cell
    assert "£58" not in answer.text
