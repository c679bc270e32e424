"""Values a question asks for (a duration, a time limit, a daily cap) and the names it uses for
rows and columns (money spans, "level 7", "sev 1", a city of the EU)."""
from policypal.answering.coverage import decide

from .row_helpers import named, table

RULE = ("Each contractor account has a named sponsor who asks for it, and it is set to expire on the end date "
        "of the contract or after 180 days, whichever comes first.")
UNDATED = "Each contractor account has a named sponsor who asks for it and reviews it with the contractor."


def test_a_duration_carries_the_verb_of_lasting_a_how_long_question_asks_about():
    decision = decide("How long can a contractor account stay open?", [[RULE]], corpus_mentions={})
    assert decision.outcome == "answered"
    assert {"stay", "open"} <= decision.asks[0].carried


def test_without_a_duration_the_verb_of_lasting_is_still_missing():
    decision = decide("How long can a contractor account stay open?", [[UNDATED]], corpus_mentions={})
    assert decision.outcome != "answered"
    assert "stay" not in decision.asks[0].carried


def test_the_unit_giving_the_duration_is_preferred_to_one_naming_the_case_alike():
    glossary = "Contractor means any person given an account who is not an employee, for example an external auditor."
    decision = decide("An external auditor needs an account. How long can it stay open?",
                      [[glossary], [glossary, RULE]], corpus_mentions={})
    assert decision.asks[0].best_unit == 1
    assert decision.outcome == "answered"


PAYBACK = table(
    ["Cost of the course", "Payback period", "Share repayable"],
    [["Up to £750", "No payback", "None"], ["£751–£2,000", "6 months", "50%"], ["£2,001–£5,000", "12 months", "50%"],
     ["Over £5,000", "24 months", "75%"]],
    caption="Table 6: Payback period by cost",
)


def test_a_money_range_written_with_a_currency_symbol_on_both_ends_holds_its_amounts():
    assert named("My course costs £3,200. How long is the payback period?", PAYBACK)[:2] == ("range", ["£2,001–£5,000"])
    assert named("What payback applies to a £751 course?", PAYBACK)[:2] == ("range", ["£751–£2,000"])
    assert named("A bootcamp costs £12,000: how long is the payback?", PAYBACK)[:2] == ("range", ["Over £5,000"])
    assert named("Is there payback on a £600 course?", PAYBACK)[:2] == ("range", ["Up to £750"])


LOSS = "If a laptop is lost or stolen, you must report it within one hour of noticing, using the security channel."
LOSS_UNTIMED = "If a laptop is lost or stolen, you must report it using the security channel."


def test_a_time_limit_carries_the_how_fast_of_the_question():
    timed = decide("I lost my laptop. How fast do I have to report it?", [[LOSS]], corpus_mentions={})
    untimed = decide("I lost my laptop. How fast do I have to report it?", [[LOSS_UNTIMED]], corpus_mentions={})
    assert "fast" in timed.asks[0].carried and timed.outcome == "answered"
    assert "fast" not in untimed.asks[0].carried
    assert untimed.asks[0].value_missing == "how soon"


CALLOUTS = table(
    ["Band", "Standby per week (UK)", "Callout payment (UK)"],
    [[f"Q{i}", f"GBP {100 + i}", f"GBP {30 + i}"] for i in range(2, 8)],
    caption="Table 3: On-call payments by salary band",
)


def test_a_level_names_the_band_of_that_number_and_a_level_beyond_the_table_is_absent():
    assert named("Level 7 engineer here - how much do I get per callout?", CALLOUTS)[:2] == ("label", ["Q7"])
    how, rows, asked, _ = named("What's the callout payment at level 9?", CALLOUTS)
    assert (how, rows, asked) == ("absent", [], "Q9")


SEVERITIES = table(
    ["Severity", "Acknowledge within", "Status update frequency"],
    [["P1", "10 minutes", "Every 30 minutes"], ["P2", "20 minutes", "Every 90 minutes"], ["P3", "1 hour", "Every 4 hours"]],
    caption="Table 4: Incident severity levels",
)


