"""Row labels beyond single codes: spans of codes ("G9 - G10"), a lettered family with a digit
("Class B2" beside "Class B"), names written with or without their accents, the asker's origin
beside their destination; and the column or table the question's own words point at, before a
synonym's."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ANSWERED, Evidence, TableData, TableRow
from policypal.answering.rows import match_table, table_range_text
from policypal.answering.terms import words


def table(headers, rows, caption=""):
    return TableData(caption, tuple(headers), tuple(TableRow(tuple(r), chunk_id=700 + i) for i, r in enumerate(rows)))


def pipes(t: TableData) -> str:
    lines = [t.caption, "", "| " + " | ".join(t.headers) + " |", "|" + "---|" * len(t.headers)]
    return "\n".join(lines + ["| " + " | ".join(r.cells) + " |" for r in t.rows])


def named(question, t):
    m = match_table(question, t)
    return None if m is None else (m.how, [r.cells[0] for r in m.rows], m.asked, [t.headers[i] for i in m.columns])


MOVES = table(("Grade", "Lump sum", "Removal volume limit", "Temporary housing"), [
    ("G1 - G3", "EUR 2,500", "20 cubic metres", "30 days"), ("G4 - G6", "EUR 4,000", "30 cubic metres", "45 days"),
    ("G7 - G8", "EUR 6,500", "40 cubic metres", "60 days"), ("G9 - G10", "EUR 9,000", "50 cubic metres", "75 days"),
    ("G11", "EUR 12,500", "60 cubic metres", "90 days"), ("G12", "EUR 15,000", "70 cubic metres", "120 days"),
], caption="Table 1: Relocation entitlements by grade")
RATES = table(("Grade", "Weekday rate", "Saturday rate", "Sunday / bank holiday rate", "Maximum TOIL balance"), [
    ("G3", "1.30x", "1.55x", "2.00x", "20 hours"), ("G4", "1.30x", "1.55x", "2.10x", "22 hours"),
    ("G9", "Not applicable", "Not applicable", "Not applicable", "35 hours"),
], caption="Table 1: Overtime multipliers and TOIL limits by grade")
CLASSES = table(("Class", "Equipment", "Minimum age", "Refresher interval"), [
    ("Class A", "Pallet truck", "18", "48 months"), ("Class B", "Counterbalance up to 5 tonnes", "18", "36 months"),
    ("Class B2", "Counterbalance over 5 tonnes", "21", "24 months"), ("Class C", "Reach truck", "18", "36 months"),
])
HOSTS = table(("Host location", "Country", "Monthly supplement", "Language tuition"), [
    ("Rotterdam", "Netherlands", "EUR 350", "40 hours"), ("Antwerp", "Belgium", "EUR 300", "30 hours"),
    ("Poznań", "Poland", "EUR 155", "60 hours"), ("Leeds", "United Kingdom", "EUR 325", "Not provided"),
])
APPROVALS = table(("Overtime hours in the week", "Approved by", "Minimum notice"), [
    ("Up to 4 hours", "Team leader", "1 day"), ("4.5 - 8 hours", "Shift manager", "2 days"),
    ("8.5 - 12 hours", "Site operations manager", "3 days"),
])


def test_a_span_of_codes_holds_every_code_in_it_and_the_table_range_reads_from_end_to_end():
    assert named("What's the removal volume limit for a grade 9 employee?", MOVES)[:2] == ("label", ["G9 - G10"])
    assert named("I'm a G5. How big is the lump sum?", MOVES)[:2] == ("label", ["G4 - G6"])
    assert named("lump sum for G11?", MOVES)[:2] == ("label", ["G11"])  # not inside "G1 - G3"
    assert named("What is the lump sum for grade 14?", MOVES)[:3] == ("absent", [], "G14")
    assert table_range_text(MOVES) == "grades G1 to G12"


def test_a_lettered_family_keeps_a_letter_with_a_digit_as_its_own_code():
    assert named("How often does a Class B2 licence need a refresher?", CLASSES)[:2] == ("label", ["Class B2"])
    assert named("refresher for Class B?", CLASSES)[:2] == ("label", ["Class B"])
    assert named("I hold a B2 licence: what is the minimum age?", CLASSES)[:2] == ("label", ["Class B2"])
    assert named("Class B3 refresher interval?", CLASSES)[:3] == ("absent", [], "Class B3")


def test_a_name_typed_without_its_accents_names_the_row():
    assert words("Poznań") == ["poznan"]
    assert named("Monthly supplement for Poznan?", HOSTS)[:2] == ("label", ["Poznań"])


def test_the_place_the_asker_comes_from_is_not_the_row_asked_for():
    assert named("We're being relocated from Antwerp to Leeds. Is language tuition included there?", HOSTS)[:2] == (
        "label", ["Leeds"])


def test_the_header_word_the_question_writes_beats_a_synonym_of_another_header():
    # the lexicon joins the days of the weekend; "Sunday" still names the Sunday column
    assert named("What's the Sunday overtime multiplier for a G4 employee?", RATES)[3] == ["Sunday / bank holiday rate"]
    assert named("Saturday rate for G4?", RATES)[3] == ["Saturday rate"]


def test_who_asks_for_the_column_of_people():
    assert named("If I do 10 hours overtime this week, who has to sign that off?", APPROVALS)[3][0] == "Approved by"


def test_of_two_tables_with_the_named_row_the_one_the_question_words_point_at_answers():
    moves = Evidence(1, "Relocation > 4 Entitlements", pipes(MOVES), kind="table", policy="relocation", rank=1, table=MOVES)
    rates = Evidence(2, "Overtime > 4 Rates", pipes(RATES), kind="table", policy="overtime", rank=2, table=RATES)
    answer = compose_answer("What's the removal volume limit for a grade 9 employee?", [rates, moves], corpus_mentions={})
    assert answer.outcome == ANSWERED
    assert "50 cubic metres" in answer.text and "35 hours" not in answer.text


def test_a_number_in_the_question_does_not_name_a_row_by_a_quantity_cell():
    # "20" is in "20 cubic metres" of G1 - G3; the question asks about months since a move
    answer = compose_answer("leaving after 20 months, how much do I repay?", [
        Evidence(1, "Relocation > 4 Entitlements", pipes(MOVES), kind="table", policy="relocation", rank=1, table=MOVES)],
        corpus_mentions={})
    assert "G1 - G3" not in answer.text and "EUR 2,500" not in answer.text


TRAINING = table(("Verified operating hours (last 24 months)", "Training route", "Course length"), [
    ("0 - 99 hours", "Novice course", "Full initial training"), ("100 - 499 hours", "Conversion course", "60% of initial training"),
    ("500 - 1,999 hours", "Experienced operator course", "1 day"), ("2,000 hours or more", "Direct assessment", "Half a day"),
])


def test_a_quantity_in_the_labels_own_unit_names_the_range_row_before_another_quantity():
    # "the past two years" is a time too; the table counts hours
    assert named("I've got about 750 operating hours on reach trucks from my last employer in the past two years. "
                 "Which training route do I go on?", TRAINING)[:2] == ("range", ["500 - 1,999 hours"])


def test_a_city_a_table_of_places_lacks_is_absent():
    assert named("What is the monthly supplement for a relocation to Milan?", HOSTS)[:3] == ("absent", [], "Milan")
    assert named("Monthly supplement in Leeds?", HOSTS)[:2] == ("label", ["Leeds"])


def test_a_yes_no_question_about_a_thing_nothing_found_carries_is_not_answered_by_the_named_rows():
    rates = Evidence(2, "Overtime > 4 Rates", pipes(RATES), kind="table", policy="overtime", rank=1, table=RATES)
    answer = compose_answer("Is there a company car for grade G4 managers?", [rates], corpus_mentions={})
    # (a grade told in a yes/no ask does not make the overtime table the question: not covered,
    # where before the G4 row was given as partly answering it)
    assert answer.outcome != ANSWERED and "2.10x" not in answer.text and "22 hours" not in answer.text
    # a question for a value is answered by the row, whatever scene its other nouns set
    assert compose_answer("G4 Saturday rate for a trip to Denver?", [rates], corpus_mentions={}).outcome == ANSWERED
