"""Rows named exactly: codes, numbers after the column's noun, ranges, names; absent labels."""
from dataclasses import replace

from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ANSWERED, NOT_COVERED, PARTLY, Evidence, TableData, TableRow
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
    assert labels("I'm on an 8-week contract. What daily rate applies in Europe?", BANDS) is None  # "8-week" too


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


# --------------------------------------------------------------------------- rows in context

GRADES = TableData(
    "Table 1: Maximum nightly hotel rate by grade",
    ("Grade", "Metro city", "Tier 2 and Tier 3 cities"),
    tuple(TableRow((f"L{i}", f"{i},200", f"{i},300")) for i in range(1, 7)),
)
MEALS = TableData(
    "Table 2: Daily meal allowance by grade and city tier",
    ("Grade", "Metro city (includes Mumbai, Delhi)", "Tier 2 city", "Tier 3 city"),
    tuple(TableRow((f"L{i}", f"{i}50", f"{i}40", f"{i}30")) for i in range(1, 7)),
)


def test_a_number_written_after_another_noun_is_not_a_code_of_this_table():
    # "Band 3" names band 3, not grade L3; and "3,300" in a value column names no row
    assert match_table("Band 3 rate for a trip to Mexico City?", GRADES) is None
    assert labels("I'm a 3. What's my hotel cap?", GRADES)[1] == ["L3"]


def test_a_note_can_send_a_place_to_a_column():
    note = ("Metro city: Mumbai, Delhi, Bengaluru, Chennai, Hyderabad and Pune.",)
    match = match_table("What's the daily meal allowance for an L3 in Pune?", MEALS, notes=note)
    assert [r.cells[0] for r in match.rows] == ["L3"] and match.columns == (1,)
    # without the note nothing tells which column Pune is in
    assert match_table("What's the daily meal allowance for an L3 in Pune?", MEALS).columns == ()
    capital = ("The capital city cap also applies to Lyon and Marseille.",)
    assert match_table("Hotel cap in Lyon?", HOTELS, notes=capital).columns == (1,)  # not "Other cities"


def test_a_label_column_named_before_its_code_says_which_table_is_meant():
    hotel = Evidence(key=40, breadcrumb="Travel > 4 Hotels", text="Table 1", kind="table", rank=1, similarity=0.4, table=GRADES)
    bands = Evidence(key=41, breadcrumb="Rates > 2 Subsistence", text="Table 1", kind="table", rank=2, similarity=0.3, table=BANDS)
    answer = compose_answer("Band 3 rate for a trip to Denver?", [hotel, bands])
    assert answer.outcome == ANSWERED
    assert "B3" in answer.text and "North America: 99.75" in answer.text
    assert "L3" not in answer.text


def test_the_table_whose_caption_holds_the_asked_noun_wins_a_tie_on_the_code():
    hotel = Evidence(key=42, breadcrumb="Travel > 4 Hotels", text="Table 1", kind="table", rank=1, similarity=0.4, table=GRADES)
    meals = Evidence(key=43, breadcrumb="Travel > 5 Meals", text="Table 2", kind="table", rank=2, similarity=0.4, table=MEALS)
    answer = compose_answer("What's the daily meal allowance for an L3 staying overnight?", [hotel, meals])
    assert "Table 2" in answer.text and "Table 1" not in answer.text


def test_a_row_named_by_its_words_answers_only_what_the_words_ask():
    table = Evidence(key=44, breadcrumb="Leave > 2 Entitlements", text="Table 1", kind="table", rank=1, similarity=0.4, table=LEAVE)
    answer = compose_answer("Can I donate some of my sick leave to a colleague with a serious illness?", [table])
    assert answer.outcome != ANSWERED  # the sick leave row says nothing about donating it
    assert compose_answer("How much sick leave do I get?", [table]).outcome == ANSWERED


def test_beside_a_named_row_a_sentence_from_another_section_is_not_given():
    table = Evidence(key=45, breadcrumb="Refunds > 5 Approval limits", text="Table 3", kind="table", rank=2,
                     similarity=0.4, table=APPROVALS)
    other = Evidence(key=46, breadcrumb="Refunds > 2 Eligibility", rank=1, similarity=0.45,
                     text="Enterprise refunds after 30 days are decided by the Finance Controller within 10 days.")
    answer = compose_answer("Refund of 300 dollars: who signs off?", [other, table])
    assert "Support team lead" in answer.text
    assert "Finance Controller" not in answer.text


def test_a_new_starter_falls_in_the_first_length_of_service_row():
    assert labels("What's the removal cost cap for a new hire who is relocating?", SERVICE)[1] == ["Less than 1 year"]
    assert labels("I just joined. What lump sum do I get?", SERVICE)[1] == ["Less than 1 year"]


