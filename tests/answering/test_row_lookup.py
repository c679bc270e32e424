"""Rows named exactly: codes, numbers after the column's noun, ranges, names; absent labels."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ANSWERED, NOT_COVERED, Evidence, TableData, TableRow
from policypal.answering.rows import match_table, row_sentence_text, table_range_text

BANDS = TableData(
    "Table 1: Daily subsistence rates by band (GBP per day)",
    ("Band", "UK and Ireland", "Europe", "North America"),
    tuple(TableRow((f"B{i}", f"{30 + i}.50", f"{60 + 2 * i}.25", f"{90 + 3 * i}.75"), chunk_id=100 + i) for i in range(1, 21)),
)
SERVICE = TableData(
    "Table 3: Relocation allowance by length of service",
    ("Length of service", "Lump sum", "Removal cap"),
    tuple(TableRow(cells, chunk_id=200 + i) for i, cells in enumerate([
        ("Less than 1 year", "500", "1,000"), ("1-2 years", "1,100", "2,000"), ("3-5 years", "2,200", "3,000"),
        ("6-9 years", "3,300", "4,000"), ("10+ years", "4,400", "5,000"),
    ])),
)
LEAVE = TableData(
    "Table 1: Leave entitlements by type",
    ("Leave type", "Days per leave year", "Carry forward"),
    tuple(TableRow(cells) for cells in [
        ("Earned leave", "24 working days", "Up to 30 days"), ("Sick leave", "12 working days", "Not carried forward"),
        ("Parental leave (birth parent)", "26 weeks", "Not applicable"), ("Parental leave (partner)", "20 working days", "Not applicable"),
    ]),
)


def labels(question, table):
    match = match_table(question, table)
    return None if match is None else (match.how, [r.cells[0] for r in match.rows], match.asked)


def test_a_code_is_matched_exactly_not_by_its_neighbours():
    assert labels("What is the daily subsistence rate for band B14 in Europe?", BANDS) == ("label", ["B14"], "")
    assert labels("b1 rate in europe", BANDS) == ("label", ["B1"], "")  # not B11..B19
    assert labels("B12 London subsistence?", BANDS) == ("label", ["B12"], "")
    assert labels("I'm in band 11, what do I get?", BANDS) == ("label", ["B11"], "")  # the column's noun and a number


def test_a_code_the_table_lacks_is_absent():
    assert labels("What is the rate for band B25?", BANDS) == ("absent", [], "B25")
    assert labels("band C3 subsistence in Europe", BANDS) == ("absent", [], "C3")
    assert table_range_text(BANDS) == "bands B1 to B20"


def test_a_number_inside_a_range_row_picks_that_row():
    assert labels("I have 4 years of service; what relocation lump sum do I get?", SERVICE)[1] == ["3-5 years"]
    assert labels("I've been here 11 years", SERVICE)[1] == ["10+ years"]
    assert labels("after eight months of service", SERVICE)[1] == ["Less than 1 year"]
    assert labels("I have 2 years of service", SERVICE)[1] == ["1-2 years"]


def test_a_named_row_needs_every_word_that_tells_it_apart():
    assert labels("How many sick days do I get a year?", LEAVE)[1] == ["Sick leave"]
    assert labels("How much parental leave does the partner get?", LEAVE)[1] == ["Parental leave (partner)"]
    assert labels("How much leave do I get?", LEAVE) is None  # names no row


def test_the_asked_column_comes_first_in_the_row_answer():
    match = match_table("band B14 in Europe", BANDS)
    text = row_sentence_text(match, match.rows[0])
    assert text == "Table 1: Daily subsistence rates by band (GBP per day): Band B14: Europe: 88.25."
    assert "UK and Ireland" not in text  # only the asked column
    full = row_sentence_text(match_table("band B14", BANDS), BANDS.rows[13])
    assert "UK and Ireland: 44.50" in full and "Europe: 88.25" in full


def _table_evidence(table, key=1):
    return Evidence(key=key, breadcrumb="Rates > 2 Subsistence", text="(table)", kind="table", policy_title="Rates",
                    similarity=0.5, rank=1, table=table)


def test_the_answer_gives_the_named_row_and_no_other():
    answer = compose_answer("What is the daily subsistence rate for band B14 in Europe?", [_table_evidence(BANDS)])
    assert answer.outcome == ANSWERED
    assert "Band B14" in answer.text and "88.25" in answer.text
    for other in ("B12", "B2:", "B16", "B10", "84.25", "92.25"):
        assert other not in answer.text
    assert answer.cited[0].key == 114  # the row's own chunk


def test_an_absent_label_is_said_to_be_absent_with_the_range_and_the_table_cited():
    answer = compose_answer("What is the daily subsistence rate for band B25 in Europe?", [_table_evidence(BANDS)])
    assert answer.outcome == NOT_COVERED
    assert "covers bands B1 to B20; it has no row for B25" in answer.text
    assert [e.key for e in answer.cited] == [1]
    assert "88.25" not in answer.text
