"""Seen in the blind runs of holdout38 (a veterinary group) and holdout39 (a harbour operator): an
on-call table whose columns are written for stretches of three ladders at once ("PCA2",
"VN1-VN2", "VS-A-VS-B"), the ladders set in another policy; rows told apart only by an ordinal
("Weekday night, first on-call" / "second on-call") asked for by a day of the week; a column
named only through a synonym giving way to the columns holding the question's own word; a part
of the day ("Saturday afternoon") held by a row's hours ("Saturday (from 13:00)"); a column whose
header is all common words ("Hourly rate") named by the phrase the lexicon gives for one of them
("per hour")."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ANSWERED
from policypal.answering.grade_ladders import ladder_column, ladder_header_codes
from policypal.answering.time_windows import parts_of_day_held

from .row_helpers import named, ranked_tables, table

VETS = table(
    ["Grade", "Title", "Salary band minimum"],
    [["VS-A", "Graduate veterinary surgeon", "£38,400"], ["VS-B", "Veterinary surgeon", "£44,000"],
     ["VS-C", "Senior veterinary surgeon", "£52,000"], ["VS-D", "Clinical lead", "£60,000"]],
    caption="Table 2: Veterinary surgeon grades",
)
NURSES = table(
    ["Grade code", "Role", "Minimum hourly rate"],
    [["PCA1", "Patient care assistant", "£11.50"], ["PCA2", "Senior patient care assistant", "£12.10"],
     ["VN1", "Student veterinary nurse", "£12.80"], ["VN2", "Registered veterinary nurse", "£14.20"],
     ["VN3", "Senior registered veterinary nurse", "£15.90"], ["VN4", "Head nurse", "£17.40"]],
    caption="Table 3: Nursing and patient care grades",
)
ON_CALL = table(
    ["On-call session", "PCA2", "VN1-VN2", "VN3-VN4", "VS-A-VS-B", "VS-C-VS-D"],
    [["Weekday night, first on-call", "£27", "£35", "£43", "£76", "£94"],
     ["Weekday night, second on-call", "£13.50", "£17.50", "£21.50", "£39", "£47"],
     ["Weekend on-call, first on-call", "£121", "£158", "£193", "£329", "£412"]],
    caption="Employees receive the payment below for each on-call session",
)


def test_a_header_of_two_numbered_codes_is_two_codes_of_one_family():
    assert ladder_header_codes(ON_CALL) == ["PCA2", "VN1", "VS-A"]  # one code per family, to find each ladder by


def test_a_ladder_the_asker_is_not_on_gives_way_to_the_next():
    # the vets' ladder comes first among the tables; a student nurse is on the nurses' one
    column, _ = ladder_column("a student nurse, second on call", ON_CALL, [VETS, NURSES, ON_CALL])
    assert ON_CALL.headers[column] == "VN1-VN2"
    column, _ = ladder_column("a graduate vet on call", ON_CALL, [VETS, NURSES, ON_CALL])
    assert ON_CALL.headers[column] == "VS-A-VS-B"


def test_rows_told_apart_by_an_ordinal_and_a_day_of_the_week():
    assert named("I'm second on-call on a Wednesday night, what is the payment?", ON_CALL)[1] == ["Weekday night, second on-call"]
    assert named("first on call on a tuesday night", ON_CALL)[1] == ["Weekday night, first on-call"]
    # an ordinal written beside another word is no row's ("the second week"): both rows stay named
    assert named("weekday night on-call in the second week", ON_CALL)[1] == ["Weekday night, first on-call",
                                                                             "Weekday night, second on-call"]


def test_the_asker_gets_their_cell_of_the_row_through_a_ladder_of_another_table():
    evidence = ranked_tables(("On-call > 3. Payments", ON_CALL), ("Pay > 2. Vets", VETS), ("Pay > 3. Nurses", NURSES))
    answer = compose_answer("I'm a student nurse, second on call on a Tuesday night - what do I get if I'm not called in?",
                            evidence, corpus_mentions={})
    assert answer.outcome == ANSWERED and "£17.50" in answer.text, answer.text
    assert "£13.50" not in answer.text and "£35" not in answer.text and "£21.50" not in answer.text, answer.text


STEPS = table(
    ["Clinical service", "Step for veterinary surgeons", "Step for nursing and reception grades", "Pay conversations"],
    [["0-2 years", "£1,650 a year", "35p an hour", "Every 6 months"],
     ["3-5 years", "£1,400 a year", "28p an hour", "Every 12 months"],
     ["6-9 years", "£1,150 a year", "22p an hour", "Every 12 months"]],
    caption="Progression steps",
)


def test_a_column_named_only_by_a_synonym_gives_way_to_the_columns_holding_the_word_written():
    # "progression" is a synonym of "pay" (the lexicon), which only "Pay conversations" has; "step"
    # is written, and two headers hold it
    assert named("four years' clinical service - how much is my progression step?", STEPS)[3] == [
        "Step for veterinary surgeons", "Step for nursing and reception grades"]
    assert named("four years clinical service, nursing step", STEPS)[3] == ["Step for nursing and reception grades"]
    assert named("four years clinical service, when is my pay conversation?", STEPS)[3] == ["Pay conversations"]


RESIDENT = table(
    ["Resident shift", "Enhancement"],
    [["Weekday night (19:00 to 08:00)", "33% of basic hourly rate"], ["Saturday (from 13:00)", "40% of basic hourly rate"],
     ["Sunday", "50% of basic hourly rate"]],
    caption="Resident shift enhancements",
)


def test_a_part_of_the_day_is_held_by_a_rows_hours():
    assert parts_of_day_held("saturday afternoon resident shift", "Saturday (from 13:00)") == {"afternoon"}
    assert parts_of_day_held("saturday morning", "Saturday (from 13:00)") == set()
    assert parts_of_day_held("a weekday night", "Weekday night (19:00 to 08:00)") == {"night"}
    assert parts_of_day_held("the evening", "Day shift 08:00-17:00") == set()
    answer = compose_answer("saturday afternoon resident shift enhancement",
                            ranked_tables(("On-call > 5. Resident shifts", RESIDENT)), corpus_mentions={"afternoon": False})
    assert answer.outcome == ANSWERED and "40%" in answer.text and "33%" not in answer.text, answer.text


SHORE = table(
    ["Grade", "Post", "Hourly rate", "Contracted weekly hours"],
    [["TO1", "Ticket office clerk", "£12.20", "30"], ["TO2", "Senior ticket office clerk", "£13.45", "35"],
     ["TO3", "Ticket office supervisor", "£15.60", "37.5"]],
    caption="Shore grades",
)


def test_a_header_of_common_words_is_named_by_the_lexicons_phrase_for_one_of_them():
    assert named("What do we pay a ticket office supervisor per hour?", SHORE)[1::2] == (["TO3"], ["Hourly rate"])
    # "hours" of "Contracted weekly hours" is in no group of the lexicon: only "hourly" is
    assert named("What's a ticket office supervisor paid per hour?", SHORE)[3] == ["Hourly rate"]


MARINE = table(
    ["Grade", "Typical post", "Basic hourly rate", "Overtime hourly rate"],
    [["MR1", "Ordinary seaman; deck trainee", "£12.40", "£18.60"], ["MR2", "Able seaman", "£13.60", "£20.40"],
     ["MR3", "Helmsman", "£14.60", "£21.90"], ["MR4", "Bosun's mate; engine room rating", "£16.00", "£24.00"],
     ["DO-4", "Third officer", "£19.80", "£29.70"], ["DO-3", "Second officer", "£22.80", "£34.20"]],
    caption="Marine grade pay scale",
)
SHORE_GRADES = table(
    ["Grade", "Post", "Hourly rate"],
    [["LS1", "Linesman", "£13.10"], ["LS2", "Senior linesman", "£14.05"], ["LS3", "Berthing supervisor", "£15.20"],
     ["TO1", "Ticket office clerk", "£12.20"], ["TO2", "Senior ticket office clerk", "£13.45"],
     ["TO3", "Ticket office supervisor", "£15.60"]],
    caption="Shore grade pay scale",
)
SUBSISTENCE = table(
    ["Port", "MR1-MR3, LS and TO grades", "MR4 and DO-4-DO-3"],
    [["Kirkwall", "£45", "£51"], ["Stornoway", "£42", "£48"], ["Oban", "£40", "£46"]],
    caption="Overnight subsistence by port",
)


def test_a_header_written_for_stretches_of_two_ladders():
    # "MR1-MR3, LS and TO grades": the marine ladder's stretch and two shore families; the asker
    # ("a ticket clerk") is on the shore ladder
    column, _ = ladder_column("kirkwall overnight rate for a ticket clerk", SUBSISTENCE, [MARINE, SHORE_GRADES, SUBSISTENCE])
    assert SUBSISTENCE.headers[column] == "MR1-MR3, LS and TO grades"
    column, _ = ladder_column("kirkwall overnight rate for a third officer", SUBSISTENCE, [MARINE, SHORE_GRADES, SUBSISTENCE])
    assert SUBSISTENCE.headers[column] == "MR4 and DO-4-DO-3"


def test_a_number_of_several_families_is_the_row_whose_words_the_question_writes():
    # "grade four" is MR4 and DO-4 alike; "a marine rating" is written in MR4's post only
    assert named("What overtime rate does a marine rating on grade four get?", MARINE)[1::2] == (["MR4"], ["Overtime hourly rate"])
    assert named("overtime rate for grade 4", MARINE)[1] == ["DO-4", "MR4"]  # nothing tells them apart
    # a table of several families lacking the number: absent as the question writes it, not as
    # a code of the first family ("HP4")
    assert named("What overtime rate does a marine rating on grade four get?", SHORE_GRADES)[::2] == ("absent", "Grade 4")


def test_an_absent_code_of_a_table_of_several_families():
    answer = compose_answer("What's the hourly rate for an LS4 linesman?",
                            ranked_tables(("Pay > 3.3 Shore grade pay scale", SHORE_GRADES)), corpus_mentions={})
    # the asker's words ("linesman") are of the LS rows: the question is about this table
    assert "no row for LS4" in answer.text, answer.text
    assert "grades LS1 to LS3 and TO1 to TO3" in answer.text, answer.text  # each family's stretch


HOTELS = table(
    ["Port", "Nightly hotel cap", "Company accommodation"],
    [["Oban", "£105", "Crew house, 6 rooms"], ["Mallaig", "£90", "None"], ["Kirkwall", "£120", "None"],
     ["Lerwick", "£135", "Block booking, 5 rooms"]],
    caption="Accommodation limits",
)


def test_a_place_no_policy_mentions_is_absent_from_a_table_of_ports():
    # "in Campbeltown" stands where a row of a table of ports stands; no policy says Campbeltown
    answer = compose_answer("What's the nightly hotel cap in Campbeltown?", ranked_tables(("Travel > 4.2 Accommodation limits", HOTELS)),
                            corpus_mentions={"campbeltown": False})
    assert "no row for Campbeltown" in answer.text and "£105" not in answer.text, answer.text


def test_a_missing_place_of_a_table_with_a_column_for_the_askers_grade_is_what_is_asked():
    # "for an MR2" names the grade table's row as well as the subsistence table's "MR1-MR3" column;
    # the port is what the subsistence table lacks, and that is the answer, not the MR2 pay row
    evidence = ranked_tables(("Travel > 4.1 Overnight subsistence", SUBSISTENCE), ("Pay > 3.2 Marine grades", MARINE))
    answer = compose_answer("What's the overnight subsistence in Tobermory for an MR2?", evidence, corpus_mentions={"tobermori": False})
    assert "no row for Tobermory" in answer.text and "£13.60" not in answer.text, answer.text
    answer = compose_answer("What's the overnight subsistence in Kirkwall for an MR2?", evidence, corpus_mentions={})
    assert "£45" in answer.text and "£51" not in answer.text and "£13.60" not in answer.text, answer.text


WEATHER = table(
    ["Wind force", "Mooring operations", "Working over water"],
    [["Force 0-4", "Normal mooring party", "Permitted under section 3"],
     ["Force 5", "Normal mooring party", "Permitted; person in charge present"],
     ["Force 6-7", "One extra linesman", "Essential work only, with safety line"],
     ["Force 8", "Only to secure a vessel already alongside", "Stopped"]],
    caption="Weather limits",
)


def test_words_for_people_and_for_wind_are_not_what_is_asked():
    from policypal.answering.coverage import decide

    # what the unit says of working over water answers the question; "the lads" are whoever
    # works (a word for people, as "staff"), and "blowing" is said of the wind the unit names
    units = [["Working over water must stop or be restricted at the wind forces shown in section 6.1.",
              "Safety > 3. Working over water"]]
    assert decide("Can the lads still work over water?", units, corpus_mentions={}).outcome == ANSWERED
    assert decide("It's blowing hard - can we work over water?", units, corpus_mentions={}).outcome == ANSWERED


def test_words_for_people_and_for_wind_leave_nothing_unanswered():
    # "the lads" are people (any policy's staff); "blowing" is said of the wind
    answer = compose_answer("It's blowing force 7 - can the lads still work over water?",
                            ranked_tables(("Safety > 6.1 Weather limits", WEATHER)), corpus_mentions={})
    assert answer.outcome == ANSWERED and "Essential work only, with safety line" in answer.text, answer.text
    assert "Stopped" not in answer.text, answer.text


OFFICERS = table(
    ["Grade", "Typical post", "Basic hourly rate"],
    [["DO-4", "Third officer; junior officer of the watch", "£19.80"], ["DO-3", "Second officer", "£22.80"],
     ["DO-2", "Chief officer", "£27.00"], ["DO-1", "Master", "£32.40"]],
    caption="Marine grades",
)


def test_a_row_of_another_ordinal_is_another_row_of_the_series():
    # "Second officer" is the shorter label holding "officer"; "third" says it is not the one
    assert named("What's the hourly rate for a third officer?", OFFICERS)[1] == ["DO-4"]
    assert named("What's the hourly rate for a second officer?", OFFICERS)[1] == ["DO-3"]


def test_a_time_or_a_small_word_before_a_number_is_no_code_of_the_table():
    # "TO1" ... "TO3" are codes of the table; "to 06:00" is a time and "to 4" a preposition
    assert named("My shift ran from 22:00 to 06:00. What is the hourly rate?", SHORE_GRADES) is None
    assert named("My shift ran from 22:00 to 6. What is the hourly rate?", SHORE_GRADES) is None
    assert named("What is the hourly rate for TO4?", SHORE_GRADES)[::2] == ("absent", "TO4")


STUDY_LEAVE = table(
    ["Certificate studied for", "Paid study leave", "Maximum contribution to college fees"],
    [["Efficient deck hand (EDH)", "5 days", "£650"], ["OOW (Near Coastal) CoC", "20 days", "£4,200"],
     ["OOW (Unlimited) CoC", "30 days", "£6,800"], ["Master (Near Coastal) CoC", "25 days", "£3,900"]],
    caption="Paid study leave for certificates",
)


def test_a_name_with_another_bracket_is_another_variant():
    # "Master (Unlimited)": the table has Master (Near Coastal) and OOW (Unlimited), not this one
    assert named("How much paid study leave is given for the Master (Unlimited) CoC?", STUDY_LEAVE)[::2] == (
        "absent", "Master (Unlimited) CoC")
    assert named("study leave for the OOW (Unlimited) CoC", STUDY_LEAVE)[1] == ["OOW (Unlimited) CoC"]
    answer = compose_answer("How much paid study leave is given for the Master (Unlimited) CoC?",
                            ranked_tables(("Training > 5.3 Paid study leave", STUDY_LEAVE)), corpus_mentions={})
    assert "no row for Master (Unlimited) CoC" in answer.text and "25 days" not in answer.text, answer.text
    assert "covers rows Efficient deck hand (EDH)" in answer.text, answer.text  # a header ending in "for"