DEVICES = TableData(
    "Table 1: Device eligibility by role group",
    ("Role group", "Laptop", "Company mobile phone", "Replacement cycle"),
    tuple(TableRow(cells) for cells in [
        ("Engineering and data", "Performance laptop, 32 GB RAM", "On-call rota only", "Every 36 months"),
        ("Customer support", "Standard laptop, 16 GB RAM", "Team leads only", "Every 48 months"),
    ]),
)


def test_a_word_only_one_column_header_has_names_that_column():
    match = match_table("I've got 8 years' service and they're moving me to Bristol. What's the most they'll pay the removal firm?", SERVICE)
    assert [r.cells[0] for r in match.rows] == ["6-9 years"] and match.columns == (2,)


def test_how_often_asks_for_the_column_of_frequencies():
    match = match_table("how often do engineers get a new laptop", DEVICES)
    assert [r.cells[0] for r in match.rows] == ["Engineering and data"]
    assert match.columns[0] == 3  # the replacement cycle first, the laptop column named by its word after it


def test_a_contraction_is_not_a_word_the_policies_lack():
    from policypal.answering.terms import words

    assert words("they're moving; they'll pay; don't; can't") == ["they", "moving", "they", "pay", "do", "not", "can", "not"]


def test_a_note_naming_most_of_a_header_sends_a_place_to_it():
    notes = ("Metro city: Mumbai, Delhi and Pune.", "Tier 2 city: a city listed as Tier 2, e.g. Jaipur or Kochi.")
    assert match_table("L4 here, two nights in Jaipur. What's the max room rate?", GRADES, notes=notes).columns == (2,)
    assert match_table("L4 here, two nights in Pune. What's the max room rate?", GRADES, notes=notes).columns == (1,)


SALARY_BANDS = TableData(
    "Table 1: Manager salary bands (INR per year)",
    ("Grade", "Band minimum", "Band midpoint", "Band maximum"),
    tuple(TableRow(cells) for cells in [("L4", "2,450,000", "3,060,000", "3,680,000"), ("L5", "3,900,000", "4,870,000", "5,850,000")]),
)


def test_the_top_of_a_band_is_its_maximum_column():
    assert match_table("What's the top of the pay band for an L4 manager?", SALARY_BANDS).columns == (3,)
    assert match_table("What's the band minimum for an L5?", SALARY_BANDS).columns == (1,)


def test_a_label_absent_from_the_table_the_question_names_is_absent_even_if_another_table_has_it():
    bands = Evidence(key=50, breadcrumb="Pay > 2 Bands", text="Table 1", kind="table", rank=1, similarity=0.5, table=SALARY_BANDS)
    hotels = Evidence(key=51, breadcrumb="Travel > 4 Hotels", text="Table 1", kind="table", rank=2, similarity=0.3, table=GRADES)
    answer = compose_answer("What's the band minimum for an L3 people manager?", [bands, hotels])
    assert answer.outcome == NOT_COVERED and "no row for L3" in answer.text


def test_a_named_rows_see_reference_brings_that_sections_rule():
    leave = TableData("Table 1: Leave entitlements", ("Leave type", "Carry forward"),
                      (TableRow(("Earned leave", "Up to a balance of 30 days (see 3.3)")), TableRow(("Sick leave", "Not carried forward"))))
    table = Evidence(key=60, breadcrumb="Leave > 2 Entitlements", text="Table 1", kind="table", rank=1, similarity=0.5, table=leave)
    rule = Evidence(key=61, breadcrumb="Leave > 3 Earned leave > 3.3 Carry forward", rank=2, similarity=0.3,
                    text="Unused earned leave above 30 days lapses on 31 March and is not paid out.")
    other = Evidence(key=62, breadcrumb="Security > 6 Access", rank=3, similarity=0.3,
                     text="Access of an old role is removed within 5 working days, or kept for a handover of up to 30 days.")
    answer = compose_answer("Earned leave carries forward up to 30 days. What happens to anything above that?", [table, rule, other])
    assert "lapses on 31 March" in answer.text
    assert "handover" not in answer.text


