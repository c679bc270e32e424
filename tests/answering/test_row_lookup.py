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
    assert labels("I'm a 14, travelling to Europe. What daily rate applies?", BANDS)[1] == ["B14"]  # one bare number
    assert labels("What is the daily rate for 3 nights in Europe?", BANDS) is None  # a number with a unit is not a band


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
    assert [e.key for e in answer.cited] == [1]  # the table, not a row
    assert "88.25" not in answer.text


HOTELS = TableData(
    "Table 2: Hotel nightly caps by country (GBP per night)",
    ("Country", "Capital city", "Other cities"),
    tuple(TableRow(cells) for cells in [
        ("United Kingdom", "185", "118"), ("Ireland", "174", "126"), ("Germany", "164", "131"), ("France", "193", "137"),
    ]),
)
REGIONS = TableData(
    "Table 1: Daily rates by band",
    ("Band", "UK and Ireland", "Europe", "Rest of world"),
    tuple(TableRow((f"B{i}", f"{10 + i}.10", f"{20 + i}.20", f"{30 + i}.30")) for i in range(1, 6)),
)
APPROVALS = TableData(
    "Table 3: Refund approval limits",
    ("Refund amount", "Approver"),
    tuple(TableRow(cells) for cells in [
        ("Up to USD 500.00", "Support team lead"), ("USD 500.01 to USD 5,000.00", "Billing manager"),
        ("Above USD 5,000.00", "Finance Controller"),
    ]),
)
RAISES = TableData(
    "Table 4: Approval of pay decisions",
    ("Decision", "Approver"),
    tuple(TableRow(cells) for cells in [
        ("Salary increase of up to 5%", "Second-line manager"), ("Salary increase above 5% and up to 10%", "Unit head"),
        ("Salary increase above 10%", "CHRO"), ("Spot award of up to INR 25,000", "Own manager"),
    ]),
)
CODES = TableData(
    "Table 5: Expense codes",
    ("Code", "Description"),
    tuple(TableRow(cells) for cells in [("EX-101", "Hotel"), ("EX-104", "Rail tickets"), ("EX-105", "Taxis and ride hailing")]),
)


def test_a_city_picks_its_countrys_row_and_its_kind_of_city_column():
    match = match_table("How much can I spend per night on a hotel in Lyon?", HOTELS)
    assert [r.cells[0] for r in match.rows] == ["France"] and match.columns == (2,)  # not a capital: other cities
    match = match_table("Hotel cap in Paris?", HOTELS)
    assert [r.cells[0] for r in match.rows] == ["France"] and match.columns == (1,)
    # where the asker is based is not where they are going
    match = match_table("I'm based in London. What's my hotel cap in Munich?", HOTELS)
    assert [r.cells[0] for r in match.rows] == ["Germany"]


def test_a_country_the_table_lacks_is_absent():
    match = match_table("What's the hotel cap in Oslo?", HOTELS)
    assert match.how == "absent" and match.asked == "Norway"


def test_a_place_picks_the_column_of_its_country_then_its_region_then_the_rest_of_the_world():
    assert match_table("B3 in Dublin", REGIONS).columns == (1,)  # "UK and Ireland" before "Europe"
    assert match_table("B3 in Lisbon", REGIONS).columns == (2,)
    assert match_table("B3 in Tokyo", REGIONS).columns == (3,)


def test_an_amount_or_a_percentage_picks_the_span_that_holds_it():
    assert labels("Who approves a refund of USD 2,000?", APPROVALS)[1] == ["USD 500.01 to USD 5,000.00"]
    assert labels("Refund of 300 dollars: who signs off?", APPROVALS)[1] == ["Up to USD 500.00"]
    assert labels("Who signs off a refund of $7,500?", APPROVALS)[1] == ["Above USD 5,000.00"]
    assert labels("Who approves a raise of 8%?", RAISES)[1] == ["Salary increase above 5% and up to 10%"]
    assert labels("Who approves a raise of 5 per cent?", RAISES)[1] == ["Salary increase of up to 5%"]


def test_a_code_table_row_may_be_named_by_its_description():
    assert labels("Which expense code do I use for rail tickets?", CODES)[1] == ["EX-104"]
    assert labels("What is EX-105 for?", CODES)[1] == ["EX-105"]
    assert labels("What is code EX-150 for?", CODES) == ("absent", [], "EX-150")
