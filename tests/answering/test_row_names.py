"""Rows named as the table names them, and names a table lacks: bare letters under a header
("Category C"), a longer title ending with a label ("Assistant Store Manager" is not "Store
Manager"), a word built as the labels are ("Megastore"), a kind of row the caption names ("a
Saturday premium" in a table of shift types); a general word names its kinds, but two kinds do
not name each other (Saturday is not Sunday)."""
from policypal.answering.rows import match_table
from policypal.answering.terms import equivalents, stem

from .row_helpers import named, table



INCIDENTS = table(("Category", "Incident type", "Form"), [
    ("A", "Theft under GBP 100", "Form IR-2"), ("B", "Theft of GBP 100 or more", "Form IR-5"), ("C", "Assault", "Form IR-3"),
    ("D", "Threats", "Form IR-7"), ("E", "Fraud", "Form IR-4"),
], caption="Table 1: Incident categories and forms")
ROLES = table(("Role", "United Kingdom (GBP)", "Poland (PLN)"), [
    ("Checkout Assistant", "GBP 4.00", "PLN 20.00"), ("Senior Checkout Assistant", "GBP 6.50", "PLN 30.00"),
    ("Duty Manager", "GBP 15.00", "PLN 70.00"), ("Store Manager", "GBP 25.00", "PLN 120.00"),
], caption="Table 2: Till variance tolerances by role")
FORMATS = table(("Store format", "United Kingdom", "Poland"), [
    ("Express", "GBP 4,000.00", "PLN 19,000.00"), ("Local", "GBP 7,000.00", "PLN 33,000.00"),
    ("Superstore", "GBP 22,000.00", "PLN 100,000.00"), ("Hypermarket", "GBP 55,000.00", "PLN 250,000.00"),
], caption="Table 3: Safe limits by store format")
PREMIUMS = table(("Shift type", "United Kingdom", "Germany"), [
    ("Early", "8%", "11%"), ("Late", "14%", "16%"), ("Night", "28%", "23%"), ("Sunday", "30%", "40%"),
], caption="Table 4: Shift premium rates by shift type and country")




def test_bare_letters_are_codes_of_the_label_columns_noun():
    assert named("Which form for a Category C incident?", INCIDENTS)[:2] == ("label", ["C"])
    assert named("Which form is used to report a Category J incident?", INCIDENTS)[:3] == ("absent", [], "Category J")


def test_a_longer_title_ending_with_a_label_is_absent():
    assert named("till variance tolerance for an Assistant Store Manager in the UK?", ROLES)[:3] == ("absent", [], "Assistant Store Manager")
    assert named("till variance for a Senior Checkout Assistant in Poland", ROLES)[:2] == ("label", ["Senior Checkout Assistant"])
    assert named("variance tolerance for a Store Manager", ROLES)[:2] == ("label", ["Store Manager"])


def test_a_word_built_as_the_labels_are_is_absent():
    assert named("What's the maximum safe limit for a Megastore?", FORMATS)[:3] == ("absent", [], "Megastore")
    assert named("safe limit for a Superstore in Poland", FORMATS)[:2] == ("label", ["Superstore"])


def test_a_kind_the_caption_names_that_no_row_is_is_absent_but_the_general_word_names_its_kind():
    assert named("whats the saturday premium in the UK", PREMIUMS)[:2] == ("absent", [])
    assert named("what's the sunday premium in Germany", PREMIUMS)[:2] == ("label", ["Sunday"])
    assert stem("sunday") not in equivalents(stem("saturday"))  # two kinds of the weekend
    assert {stem("saturday"), stem("sunday")} <= equivalents(stem("weekend"))


SERVICE = table(("Continuous service", "Extra days", "Voucher (Netherlands and Germany)", "Voucher (Poland)"), [
    ("under 2 years", "0", "none", "none"), ("2-4 years", "1", "EUR 50.00", "PLN 200.00"),
    ("5-9 years", "2", "EUR 130.00", "PLN 540.00"), ("10 years or more", "4", "EUR 300.00", "PLN 1,250.00"),
], caption="Table 5: Long-service vouchers by continuous service")
PICKUPS = table(("Expected takings per day", "Maximum interval"), [
    ("up to GBP 2,000", "every 3 hours"), ("GBP 2,000.01-5,000", "every 2 hours"), ("over GBP 5,000", "every 60 minutes"),
], caption="Table 6: Cash pickups by takings")