def test_an_announced_version_is_told_for_the_named_row_only():
    from policypal.answering.upcoming import upcoming_change

    now = Evidence(key=70, breadcrumb="Travel > 4 Hotels", text="Table 1", kind="table", rank=1, similarity=0.5, table=GRADES)
    later_table = TableData(GRADES.caption, GRADES.headers,
                            tuple(TableRow((r.cells[0], "9" + r.cells[1], r.cells[2])) if r.cells[0] in ("L3", "L6") else r
                                  for r in GRADES.rows))
    later = Evidence(key=71, breadcrumb="Travel > 4 Hotels", text="Table 1", kind="table", rank=0, table=later_table)
    text, source = upcoming_change("What's the metro hotel cap for grade L3?", [now], [later])
    assert "L3" in text and "93,200" in text and "L6" not in text
    assert upcoming_change("What's the metro hotel cap for grade L2?", [now], [later]) is None  # L2 does not change
    # the new row is cited by its own row chunk, not by the table piece the search found
    with_ids = TableData(later_table.caption, later_table.headers,
                         tuple(TableRow(r.cells, sentence=f"Grade {r.cells[0]}: {r.cells[1]}", chunk_id=800 + i)
                               for i, r in enumerate(later_table.rows)))
    _, source = upcoming_change("What's the metro hotel cap for grade L3?", [now], [replace(later, table=with_ids)])
    assert source.key == 802 and source.kind == "table_row" and "L3" in source.text



def test_an_absent_row_hears_of_an_announced_version_only_when_it_adds_that_row():
    from policypal.answering.upcoming import upcoming_change

    now = Evidence(key=70, breadcrumb="Travel > 4 Hotels", text="Table 1", kind="table", rank=1, similarity=0.5, table=GRADES)
    changed = TableData(GRADES.caption, GRADES.headers,
                        tuple(TableRow((r.cells[0], "9" + r.cells[1], r.cells[2])) for r in GRADES.rows))
    later = Evidence(key=71, breadcrumb="Travel > 4 Hotels", text="Table 1", kind="table", rank=0, table=changed)
    # every row changes, yet none is the asked grade: nothing of another grade's row is told
    assert upcoming_change("What's the metro hotel cap for grade L9?", [now], [later]) is None
    widened = replace(later, table=TableData(GRADES.caption, GRADES.headers,
                                             GRADES.rows + (TableRow(("L9", "12,000", "8,000")),)))
    text, _ = upcoming_change("What's the metro hotel cap for grade L9?", [now], [widened])
    assert "L9" in text and "12,000" in text and "L6" not in text

BREAKS = TableData(
    "Table 4: Minimum breaks by length of duty",
    ("Length of duty", "Minimum break", "Of which paid"),
    tuple(TableRow(cells, chunk_id=300 + i) for i, cells in enumerate([
        ("up to 4 hours", "none", "0 minutes"), ("4-6 hours", "15 minutes", "10 minutes"), ("6-9 hours", "30 minutes", "20 minutes"),
        ("9-11 hours", "45 minutes", "25 minutes"), ("over 11 hours", "60 minutes", "35 minutes"),
    ])),
)


def test_a_quantity_written_with_a_hyphen_picks_its_range_row():
    assert labels("On a 10-hour duty, how much of my break is paid?", BREAKS)[1] == ["9-11 hours"]
    assert labels("For a five-hour duty, what is the minimum break?", BREAKS)[1] == ["4-6 hours"]


def test_a_named_cell_does_not_answer_an_ask_about_something_the_policies_never_use():
    answer = compose_answer("What overtime rate applies to band B14 in Europe?", [_table_evidence(BANDS)],
                            corpus_mentions={"overtim": False})
    assert answer.outcome == PARTLY and "overtime" in " ".join(answer.missing)
    assert compose_answer("What rate applies to band B14 in Europe?", [_table_evidence(BANDS)]).outcome == ANSWERED


def test_a_named_row_does_not_answer_a_question_about_what_no_policy_mentions():
    mentions = {"whistleblow": False, "concern": False, "contact": False}
    answer = compose_answer("Who should I contact to raise a whistleblowing concern about sick leave?", [_table_evidence(LEAVE)],
                            corpus_mentions=mentions)
    assert answer.outcome == NOT_COVERED and answer.cited == []
    # a row named by its code is what is asked for, whatever else the question tells
    answer = compose_answer("A whistleblowing case aside, what is the daily subsistence rate for band B14 in Europe?",
                            [_table_evidence(BANDS)], corpus_mentions=mentions)
    assert answer.outcome != NOT_COVERED and "88.25" in answer.text


def test_a_table_about_what_the_asker_does_not_do_is_not_the_answer():
    hotels = TableData("Table 2: Hotel nightly caps by country (GBP per night)", ("Country", "Capital", "Other cities"),
                       (TableRow(("United Kingdom", "180", "118"), chunk_id=501), TableRow(("France", "160", "110"), chunk_id=502)))
    hotel_caps = Evidence(500, "Travel > 4 Hotels", "", kind="table", rank=1, similarity=0.5, table=hotels)
    answer = compose_answer("If I stay at my sister's in Leeds instead of a hotel, what's the nightly amount?", [hotel_caps],
                            corpus_mentions={})
    assert "118" not in answer.text
    assert "118" in compose_answer("What's the nightly hotel cap in Leeds?", [hotel_caps], corpus_mentions={}).text
