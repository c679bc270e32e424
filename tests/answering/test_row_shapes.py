"""Table shapes beyond codes and year ranges: lettered codes, place columns, kinds of row the
table does not have, spans of money, hours and minutes, written-out range labels, the asked
column by the header's own word or by what the question asks for (a cycle)."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ANSWERED, NOT_COVERED, Evidence
from policypal.answering.rows import match_table, table_columns_text, table_range_text

from .row_helpers import named, table



HELMETS = table(("Site Category", "Typical site", "Head protection"), [
    ("Cat A", "Finished office", "None required"), ("Cat B", "Occupied building with minor works", "Bump cap"),
    ("Cat C", "Live construction site", "Hard hat"), ("Cat D", "Work at height", "Hard hat with chin strap"),
])
SITES = table(("Shift type", "Core Hours", "Harbour Depot", "Ridge Terminal", "Valley Hub"), [
    ("Early", "Mon-Fri 05:00-13:30", "24.50", "26.10", "22.90"), ("Late", "Mon-Fri 13:30-22:00", "36.20", "38.70", "34.30"),
    ("Night", "Mon-Fri 22:00-05:00", "61.30", "64.50", "57.60"), ("Weekend Night", "Fri-Sun 22:00-05:00", "83.50", "87.20", "79.80"),
])
OFFICES = table(("Role Family", "London", "Manchester"), [
    ("Design", "£640", "£585"), ("Technical", "£760", "£695"), ("Operations", "£430", "£395"),
])
TIERS = table(("On-call tier", "Response time", "Canada", "USA"), [
    ("Tier 1", "20 minutes", "CAD 640 per week", "USD 520 per week"), ("Tier 2", "45 minutes", "CAD 455 per week", "USD 370 per week"),
])
SPEND = table(("Spend band", "Approver", "Quotes needed", "Lead time"), [
    ("Up to CAD 2,500", "Budget holder", "No quotes required", "2 business days"),
    ("CAD 2,500.01-25,000", "Director", "Two written quotes", "6 business days"),
    ("CAD 25,000.01-250,000", "Vice president", "Three written quotes", "18 business days"),
    ("Over CAD 250,000", "Chief financial officer", "Formal request for proposal", "40 business days"),
])
CALLOUTS = table(("Callout duration", "Minimum paid", "Rest before next shift"), [
    ("under 1 hour", "Paid as 2 hours", "No rest period required"), ("1-3 hours", "Paid as 4 hours", "8 consecutive hours"),
    ("3+ hours", "Actual time", "11 consecutive hours"),
])
OVERTIME = table(("Overtime hours in the month", "Weekday multiplier", "Saturday multiplier", "Sunday and public holiday multiplier"), [
    ("0-8 hours", "1.50", "1.75", "2.00"), ("8-16 hours", "1.65", "1.90", "2.20"), ("16+ hours", "1.80", "2.10", "2.40"),
])
DEVICES = table(("Job family", "Laptop refresh cycle", "Company phone", "Phone refresh cycle"), [
    ("Field Sales", "42 months", "Standard smartphone", "24 months"), ("Executive", "24 months", "Premium smartphone", "18 months"),
    ("Corporate Services", "48 months", "Phone stipend", "30 months"),
])




def test_a_lettered_code_is_matched_exactly_and_a_missing_letter_is_absent():
    assert named("hi-vis requirement for Cat D", HELMETS)[:2] == ("label", ["Cat D"])
    assert named("What goes on my head on a Cat-B site?", HELMETS)[:2] == ("label", ["Cat B"])
    assert named("head protection for category C", HELMETS)[:2] == ("label", ["Cat C"])  # the column's noun
    assert named("Head protection needed for a Cat H site?", HELMETS)[:3] == ("absent", [], "Cat H")
    assert table_range_text(HELMETS) == "site categories Cat A to Cat D"


def test_a_place_the_place_columns_lack_is_absent_not_the_column_sharing_a_word():
    m = match_table("What's the night shift premium at Lakeside Terminal?", SITES)
    assert (m.how, m.asked, m.column_absent) == ("absent", "Lakeside Terminal", True)  # not Ridge Terminal
    m = match_table("Home equipment allowance for a Design person in the Edinburgh office?", OFFICES)
    assert (m.how, m.asked, m.column_absent) == ("absent", "Edinburgh", True)
    m = match_table("How much is on-call standby pay in Mexico?", TIERS)
    assert (m.how, m.asked, m.column_absent) == ("absent", "Mexico", True)
    assert table_columns_text(TIERS) == "figures for Canada and USA"
    # the place is a column: answered from it
    assert named("Design allowance in Manchester?", OFFICES)[1:] == (["Design"], "", ["Manchester"])
    assert named("Tier 2 standby in Canada", TIERS)[1:] == (["Tier 2"], "", ["Canada"])


def test_a_kind_of_row_the_table_lacks_is_absent():
    assert named("What is the hourly premium for a split shift at Valley Hub?", SITES)[:3] == ("absent", [], "split shift")
    assert named("Equipment allowance for the Research role family in London?", OFFICES)[:3] == ("absent", [], "Research role family")
    assert named("laptop cycle for the Customer Support job family", DEVICES)[:3] == ("absent", [], "Customer Support job family")
    # words that say which one, not what kind, are not a kind
    assert named("premium for my usual shift", SITES) is None
    assert named("Night shift premium at Valley Hub", SITES)[1] == ["Night"]


def test_a_row_and_a_column_named_is_the_cell_and_the_scene_words_do_not_make_it_partial():
    t = SITES
    host = Evidence(key=1, breadcrumb="Shift policy > 4.2 Premium table", text="| Shift type | ... |", kind="table", rank=1,
                    similarity=0.6, table=t)
    answer = compose_answer("I'm working an early shift at Ridge Terminal on a Tuesday. What's the hourly premium?", [host],
                            corpus_mentions={"tuesday": False})
    assert answer.outcome == ANSWERED
    assert "Ridge Terminal: 26.10" in answer.text and "24.50" not in answer.text and "22.90" not in answer.text


def test_an_absent_column_answer_names_the_columns_and_cites_the_table():
    host = Evidence(key=1, breadcrumb="Shift policy > 4.2 Premium table", text="| Shift type | ... |", kind="table", rank=1,
                    similarity=0.6, table=SITES)
    answer = compose_answer("What's the night shift premium at Lakeside Terminal?", [host])
    assert answer.outcome == NOT_COVERED
    assert "no row for Lakeside Terminal and no Lakeside Terminal column" in answer.text and "“4.2 Premium table”" in answer.text
    assert "Harbour Depot, Ridge Terminal and Valley Hub" in answer.text and "61.30" not in answer.text
    assert [e.key for e in answer.cited] == [1]


def test_amounts_in_any_currency_code_and_durations_in_hours_and_minutes_pick_their_span():
    assert named("How many quotes do I need for a CAD 40,000 order?", SPEND)[1:] == (["CAD 25,000.01-250,000"], "", ["Quotes needed"])
    assert named("lead time for a purchase of CAD 1,800", SPEND)[1] == ["Up to CAD 2,500"]
    assert named("We're buying a CAD 300,000 sequencer. What lead time?", SPEND)[1] == ["Over CAD 250,000"]
    assert named("My callout only took 40 minutes. How much rest do I need?", CALLOUTS)[1] == ["under 1 hour"]
    assert named("I was called out for 4 hours last night.", CALLOUTS)[1] == ["3+ hours"]


def test_past_a_number_is_beyond_it_and_a_written_label_names_its_row():
    assert named("weekday multiplier once I'm past 16 hours of overtime", OVERTIME)[1:] == (["16+ hours"], "", ["Weekday multiplier"])
    assert named("multiplier in the 8-16 hours band", OVERTIME)[1] == ["8-16 hours"]  # not 0-8, which holds 8
    assert named("weekday multiplier for my first 3 overtime hours", OVERTIME)[1] == ["0-8 hours"]  # the unit a word later


def test_the_header_word_as_written_beats_a_synonym():
    # the lexicon joins the days of the weekend; "Sunday" is still the Sunday column
    assert named("Sunday overtime multiplier for my first 3 overtime hours", OVERTIME)[3] == ["Sunday and public holiday multiplier"]
    assert named("Saturday multiplier for 12 hours of overtime", OVERTIME)[3] == ["Saturday multiplier"]


def test_how_often_asks_for_the_cycle_column_of_the_thing_named():
    assert named("How often do executives get a new phone?", DEVICES)[1:] == (["Executive"], "", ["Phone refresh cycle", "Company phone"])
    assert named("How often is the laptop replaced for Field Sales?", DEVICES)[3][0] == "Laptop refresh cycle"


def test_a_named_cell_answers_its_own_ask_but_not_another_ask_of_the_question():
    host = Evidence(1, "Site Rates > Shift premiums", SITES_TEXT, kind="table", policy="shifts", rank=1, table=SITES)
    # the cell alone: answered, the rest of its ask sets the scene
    alone = compose_answer("What is the Late premium at Ridge Terminal on a Tuesday?", [host], corpus_mentions={})
    assert alone.outcome == ANSWERED and "38.70" in alone.text
    # another ask beside it, about something the policies never mention: partly answered, named
    both = compose_answer("What is the Late premium at Ridge Terminal, and does the company pay for my gym membership?",
                          [host], corpus_mentions={"gym": False, "membership": False})
    assert both.outcome == "partly"
    assert "38.70" in both.text and "gym" in both.text.split("[1]")[-1]


SITES_TEXT = "Shift premiums by site (GBP per shift)\n\n| " + " | ".join(SITES.headers) + " |\n" + "\n".join(
    "| " + " | ".join(r.cells) + " |" for r in SITES.rows)