def test_an_anniversary_is_years_of_service_and_a_k_is_thousands_and_a_city_its_country_column():
    m = match_table("just hit my 10th anniversary at the Hamburg DC, what is the voucher worth", SERVICE)
    assert [r.cells[0] for r in m.rows] == ["10 years or more"] and [SERVICE.headers[i] for i in m.columns] == [
        "Voucher (Netherlands and Germany)"]
    m = match_table("6th anniversary next week, I work in Poznan", SERVICE)
    assert [r.cells[0] for r in m.rows] == ["5-9 years"] and [SERVICE.headers[i] for i in m.columns] == ["Voucher (Poland)"]
    assert [r.cells[0] for r in match_table("busy till doing more than 5k a day - how often", PICKUPS).rows] == ["over GBP 5,000"]
    assert [r.cells[0] for r in match_table("a quiet store, about 1.5k a day", PICKUPS).rows] == ["up to GBP 2,000"]


def test_a_plural_of_a_y_word_names_its_row():
    assert named("I'm on earlies at the Manchester store - what premium?", PREMIUMS)[:2] == ("label", ["Early"])


def test_a_row_found_by_some_of_its_words_does_not_answer_a_yes_no_question():
    from policypal.answering.compose import compose_answer
    from policypal.answering.evidence import ANSWERED, Evidence

    records = table(("Record type", "Retention period"), [
        ("Adult clinical record", "8 years"), ("Deceased patient record", "10 years"), ("Payroll record", "6 years"),
    ], caption="Table 1: Retention schedule by record type")
    host = Evidence(1, "Records > 4.1 Retention periods", "Table 1", kind="table", policy="records", rank=1, similarity=0.5,
                    table=records)
    yes_no = compose_answer("Can a patient ask us to erase their records before the retention period ends?", [host],
                            corpus_mentions={})
    assert yes_no.outcome != ANSWERED and "10 years" not in yes_no.text  # the deceased patient's row is not the answer
    # the same words asking for the value: the row answers
    asked = compose_answer("What is the retention period for a deceased patient's record?", [host], corpus_mentions={})
    assert asked.outcome == ANSWERED and "10 years" in asked.text and "8 years" not in asked.text


def test_a_named_row_in_a_country_the_columns_lack_is_absent_with_the_table_cited():
    from policypal.answering.compose import compose_answer
    from policypal.answering.evidence import NOT_COVERED, Evidence

    host = Evidence(1, "Working time > 5.1 Premium rates", "Table 4", kind="table", policy="time", rank=1, similarity=0.5,
                    table=PREMIUMS)
    answer = compose_answer("what is the Sunday premium for our stores in Belgium", [host], corpus_mentions={})
    assert answer.outcome == NOT_COVERED and "no Belgium column" in answer.text
    assert "30%" not in answer.text and "40%" not in answer.text and [e.key for e in answer.cited] == [1]


def test_an_amount_names_the_row_whose_description_holds_its_span():
    assert named("a customer walked out with a £40 bottle of whisky without paying, which form?", INCIDENTS)[:2] == ("range", ["A"])
    assert named("stock worth about £600 was stolen, which form do I need?", INCIDENTS)[:2] == ("range", ["B"])


BODIES = table(("Code", "Body name", "Annual fee covered", "Evidence needed"), [
    ("PB-01", "Royal Institute of Planners", "£410", "CPD log"), ("PB-02", "Guild of Surveyors", "£120", "CPD declaration"),
    ("PB-10", "Passive House Trust", "£175", "Designer renewal"), ("PB-11", "Institute of Building", "£1,050", "Review logbook"),
], caption="Table 1: Approved professional bodies")


def test_the_noun_of_a_name_column_beside_codes_names_a_code():
    assert named("body 10 - how much does the practice pay towards the subscription?", BODIES)[:2] == ("label", ["PB-10"])
    assert named("What evidence is needed for body 11?", BODIES)[1:] == (["PB-11"], "", ["Evidence needed"])
