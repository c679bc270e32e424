"""Seen in the blind runs of holdout40 (a prison and probation service) and holdout41 (an airport
ground handler): labels that write a code and a name ("RA2 – Ramp Agent", "B3 (Prison
Officer)") where one row's whole name is written and others hold it with a word more; columns
written per country ("Overtime rate – Irish airports") asked for by a city; a family written both
ways ("Band 2", "B3"); ordinal pay points ("the second pay point"); a column of posts naming the
row; days of the week against day-span columns; temperature, wind-speed and points bands; the
column a question word asks for; a place spelt with one slip."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ANSWERED, NOT_COVERED
from policypal.answering.rows import _range, _the_asked_thing
from policypal.answering.terms import stem

from .row_helpers import named, ranked_tables, table

GROUND_PAY = table(
    ["Grade", "Basic hourly rate – UK airports", "Basic hourly rate – Irish airports", "Overtime rate – UK airports",
     "Overtime rate – Irish airports"],
    [["RA1 – Ramp Agent (Trainee)", "£12.40", "€14.35", "£18.60", "€21.53"],
     ["RA2 – Ramp Agent", "£13.25", "€15.30", "£19.88", "€22.95"],
     ["Senior Ramp Agent (RA3)", "£14.60", "€16.85", "£21.90", "€25.28"],
     ["Team Leader (TL1)", "£16.20", "€18.70", "£24.30", "€28.05"],
     ["TL2 – Senior Team Leader", "£17.45", "€20.15", "£26.18", "€30.23"]],
    caption="Table 1: Grades and hourly rates",
)
PRISON_PAY = table(
    ["Grade", "Typical posts", "Entry point", "Point 2", "Point 3", "Maximum"],
    [["Band 2 (OSG)", "Gate, visits, stores", "£24,310", "£25,060", "£25,840", "£26,650"],
     ["Band 2N (Night OSG)", "Night patrol", "£25,270", "£26,040", "£26,830", "£27,660"],
     ["B3 (Prison Officer)", "Residential officer; reception officer", "£31,120", "£32,380", "£33,690", "£35,040"],
     ["B3S (Specialist Officer)", "Dog handler; PE instructor; healthcare officer", "£32,470", "£33,760", "£35,110", "£36,530"],
     ["Band 4 (Supervising Officer)", "Wing supervising officer; security SO", "£36,240", "£37,690", "£39,180", "£40,730"],
     ["PS3 (Probation Services Officer)", "Case manager; court duty officer", "£28,940", "£30,070", "£31,240", "£32,460"],
     ["PS4 (Probation Officer)", "High-risk case manager; report writer", "£34,880", "£36,300", "£37,770", "£39,300"]],
    caption="Table 2: Pay points",
)
LOCALITY = table(
    ["Locality zone", "Band 2 and Band 2N", "B3 and B3S", "Band 4", "PS3 and PS4"],
    [["Zone 1 (Inner London)", "£4,150", "£4,820", "£5,060", "£4,490"],
     ["Zone 2 (Outer London)", "£2,760", "£3,240", "£3,410", "£2,980"],
     ["Zone 3 (South East fringe)", "£1,120", "£1,350", "£1,420", "£1,230"]],
    caption="Table 3: Locality pay",
)


def test_the_row_whose_whole_name_is_written_is_the_row():
    # "ramp agent" is every word of RA2's name; RA1 adds "Trainee", RA3 "Senior"
    assert named("whats the hourly rate for a ramp agent at manchester?", GROUND_PAY)[1] == ["RA2 – Ramp Agent"]
    assert named("rate for a senior team leader", GROUND_PAY)[1] == ["TL2 – Senior Team Leader"]
    assert named("overtime rate for a night OSG?", PRISON_PAY)[1] == ["Band 2N (Night OSG)"]
    assert named("overtime rate for an OSG?", PRISON_PAY)[1] == ["Band 2 (OSG)"]
    assert named("probation officer pay point 2", PRISON_PAY)[1] == ["PS4 (Probation Officer)"]


def test_a_code_written_decides_over_a_whole_name():
    # "PS5" is no row: not PS4, whose name "probation officer" is written too
    assert named("What's point 2 on the pay scale for a PS5 senior probation officer?", PRISON_PAY)[:3] == ("absent", [], "PS5")


def test_a_small_word_of_the_name_must_be_written_too():
    contracts = table(["Contract type", "0-2 years", "3-6 years"],
                      [["Teaching and Research", "150 hours", "200 hours"], ["Research Only", "45 hours", "60 hours"],
                       ["Teaching Only", "300 hours", "350 hours"]])
    assert named("I'm on a research-only contract and joined 18 months ago. How many teaching and assessment hours can "
                 "I be allocated a year?", contracts)[1] == ["Research Only"]


def test_a_column_written_for_a_country_is_asked_by_its_cities():
    assert named("ra3 overtime rate in Dublin?", GROUND_PAY)[3] == ["Overtime rate – Irish airports"]
    assert named("I'm a team leader at Cork airport. What's the basic hourly rate for my grade?", GROUND_PAY)[3] == [
        "Basic hourly rate – Irish airports"]
    assert named("whats the hourly rate for a ramp agent at manchester?", GROUND_PAY)[3] == ["Basic hourly rate – UK airports"]


def test_a_column_of_posts_names_the_row_and_ordinals_name_pay_points():
    assert named("I'm a dog handler and I'll be on point 3 from April. What will my salary be?", PRISON_PAY)[1:] == (
        ["B3S (Specialist Officer)"], "", ["Point 3"])
    assert named("probation officer, second pay point - how much is that a year?", PRISON_PAY)[3] == ["Point 2"]
    assert named("whats the starting salary for a prison officer?", PRISON_PAY)[1:] == (
        ["B3 (Prison Officer)"], "", ["Entry point"])


def test_a_family_written_by_its_initial_and_a_row_number_naming_no_column():
    assert named("What's the locality pay for a band 3 officer in zone 2?", LOCALITY)[1:] == (
        ["Zone 2 (Outer London)"], "", ["B3 and B3S"])
    assert named("zone 2 locality for band 2", LOCALITY)[3] == ["Band 2 and Band 2N"]
    # "zone 2" names no "Point 2" of a table of points
    assert named("What's the locality pay for a band 3 officer in zone 2?", PRISON_PAY)[3] == []


def test_a_day_of_the_week_names_the_day_span_column():
    rest_days = table(["Notice given before the rest day", "Monday to Friday rest day", "Saturday or Sunday rest day",
                       "Public holiday"],
                      [["Less than 24 hours", "2 ×", "2.25 ×", "3 ×"], ["24 hours up to 7 days", "1.75 ×", "2 ×", "2.5 ×"],
                       ["More than 7 days up to 28 days", "1.5 ×", "1.75 ×", "2.25 ×"],
                       ["More than 28 days", "Basic plus a replacement rest day", "1.5 ×", "2 ×"]])
    assert named("If they cancel a Wednesday rest day six weeks ahead, what do I get for working it?", rest_days)[1:] == (
        ["More than 28 days"], "", ["Monday to Friday rest day"])
    assert named("a Sunday rest day cancelled three weeks ahead", rest_days)[3] == ["Saturday or Sunday rest day"]


def test_temperature_bands_keep_their_signs():
    assert (_range("–5°C to –9.9°C").low, _range("–5°C to –9.9°C").high) == (-9.9, -5.0)
    assert _range("–15°C or colder").high == -15.0 and _range("–15°C or colder").low is None
    assert _range("Over 27°C up to 32°C").low_inclusive is False and _range("34°C or above").low_inclusive is True
    basket = table(["Outside air temperature (adjusted for wind chill)", "Maximum continuous time in an Open Basket",
                    "Minimum warm-up break before returning"],
                   [["Above 0°C", "90 minutes", "10 minutes"], ["0°C to –4.9°C", "60 minutes", "15 minutes"],
                    ["–5°C to –9.9°C", "40 minutes", "20 minutes"], ["–10°C to –14.9°C", "25 minutes", "30 minutes"],
                    ["–15°C or colder", "Not permitted", "Not applicable"]])
    assert named("It's about -7 with the wind chill tonight, how long can I stay in the open basket?", basket)[1] == ["–5°C to –9.9°C"]
    assert named("done 25 mins in the basket at minus 12, how long a warm up break do i need before going back up?", basket)[1:] == (
        ["–10°C to –14.9°C"], "", ["Minimum warm-up break before returning"])
    assert named("it's 3 degrees below zero, basket time?", basket)[1] == ["0°C to –4.9°C"]
    # a code's digit is no temperature ("nc2 ... at 24 degrees")
    chambers = table(["Air temperature", "NC1", "NC2"], [["Below 20°C", "240 minutes", "190 minutes"],
                                                          ["20-27°C", "210 minutes", "150 minutes"]])
    assert named("max entry time nc2 chamber at 24 degrees", chambers)[1:] == (["20-27°C"], "", ["NC2"])


def test_wind_in_knots_and_points_over_a_period():
    wind = table(["Wind speed", "Passenger steps", "Belt loaders and hi-loaders"],
                 [["Below 25 knots", "Normal use", "Normal use"], ["25 to 34 knots", "Attached", "Platforms lowered"],
                  ["45 to 54 knots", "Withdrawn", "All loader operation stops"]])
    assert named("wind is 48kts, can we still run the belt loader?", wind)[1:] == (
        ["45 to 54 knots"], "", ["Belt loaders and hi-loaders"])
    points = table(["Total points in a rolling 12 months", "Consequence"],
                   [["1 to 3", "Written warning"], ["4 to 6", "Refresher course"], ["7 to 9", "Suspended for 28 days"],
                    ["10 or more", "Withdrawn"]])
    assert named("I've picked up 8 points on my airside permit in the last year, what happens now?", points)[1] == ["7 to 9"]


def test_the_column_the_question_word_asks_for():
    shade = table(["Shade temperature", "Minimum water break", "Maximum continuous time working on the ramp"],
                  [["25°C to 29.9°C", "5 minutes every hour", "No limit"], ["30°C to 33.9°C", "10 minutes every hour", "2 hours"]])
    assert named("It's 31 degrees in the shade today, how often do we get water breaks on the ramp?", shade)[3] == [
        "Minimum water break"]
    # a second ask, and a column named by the verb of the asking clause, keep both columns
    assert _the_asked_thing("funding % and how long is the clawback period", table(
        ["Level", "Funding percentage", "Clawback period"], [["Level 7", "80%", "24 months"]]), [1, 2]) == [1, 2]
    leave = table(["Length of continuous service", "Annual leave (full-time, including bank holidays)",
                   "Maximum carry-over into next leave year"], [["Under 2 years", "25 days", "3 days"]])
    assert _the_asked_thing("How many days of holiday can I carry over into next year?", leave, [1, 2]) == [1, 2]


def test_a_consecutive_run_is_asked_in_a_row():
    duties = table(["Length of the Duty Period just finished", "Minimum rest before the next Duty Period",
                    "Longest run of consecutive duties of this length"],
                   [["Up to 8 hours", "11 hours", "6 duties"], ["More than 10 hours up to 12 hours", "13 hours", "4 duties"]])
    assert named("How many 11 hour shifts in a row can they roster me for?", duties)[3] == [
        "Longest run of consecutive duties of this length"]


def test_a_place_spelt_with_one_slip_and_a_place_no_row_has():
    seasons = table(["Airport", "De-icing season", "Snow Call payment"],
                    [["Manchester", "1 November – 31 March", "£55.00"], ["Edinburgh", "15 October – 15 April", "£62.00"],
                     ["Glasgow", "15 October – 15 April", "£60.00"]], caption="Allowances by airport")
    assert named("When does de-icing season start in Edinbrugh?", seasons)[1] == ["Edinburgh"]
    answer = compose_answer("When does the de-icing season run at Stansted?", ranked_tables(("Winter > 4.1", seasons)),
                            corpus_mentions={stem("stansted"): False, stem("season"): True, stem("run"): True})
    assert answer.outcome == NOT_COVERED and "no row for Stansted" in answer.text and "1 November" not in answer.text
    answer = compose_answer("When does de-icing season start in Edinbrugh?", ranked_tables(("Winter > 4.1", seasons)))
    assert answer.outcome == ANSWERED and "15 October – 15 April" in answer.text and "1 November" not in answer.text


def test_a_speed_in_another_unit_and_a_unit_written_before_its_number():
    wind = table(["Wind speed", "Belt loaders"], [["Below 25 knots", "Normal use"], ["25 to 34 knots", "Platforms lowered"],
                                                  ["45 to 54 knots", "All loader operation stops"]])
    assert named("gusting 60 mph, belt loaders?", wind)[1] == ["45 to 54 knots"]  # 52 knots
    support = table(["Time after the incident", "Support to be offered"],
                    [["Within 72 hours", "First assessment"], ["Day 4 to day 14", "Welfare meeting"], ["4 to 6 weeks", "Follow-up"]])
    assert named("It's been 10 days since the incident. What support should I be offered?", support)[1] == ["Day 4 to day 14"]


def test_a_column_named_by_the_verb_of_the_asking_clause_stays():
    leave = table(["Length of continuous service", "Annual leave days (full-time)", "Maximum carry-over into next leave year"],
                  [["Under 2 years", "25 days", "3 days"]])
    assert _the_asked_thing("How many annual leave days can I carry over?", leave, [1, 2]) == [1, 2]
    assert _the_asked_thing("How many annual leave days do I get?", leave, [1, 2]) == [1]
    overtime = table(["Grade", "Paid overtime", "Weekday rate", "Saturday rate", "Maximum TOIL balance"],
                     [["G1", "Yes", "1.25x", "1.5x", "16 hours"]])
    assert _the_asked_thing("what is the weekday overtime rate and the max toil balance for g1", overtime, [2, 4]) == [2, 4]


def test_a_word_of_the_named_row_names_no_column():
    drills = table(["Vessel type", "Drill frequency", "Rescue boat launched", "Target recovery time"],
                   [["Pilot launch", "Weekly", "Not applicable", "3 minutes"],
                    ["Passenger launch", "Fortnightly", "Not applicable", "5 minutes"], ["Ro-ro ferry", "Monthly", "Yes", "8 minutes"]])
    assert named("How many children's lifejackets must a passenger launch carry?", drills)[1:] == (["Passenger launch"], "", [])
    assert named("How often does the pilot launch run drills?", drills)[3] == ["Drill frequency"]


def test_an_absent_code_with_its_holders_words_is_an_absent_row():
    # "baggage supervisor" says who holds BH3 (a word of its family's rows, and one no row has):
    # the question asks the rate card's hourly rate, which has no BH3 row
    answer = compose_answer("Hourly rate for a BH3 baggage supervisor at Bristol?", ranked_tables(("Pay > 3.2 Rate card", GROUND_PAY_BH)))
    assert answer.outcome == NOT_COVERED and "no row for BH3" in answer.text and "£13.70" not in answer.text
    # a word of the code's family rows written before it ("baggage" of "Baggage Hall Operative (BH1)")
    answer = compose_answer("What is the baggage team's hourly rate at grade BH3 in Cork?",
                            ranked_tables(("Pay > 3.2 Rate card", GROUND_PAY_BH)))
    assert answer.outcome == NOT_COVERED and "no row for BH3" in answer.text


GROUND_PAY_BH = table(
    ["Grade", "Basic hourly rate – UK airports", "Basic hourly rate – Irish airports"],
    [["RA1 – Ramp Agent (Trainee)", "£12.40", "€14.35"], ["RA2 – Ramp Agent", "£13.25", "€15.30"],
     ["BH1 – Baggage Hall Operative", "£12.55", "€14.50"], ["Baggage Reconciliation Agent (BH2)", "£13.70", "€15.80"]],
    caption="Table 1: Rate card",
)


def test_full_in_another_phrase_names_no_full_time_column():
    leave = table(["Reckonable service on 1 April", "Annual leave (full-time)", "Maximum carry-over into next leave year"],
                  [["Under 2 years", "25 days", "3 days"], ["2 years to under 5 years", "27 days", "4 days"],
                   ["5 years or more", "29 days", "5 days"]], caption="Table 4: Annual leave by service")
    evidence = ranked_tables(("Leave > 6.1 Annual leave", leave))
    answer = compose_answer("How many weeks of full sick pay do I get in my first year of service?", evidence, corpus_mentions={})
    assert answer.outcome != ANSWERED and "25 days" not in answer.text.split("closest")[0]
    answer = compose_answer("How many days of annual leave do I get in my first year of service?", evidence, corpus_mentions={})
    assert answer.outcome == ANSWERED and "25 days" in answer.text


def test_a_code_in_the_questions_bracket_is_no_other_variant():
    # "a trainee ramp agent (RA1)" names RA1, not an absent "agent (RA1)" beside "Ramp Agent (Trainee)"
    assert named("hourly rate for a trainee ramp agent (RA1)", GROUND_PAY)[:2] == ("label", ["RA1 – Ramp Agent (Trainee)"])


def test_a_row_named_by_its_whole_name_is_read_with_its_code():
    from policypal.answering.evidence import Evidence
    from policypal.answering.rows import with_row_codes

    assert with_row_codes("When does a trainee ramp agent move up to RA2?", [GROUND_PAY]) == \
        "When does a trainee ramp agent (RA1) move up to RA2?"
    assert with_row_codes("RA2 ramp agent rate", [GROUND_PAY]) == "RA2 ramp agent rate"  # the code is written
    assert with_row_codes("rate for an agent", [GROUND_PAY]) == "rate for an agent"  # no whole name of two words
    # a code of the table's family written: that code is the row asked (PS5: none), not the name's PS4
    asked = "What's point 2 on the pay scale for a PS5 senior probation officer?"
    assert with_row_codes(asked, [PRISON_PAY]) == asked
    import dataclasses

    rule = Evidence(1, "Pay > 3. Grades and hourly rates > 3.3 Moving up a grade", "An RA1 employee moves to RA2 from the "
                    "start of the first Pay Week after they have completed six months' service and passed the ramp competence "
                    "assessment.", policy="pay", rank=1)
    rates = dataclasses.replace(ranked_tables(("Pay > 3. Grades and hourly rates > 3.2 Rate card", GROUND_PAY))[0],
                                key=2, rank=2, policy="pay")
    question = "When does a trainee ramp agent move up to RA2?"
    plain = compose_answer(question, [rule, rates], corpus_mentions={})
    assert plain.outcome != ANSWERED  # "trainee ramp agent" is not in the rule
    coded = compose_answer(with_row_codes(question, [GROUND_PAY]), [rule, rates], corpus_mentions={})
    assert coded.outcome == ANSWERED and "six months' service" in coded.text