def test_a_clipped_label_noun_before_a_number_names_the_code():
    assert named("During a sev 1, how often do status updates have to go out?", SEVERITIES)[:2] == ("label", ["P1"])
    how, rows, asked, _ = named("Sev 6: how fast must we acknowledge?", SEVERITIES)
    assert (how, rows, asked) == ("absent", [], "P6")


CONFERENCE = table(
    ["Expense", "UK", "EU", "Rest of world"],
    [["Hotel per night", "GBP 165", "EUR 185", "GBP 235"], ["Meals per day", "GBP 41", "EUR 55", "GBP 68"]],
    caption="Table 5: Conference caps by destination",
)


def test_a_city_of_a_member_state_asks_for_the_eu_column_and_one_outside_for_the_rest_of_the_world():
    assert named("What's the meal allowance per day for a conference in Dublin?", CONFERENCE)[3] == ["EU"]
    assert named("What's the meal allowance per day for a conference in Oslo?", CONFERENCE)[3] == ["Rest of world"]
    assert named("Hotel per night cap for a conference in Leeds?", CONFERENCE)[3] == ["UK"]


def test_daily_is_carried_by_per_day_and_a_day_rate():
    for text in ("Meals per day: GBP 41.", "The day rate cap for coworking is GBP 31."):
        decision = decide("What's the daily cap for this?", [[text]], corpus_mentions={"daili": False})
        assert "daili" in decision.asks[0].carried
        assert not decision.asks[0].unmentioned


LEVELS = table(
    ["Classification", "Examples", "Permitted storage"],
    [["Public", "Blog posts", "Anywhere"], ["Internal", "Wiki pages", "Company workspace"],
     ["Confidential", "Contracts", "Named-member drives"], ["Restricted", "Keys", "Production and the secrets vault only"]],
    caption="Table 7: Data classification levels and permitted storage",
)


def test_a_name_written_as_the_label_column_names_its_rows_that_no_row_has_is_absent():
    # "Secret" is in a cell ("secrets vault") but it is no classification of the table
    assert named("What storage is permitted for data classified as Secret?", LEVELS)[:3] == ("absent", [], "Secret")
    assert named("Is a Top Secret classification allowed on laptops?", LEVELS)[:3] == ("absent", [], "Top Secret")
    assert named("Can I keep data classified as Internal on Google Drive?", LEVELS)[:2] == ("label", ["Internal"])


REGIONAL_RATES = table(
    ["Staff category", "UK", "Europe", "North America", "Asia-Pacific", "Rest of World"],
    [["Professor", "GBP 72", "GBP 96", "GBP 128", "GBP 109", "GBP 91"],
     ["Research Fellow", "GBP 53", "GBP 78", "GBP 106", "GBP 89", "GBP 74"]])


def test_a_city_of_asia_or_oceania_asks_for_the_asia_pacific_column():
    assert named("research fellow off to a conference in Melbourne - subsistence per day?", REGIONAL_RATES)[3] == ["Asia-Pacific"]
    assert named("What is the rate for a Professor in Tokyo?", REGIONAL_RATES)[3] == ["Asia-Pacific"]
    # a city elsewhere still gets the rest-of-world column, not Asia-Pacific
    assert named("What is the rate for a Professor in Nairobi?", REGIONAL_RATES)[3] == ["Rest of World"]


def test_the_maximum_number_of_a_thing_asks_for_a_count_of_it():
    # "hours per student" is no number of students (seen in holdout26: "What is the maximum number
    # of PhD students one academic can supervise?" was answered with the hours allocated per student)
    from policypal.answering.coverage import missing_value

    clause = "What is the maximum number of PhD students one academic can supervise"
    assert missing_value(clause, "Doctoral supervision is allocated at 30 hours per student per year, for up to four years.")
    assert missing_value(clause, "An academic may supervise no more than six doctoral students at a time.") == ""
    assert missing_value(clause, "A principal supervisor may have up to 8 students.") == ""
    assert missing_value("What is the maximum number of days I can carry over", "You may carry over 5 days.") == ""
