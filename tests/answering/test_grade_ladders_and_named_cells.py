"""Seen in the blind runs of holdout34 (a fire and rescue service) and holdout35 (a care
provider): columns written for stretches of a ladder of grades whose codes have no number
("FF-T to FF-C", "CM-WM", "SCW–TL", "Pay per visit: SCW and TL-D"); a cell named in two tables,
told apart by what the question asks for; a city in a list of cities ("Birmingham, Manchester or
Leeds"); a column named by a word the question denies ("instead of a hotel"); the plain column of
several alike ("hourly rate": "Basic hourly rate", not "Overtime hourly rate"); a row named by its
number in a column of numbers ("station 22"); a row stating what the asker denies being ("hasn't
been signed off as competent"); a code written letter by letter ("G M C"); a footnote mark on a
word ("electric³"); and a found row writing the code-like phrase the question writes ("the Level 5
leadership diploma") over a level table that reads it as a missing "CW5"."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ANSWERED
from policypal.answering.grade_ladders import (
    asker_places, header_places, ladder_column, ladder_header_codes, ladder_headers, ladder_of,
)
from policypal.answering.terms import GENERIC_WORDS, equivalents, polarity, stem, words

from .row_helpers import named, ranked_tables, table

ROLES = table(
    ["Role code", "Role and stage", "Annual basic pay", "Basic hourly rate", "Overtime hourly rate"],
    [["FF-T", "Trainee firefighter", "£26,914", "£12.29", "£18.44"],
     ["FF-D", "Firefighter in development", "£28,037", "£12.80", "£19.20"],
     ["FF-C", "Competent firefighter", "£37,369", "£17.06", "£25.59"],
     ["CM-D", "Crew manager in development", "£39,682", "£18.12", "£27.18"],
     ["CM-C", "Competent crew manager", "£41,393", "£18.90", "£28.35"],
     ["WM-D", "Watch manager in development", "£42,276", "£19.30", "£28.95"],
     ["WM-C", "Competent watch manager", "£45,031", "£20.56", "£30.84"],
     ["SM-D", "Station manager in development", "£48,112", "£21.97", "£32.96"],
     ["SM-C", "Competent station manager", "£51,260", "£23.41", "£35.12"]],
    caption="Table 1: Roles and basic pay",
)
DUTY = table(
    ["Duty system", "FF-T to FF-C", "CM-WM", "SM-GM"],
    [["Wholetime shift", "£1,146", "£1,287", "Not applicable"],
     ["Day-crewed", "£4,512", "£5,068", "Not applicable"],
     ["Day-crewed plus", "£6,934", "£7,415", "Not applicable"],
     ["Flexi-duty", "Not applicable", "£6,118", "£8,873"]],
    caption="Table 2: Duty system allowances (annual)",
)
LEVELS = table(
    ["Level", "Job title", "Basic hourly rate", "Night rate", "Sleep-in (per night)"],
    [["CW1", "Care assistant (in induction)", "£12.21", "£13.58", "£82.40"],
     ["CW2", "Care assistant", "£12.47", "£13.86", "£84.15"],
     ["CW3", "Care worker", "£12.84", "£14.27", "£86.90"],
     ["CW4", "Lead care worker", "£13.31", "£14.79", "£89.35"],
     ["SCW", "Senior care worker", "£14.08", "£15.65", "£93.60"],
     ["TL-R", "Team leader (residential)", "£15.19", "£16.88", "£97.25"],
     ["TL-D", "Team leader (home care)", "£15.36", "£17.07", "£98.70"],
     ["DM", "Deputy manager", "£17.44", "Not paid", "Not paid"]],
    caption="Table 1: Care worker levels and hourly rates",
)
VISITS = table(
    ["Planned length", "Pay per visit: CW1–CW4", "Pay per visit: SCW and TL-D"],
    [["15-29 minutes", "£7.35", "£8.05"], ["30-44 minutes", "£10.85", "£11.85"], ["45-59 minutes", "£14.40", "£15.70"]],
    caption="Table 2: Pay per home-care visit",
)
EXTRAS = table(
    ["Allowance", "CW1–CW2", "CW3–CW4", "SCW–TL"],
    [["Disturbance during a sleep-in (per hour or part hour)", "£13.05", "£13.92", "£15.48"],
     ["Split shift (per day)", "£4.20", "£4.65", "£5.15"]],
    caption="The allowances below are paid on top of the sleep-in payment or the pay for the shift",
)


def test_a_table_of_one_grade_code_per_row_is_a_ladder_and_headers_are_stretches_of_it():
    assert ladder_of(ROLES).codes[:3] == ("FF-T", "FF-D", "FF-C")
    assert ladder_of(DUTY) is None and ladder_of(VISITS) is None  # names and lengths, not codes
    ladder = ladder_of(ROLES)
    assert header_places("FF-T to FF-C", ladder) == {0, 1, 2}
    assert header_places("CM-WM", ladder) == {3, 4, 5, 6}  # each end stands for every row of its family
    assert header_places("SM-GM", ladder) is None  # no GM row on this ladder
    levels = ladder_of(LEVELS)
    assert header_places("SCW–TL", levels) == {4, 5, 6}
    assert header_places("Pay per visit: SCW and TL-D", levels) == {4, 6}
    assert header_places("Pay per visit: CW1–CW4", levels) == {0, 1, 2, 3}
    assert header_places("Night rate", levels) is None
    assert ladder_headers(EXTRAS, levels) == {1: {0, 1}, 2: {2, 3}, 3: {4, 5, 6}}
    # the first code of each family the headers write, to find the ladders' tables by
    assert ladder_header_codes(DUTY) == ["FF-T", "CM-WM", "SM-GM"] and ladder_header_codes(LEVELS) == []


def test_the_asker_is_placed_on_the_ladder_by_a_code_or_by_the_words_of_their_row():
    ladder = ladder_of(ROLES)
    assert asker_places("day-crewed allowance for a watch manager", ladder) == {5, 6}
    assert asker_places("I'm a competent firefighter", ladder) == {2}
    assert asker_places("annual pay for c m c?", ladder) == {4}
    assert asker_places("What's the budget for the canteen?", ladder) == set()
    assert ladder_column("day-crewed allowance for a watch manager", DUTY, [ROLES, DUTY])[0] == 2
    assert ladder_column("pay for a 50-min call, senior care worker", VISITS, [LEVELS, VISITS])[0] == 2
    assert ladder_column("What does a CW2 get paid for a 40 minute visit?", VISITS, [LEVELS, VISITS])[0] == 1
    # a firefighter "in development" of any kind falls in one column; a team leader of the
    # residential homes in none of the visit columns: no column is chosen for them
    assert ladder_column("pay for a 50-min call, residential team leader", VISITS, [LEVELS, VISITS]) is None
    assert ladder_column("What's the canteen budget?", DUTY, [ROLES, DUTY]) is None


def test_the_row_is_answered_under_the_column_written_for_the_askers_grade():
    evidence = ranked_tables(("Pay > 5. Duty system allowances", DUTY), ("Pay > 3. Roles", ROLES))
    answer = compose_answer("day-crewed allowance for a watch manager", evidence, corpus_mentions={})
    assert answer.outcome == ANSWERED and "£5,068" in answer.text, answer.text
    assert "£4,512" not in answer.text and "£7,415" not in answer.text, answer.text
    answer = compose_answer("Crew manager on the wholetime shift system - what's the yearly shift allowance?",
                            evidence, corpus_mentions={})
    assert "£1,287" in answer.text and "£1,146" not in answer.text, answer.text
    evidence = ranked_tables(("Visits > 3. Visit pay", VISITS), ("Pay > 3. Levels", LEVELS))
    answer = compose_answer("pay for a 50-min call, senior care worker", evidence, corpus_mentions={})
    assert answer.outcome == ANSWERED and "£15.70" in answer.text and "£14.40" not in answer.text, answer.text


def test_of_cells_named_in_two_tables_the_one_writing_what_is_asked_for_answers():
    evidence = ranked_tables(("Pay > 3. Levels", LEVELS), ("Pay > 6. Allowances", EXTRAS))
    answer = compose_answer("I'm a CW4 and got woken twice on my sleep-in last night. What's the disturbance rate per hour?",
                            evidence, corpus_mentions={})
    assert "£13.92" in answer.text and "£89.35" not in answer.text, answer.text


HOTELS = table(
    ["Location", "Hotel cap per night (room only)", "Overnight subsistence allowance",
     "Staying with friends or relatives (per night)"],
    [["London (within the M25)", "£176", "£34.70", "£29.15"],
     ["Birmingham, Manchester or Leeds", "£123", "£31.45", "£26.80"],
     ["Edinburgh or Cardiff", "£117", "£30.60", "£25.35"],
     ["Other UK locations", "£98", "£27.75", "£23.40"]],
    caption="The room rate must not exceed the cap for the location below",
)


def test_a_city_listed_in_a_label_is_its_row_not_the_other_locations():
    assert named("What's the hotel limit per night in Manchester?", HOTELS)[1] == ["Birmingham, Manchester or Leeds"]
    assert named("hotel cap in Leeds", HOTELS)[1] == ["Birmingham, Manchester or Leeds"]
    assert named("hotel cap in Inverness", HOTELS)[1] == ["Other UK locations"]
    # each place of the list names the row on its own, "Other UK locations" or none beside it
    cities = table(HOTELS.headers, [r.cells for r in HOTELS.rows[:3]])
    assert named("What's the hotel limit per night in Manchester?", cities)[1] == ["Birmingham, Manchester or Leeds"]


def test_a_column_named_only_by_a_denied_word_is_not_asked():
    question = "I'm on a course in Edinburgh and staying at my cousin's flat instead of a hotel. What can I claim per night?"
    assert named(question, HOTELS)[3] == ["Staying with friends or relatives (per night)"]
    assert named("Edinburgh hotel cap per night?", HOTELS)[3] == ["Hotel cap per night (room only)"]
    answer = compose_answer(question, ranked_tables(("Travel > 6. Hotels", HOTELS)), corpus_mentions={})
    assert "£25.35" in answer.text and "£117" not in answer.text, answer.text


def test_the_plain_column_of_several_alike_is_the_one_asked_without_its_qualifier():
    assert named("ff-d hourly rate", ROLES)[3] == ["Basic hourly rate"]
    assert named("ff-d overtime hourly rate", ROLES)[3] == ["Overtime hourly rate"]
    assert named("ff-d rate", ROLES)[3] == []  # "rate" alone names no column
    assert named("what's the hourly rate for a CW2", LEVELS)[3] == ["Basic hourly rate"]


def test_a_row_is_named_by_its_number_in_a_column_of_numbers():
    stations = table(["Station", "Station number", "Maximum turnout time"],
                     [["Ashcombe", "07", "4 minutes"], ["Eastling", "21", "7 minutes"], ["Fennick", "22", "5 minutes 30 seconds"]])
    assert named("station 22 turnout time", stations)[1::2] == (["Fennick"], ["Maximum turnout time"])
    assert named("turnout time for station number 7", stations)[1] == ["Ashcombe"]
    assert named("station 5 turnout", stations) is None  # no station 5: not the nearest one
    assert named("turnout within 22 minutes of the station", stations) is None


def test_a_row_stating_what_the_asker_denies_being_is_not_theirs():
    assert "compet" in polarity("a station manager who hasn't been signed off as competent yet")[0]
    question = "What's the basic hourly rate for a station manager who hasn't been signed off as competent yet?"
    assert named(question, ROLES)[1::2] == (["SM-D"], ["Basic hourly rate"])
    assert named("salary for a competent station manager", ROLES)[1] == ["SM-C"]


def test_a_code_written_letter_by_letter_is_the_code():
    assert named("annual pay for W M C?", ROLES)[1::2] == (["WM-C"], ["Annual basic pay"])
    assert named("annual pay for c-m-d", ROLES)[1] == ["CM-D"]


def test_a_footnote_mark_is_no_part_of_the_word_it_is_on():
    assert words("Car – fully electric³") == ["car", "fully", "electric"]
    assert words("First 3,500 business miles in the tax year¹")[-1] == "year"
    assert words("10 m²") == ["10", "m2"]  # a unit's power is not a footnote mark
    mileage = table(["Vehicle type", "First 3,500 business miles¹", "Over 3,500 business miles"],
                    [["Car – petrol, diesel or hybrid", "47p", "29p"], ["Car – fully electric³", "44p", "27p"],
                     ["Motorcycle or moped", "26p", "19p"]])
    assert named("mileage rate for my electric car", mileage)[1] == ["Car – fully electric³"]


def test_words_of_degree_and_of_more_are_no_things_asked_for():
    assert {"fully", "entirely"} <= GENERIC_WORDS
    assert "pull_out" in equivalents(stem("withdrawal"))
    assert "care_worker" in equivalents(stem("carer"))


def test_a_found_row_writing_the_level_phrase_answers_over_a_missing_level_code():
    qualifications = table(
        ["RQF level", "Qualification", "Paid study days", "Repayment if you leave within"],
        [["3", "Level 3 Diploma in Adult Care", "6 study days", "12 months of completion"],
         ["4", "Level 4 Certificate in Principles of Leadership and Management", "8 study days", "18 months of completion"],
         ["5", "Level 5 Diploma in Leadership and Management for Adult Care", "11 study days", "24 months of completion"]],
        caption="The company pays the course fees and gives paid study days for each qualification")
    evidence = ranked_tables(("Training > 5. Qualifications", qualifications), ("Pay > 3. Levels", LEVELS))
    answer = compose_answer("If I do the Level 5 leadership diploma and then leave, how long after finishing would I "
                            "have to pay the fees back?", evidence, corpus_mentions={})
    assert answer.outcome == ANSWERED and "24 months of completion" in answer.text, answer.text
    assert "no row for" not in answer.text.lower(), answer.text


WEARS = table(
    ["Wear category", "Conditions", "Minimum rest before next wear"],
    [["Category A", "Search or support work, no exposure to fire", "20 minutes"],
     ["Category B", "Firefighting in a compartment", "35 minutes"],
     ["Category B2", "Firefighting in a compartment with ambient temperature above 25°C", "45 minutes"]],
)


def test_a_told_quantity_meeting_a_rows_condition_picks_it_over_the_row_without_one():
    from policypal.answering.quantities import fits, told_quantities

    assert fits(told_quantities("it's 28 degrees outside"), "with ambient temperature above 25°C") is True
    assert fits(told_quantities("it's 18 degrees outside"), "with ambient temperature above 25°C") is False
    assert fits(told_quantities("it's 28 degrees outside"), "Firefighting in a compartment") is None
    warm = "We were firefighting inside a compartment and it's 28 degrees outside. How long do I rest before I wear again?"
    assert named(warm, WEARS)[1::2] == (["Category B2"], ["Minimum rest before next wear"])
    assert named(warm.replace("28", "18"), WEARS)[1] == ["Category B"]
    assert named("rest after firefighting in a compartment", WEARS)[1] == ["Category B"]


def test_a_city_of_another_country_is_absent_from_a_table_of_one_countrys_places():
    assert named("What's the hotel cap per night for a course in Dublin?", HOTELS)[0::2] == ("absent", "Dublin")


def test_a_measure_told_in_its_own_unit_is_the_range_rows_word():
    cars = table(["Vehicle", "Rate per mile: first 3,500 business miles", "Rate per mile: over 3,500 business miles"],
                 [["Petrol or diesel car up to 1,400 cc", "46.2p", "17.1p"],
                  ["Petrol or diesel car 1,401-2,000 cc", "53.9p", "19.3p"],
                  ["Petrol or diesel car over 2,000 cc", "58.6p", "21.4p"], ["Motorcycle", "27.3p", "13.2p"]],
                 caption="Staff who use their own vehicle on service business are paid per business mile")
    answer = compose_answer("mileage rate for my 1.6 litre diesel", ranked_tables(("Travel > 4.1 Mileage rates", cars)),
                            corpus_mentions={})
    assert answer.outcome == ANSWERED and "53.9p" in answer.text and "46.2p" not in answer.text, answer.text


def test_a_latin_phrase_does_not_end_what_is_asked_for():
    from policypal.answering.compose import _cells_giving_the_asked_object
    from policypal.answering.rows import match_table

    crew = table(["Grade", "Typical roles", "Daily rate (standard day)"],
                 [["C1", "Runner", "£165"], ["C2", "Camera trainee", "£182"], ["C3", "Assistant", "£210"]])
    abroad = table(["Location", "Per diem: grades C1–C6", "Per diem: grades C7–C10"],
                   [["Valletta (Malta)", "£39", "£46"], ["Lisbon (Portugal)", "£41", "£48"]])
    question = "We're shooting in Malta next month and I'm a grade C2 trainee. What's my daily per diem?"
    matches = [match_table(question, abroad), match_table(question, crew)]
    assert all(m is not None and m.rows and m.columns for m in matches)
    assert _cells_giving_the_asked_object(question, matches) == matches  # "daily per diem" is neither cell's whole
    disturbed = "I'm a CW4 and got woken on my sleep-in. What's the disturbance rate per hour?"
    cells = [match_table(disturbed, LEVELS), match_table(disturbed, EXTRAS)]
    assert [m.table for m in _cells_giving_the_asked_object(disturbed, cells)] == [EXTRAS]


SEVERITIES = table(
    ["Severity", "Description", "Who must be told", "Deadline for telling them"],
    [["M1", "Near miss", "Duty manager", "Before the end of the shift"],
     ["M2", "Error reached the person; no harm expected", "Duty manager and the GP", "Within 4 hours"],
     ["M3", "Error reached the person; harm possible", "Registered manager and the GP", "Within 2 hours"],
     ["M3C", "As M3, where the error involves a controlled drug", "Registered manager and the Accountable Officer",
      "Within 1 hour"]],
    caption="Every medication error must be given a severity and reported as shown below")
INCIDENTS = table(
    ["Ref", "Incident category", "Record on incident system", "Must also be told"],
    [["1", "Fall without injury", "Within 24 hours", "Duty manager"],
     ["3", "Pressure ulcer category 2", "Within 72 hours", "District nursing team"],
     ["4", "Pressure ulcer category 3", "Within 48 hours", "District nursing team and registered manager"],
     ["12", "Medication error", "See section 5", "See section 5.1"]],
    caption="Incidents must be recorded within the times below")


def test_a_code_with_a_letter_after_its_number_that_no_row_has_is_absent():
    evidence = ranked_tables(("Medication > 5.1 Severity", SEVERITIES), ("Incidents > 7.1 Deadlines", INCIDENTS))
    answer = compose_answer("Who needs to be told about an M2C medication error, and by when?", evidence, corpus_mentions={})
    assert answer.outcome != ANSWERED and "no row for M2C" in answer.text, answer.text
    assert "Within 4 hours" not in answer.text and "Within 1 hour" not in answer.text, answer.text
    answer = compose_answer("Who has to be told about an M3C medication error?", evidence, corpus_mentions={})
    assert answer.outcome == ANSWERED and "Accountable Officer" in answer.text, answer.text


def test_a_number_of_a_family_of_names_that_no_name_has_is_absent():
    assert named("How quickly does a category 1 pressure ulcer go on the incident system?", INCIDENTS)[0::2] == (
        "absent", "Pressure ulcer category 1")
    assert named("deadline for a category 3 pressure ulcer", INCIDENTS)[1] == ["4"]
    assert named("category 1 fall", INCIDENTS) is None  # the family's other words are not written


def test_a_kind_the_table_lacks_but_a_rule_speaks_of_is_answered_by_the_rule():
    from policypal.answering.evidence import Evidence

    appliances = table(["Appliance", "Maximum working height", "Maximum cage load"],
                       [["ALP-32 aerial ladder platform", "32 metres", "400 kg"],
                        ["ALP-42 aerial ladder platform", "42 metres", "350 kg"], ["TL-30 turntable ladder", "30 metres", "270 kg"]],
                       caption="Aerial appliances must be used within the limits below")
    rule = Evidence(77, "Safety > 5.3 Ladders", "No more than two people may be on any extension ladder at the same time, "
                    "provided that they are on different sections.", policy="ops", rank=2, similarity=0.55)
    evidence = [*ranked_tables(("Safety > 5.2 Aerial appliances", appliances)), rule]
    answer = compose_answer("How many people are allowed up an extension ladder at once?", evidence, corpus_mentions={})
    assert answer.outcome != "not_covered" and "two people may be on any extension ladder" in answer.text, answer.text
    # without the rule, the table's range is the honest answer
    answer = compose_answer("How many people are allowed up an extension ladder at once?", evidence[:1], corpus_mentions={})
    assert "no row for extension ladder" in answer.text, answer.text


def test_a_rate_that_kicks_in_is_one_that_starts():
    from policypal.answering.coverage import question_terms

    assert [t.word for t in question_terms("When does the competent rate kick in?")] == ["competent", "start"]
    from policypal.answering.evidence import Evidence

    rule = Evidence(78, "Pay > 3.4 Competence", "Pay at the competent rate starts on the first day of the month following "
                    "the date on which competence is confirmed.", policy="pay", rank=1, similarity=0.6)
    answer = compose_answer("When does the competent rate kick in after I'm signed off?", [rule],
                            corpus_mentions={"kick": False})
    assert answer.outcome != "not_covered" and "starts on the first day of the month" in answer.text, answer.text


def test_a_row_named_only_by_its_bracket_is_not_given_the_askers_grade_column():
    from policypal.answering.compose import _by_the_askers_grade
    from policypal.answering.rows import RowMatch, match_table

    question = "I've just started and I'm still doing my induction as a care assistant. What's my basic pay per hour?"
    # "per hour" of "Disturbance during a sleep-in (per hour or part hour)", as a table's bracket may name its row
    bracket = RowMatch(EXTRAS, (EXTRAS.rows[0],), how="label")
    assert _by_the_askers_grade(question, bracket, [LEVELS, EXTRAS]).columns == ()
    named_row = match_table("split shift allowance for a CW3", EXTRAS)
    assert _by_the_askers_grade("split shift allowance for a CW3", named_row, [LEVELS, EXTRAS]).columns == (2,)
    answer = compose_answer(question, ranked_tables(("Pay > 3. Levels", LEVELS), ("Pay > 6. Allowances", EXTRAS)),
                            corpus_mentions={})
    assert "£12.21" in answer.text and "£13.05" not in answer.text, answer.text
