"""Rows named by a span of codes after their words ("Premium for LC7 to LC9"), reached from a code
or through the row of another table that gives the asker's code; ranges written "2.5 ppm up to 10
ppm"; and a table whose caption is the sentence leading into it, which may speak of one row. Seen
in the blind runs of holdout48 (leisure centres) and holdout49 (an industrial bakery)."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import TableData, TableRow
from policypal.answering.rows import match_table

from .row_helpers import named, ranked_tables, table

GRADES = table(["Grade", "Typical roles", "Hourly rate", "Overtime hourly rate"],
               [["LC1", "Café assistant; leisure cleaner", "£12.60", "£18.90"],
                ["LC3", "Lifeguard", "£13.10", "£19.65"],
                ["LC7", "Duty manager; plant room technician", "£16.10", "£24.15"],
                ["LC9", "Centre manager", "£21.75", "TOIL only"]],
               caption="Table 1: Grades and hourly rates")
PREMIUMS = table(["", "Late finish", "Sunday", "Public holiday"],
                 [["Hours that qualify", "Hours worked after 21:30", "All hours worked on a Sunday", "All hours on a public holiday"],
                  ["Premium for LC1 to LC6", "+£1.35 per hour", "Time and a quarter", "Double time"],
                  ["Premium for LC7 to LC9", "+£0.95 per hour", "Flat £20 per shift", "Time and a half plus a day in lieu"],
                  ["Paid to casual workers?", "Yes", "No", "Yes"]],
                 caption="Table 3: Premiums", first_id=950)


def _answer(question):
    return compose_answer(question, ranked_tables(("Pay > 3 Grades", GRADES), ("Pay > 5 Premiums", PREMIUMS)),
                          corpus_mentions={})


def test_a_code_names_the_row_whose_label_spans_it_after_its_words():
    assert named("What is the Sunday premium for LC8?", PREMIUMS) == ("label", ["Premium for LC7 to LC9"], "", ["Sunday"])
    assert named("sunday premium for grade LC2", PREMIUMS) == ("label", ["Premium for LC1 to LC6"], "", ["Sunday"])
    assert match_table("What is the Sunday premium for LC7?", PREMIUMS).exact


def test_the_spanning_row_with_the_asked_column_beats_the_codes_own_row_elsewhere():
    answer = _answer("What is the Sunday premium for LC7?")
    assert answer.outcome == "answered" and "Flat £20 per shift" in answer.text, answer.text
    assert "Time and a quarter" not in answer.text and "£16.10" not in answer.text


def test_a_role_leads_through_its_grade_to_the_row_spanning_that_grade():
    answer = _answer("Duty manager here - what extra do I get for working a Sunday?")
    assert answer.outcome == "answered" and "Flat £20 per shift" in answer.text, answer.text
    assert "Time and a quarter" not in answer.text
    answer = _answer("What's the bank holiday premium for a centre manager?")
    assert "Time and a half plus a day in lieu" in answer.text and "Double time" not in answer.text, answer.text
    answer = _answer("I'm a lifeguard. What premium do I get for a late finish?")
    assert "+£1.35 per hour" in answer.text and "+£0.95 per hour" not in answer.text, answer.text


def test_plain_numbers_after_words_are_a_range_not_codes():
    hours = table(["Shift", "Premium"], [["Early 06 to 14", "8%"], ["Late 14 to 22", "12%"]])
    assert named("premium for LC7", hours) is None


SWABS = table(["Condition", "Immediate action"],
              [["Swab result below 2.5 ppm", "Release line for production"],
               ["Swab result 2.5 ppm up to 10 ppm", "Re-clean the failed zone and swab again"],
               ["Swab result above 10 ppm", "Full re-clean of the line"]])


def test_a_range_written_from_a_number_up_to_another():
    assert named("Post-clean swab came back at 6 ppm. What do we do now?", SWABS)[1] == ["Swab result 2.5 ppm up to 10 ppm"]
    assert named("the swab gave 10 ppm", SWABS)[1] == ["Swab result 2.5 ppm up to 10 ppm"]
    assert named("swab of 1 ppm", SWABS)[1] == ["Swab result below 2.5 ppm"]


SHIFTS_ROWS = [["Usual hours", "06:00–14:00", "14:00–22:00", "22:00–06:00"],
               ["Shift premium", "8%", "12%", "25%"],
               ["Saturday deep-clean uplift", "Not applicable", "Not applicable", "£18 per shift"]]


def _shifts(caption):
    return TableData(caption, ("", "Early shift", "Late shift", "Night shift"), tuple(TableRow(tuple(r)) for r in SHIFTS_ROWS))


def test_a_lead_in_sentence_as_caption_leaves_a_rows_own_word_naming_it():
    lead_in = _shifts("The shift premium is a percentage of the employee's basic hourly rate and is paid for every hour worked.")
    m = match_table("What's the premium for working lates?", lead_in)
    assert m is not None and [r.cells[0] for r in m.rows] == ["Shift premium"] and m.columns == (2,)


def test_a_title_caption_is_still_the_tables_topic():
    # "Shift premium rates" as a title: its words are every row's, so "premium" alone names no row
    titled = _shifts("Table 4: Shift premium rates")
    assert match_table("What's the premium for working lates?", titled) is None


PAY = table(["Grade", "Typical roles", "Basic hourly rate", "Overtime hourly rate", "Bank holiday hourly rate"],
            [["B3a", "Packing operative", "£13.40", "£20.10", "£26.80"],
             ["B3b", "Dough mixer; ingredients weigh-up operative", "£13.75", "£20.63", "£27.50"]])
CALLS = ("The overtime hourly rate is time and a half, and the bank holiday hourly rate is double time.",)


def test_a_note_calling_a_column_by_a_phrase_names_it():
    m = match_table("whats the time and a half rate for a dough mixer", PAY, notes=CALLS)
    assert [r.cells[0] for r in m.rows] == ["B3b"] and [PAY.headers[c] for c in m.columns] == ["Overtime hourly rate"]
    m = match_table("What is the double time rate for a B3b?", PAY, notes=CALLS)
    assert [PAY.headers[c] for c in m.columns] == ["Bank holiday hourly rate"]


def test_a_note_names_no_column_by_a_phrase_the_question_does_not_write():
    m = match_table("whats the time and a half rate for a dough mixer", PAY)
    assert [PAY.headers[c] for c in m.columns] != ["Overtime hourly rate"]
    m = match_table("What does a B3b dough mixer earn?", PAY, notes=CALLS)
    assert "Overtime hourly rate" not in [PAY.headers[c] for c in m.columns]


CONDITIONS = table(["Condition", "Immediate action"],
                   [["Formed stool in the water", "Clear the pool and remove the stool with a scoop"],
                    ["Vomit in the water", "Clear the affected pool and remove the vomit"],
                    ["Main drain not visible from poolside", "Clear the pool until the drain can be seen"],
                    ["Glass broken in the pool", "Clear and drain the pool"]])
SHIFT_TYPES = table(["Shift type", "Premium"], [["Early shift", "8%"], ["Late shift", "12%"], ["Night shift", "25%"]])


def test_a_label_that_is_a_phrase_does_not_end_on_a_kind_of_row():
    # "handling pool chemicals" is no kind of water the table lacks: the rule on chemicals answers
    assert named("What PPE do I need when I'm handling pool chemicals?", CONDITIONS) is None


def test_a_label_that_is_a_kind_still_tells_an_absent_kind():
    assert named("What premium do I get for a split shift?", SHIFT_TYPES) == ("absent", [], "split shift", [])


STAGES = table(["Stage", "Typical age", "Maximum pupils per teacher"],
               [["Ducklings 1", "3 months to 1 year", "8 pairs"], ["Ducklings 2", "1 to 2 years", "10 pairs"],
                ["Ducklings 3", "2 to 3 years", "12 pairs"], ["Stage 1", "4 to 6 years", "6 pupils"],
                ["Stage 2", "5 to 7 years", "8 pupils"]],
               caption="Table 2: Stages")
TIMES = table(["Session", "Lifeguards on duty"], [["Public swim", "2"], ["Lane swim", "1"]], caption="Table 1: Cover", first_id=950)


def _lessons(question):
    return compose_answer(question, ranked_tables(("Pools > 3 Cover", TIMES), ("Lessons > 3 Stages", STAGES),
                                                  similarities=(0.6, 0.5)), corpus_mentions={})


def test_a_numbered_name_written_whole_names_its_table():
    answer = _lessons("How many pupils can a teacher have in a Ducklings 2 class?")
    assert "10 pairs" in answer.text and "8 pairs" not in answer.text and "12 pairs" not in answer.text, answer.text


def test_a_numbered_name_the_table_lacks_is_an_absent_row():
    answer = _lessons("How many pairs are allowed in a Ducklings 4 class?")
    assert answer.outcome == "not_covered" and "no row for Ducklings 4" in answer.text, answer.text
    assert "12 pairs" not in answer.text


CARE_PAY = table(["Level", "Job title", "Basic hourly rate", "Sleep-in (per night)"],
                 [["CW1", "Care assistant (in induction)", "£12.21", "£86.90"],
                  ["CW4", "Lead care worker", "£13.40", "£89.35"]], caption="Table 1: Levels and pay")
TRAINING = table(["Role", "Induction training", "Periodic medical"],
                 [["Care assistant (CW1 to CW2)", "30 hours", "Every 3 years"],
                  ["Lead care worker (CW3 to CW4)", "24 hours", "Every 2 years"]],
                 caption="Table 4: Training by role", first_id=950)


def _care(question):
    return compose_answer(question, ranked_tables(("Pay > 3 Levels", CARE_PAY), ("Training > 2 Roles", TRAINING)),
                          corpus_mentions={})


def test_no_hop_through_a_span_when_the_rows_own_table_gives_the_written_column():
    answer = _care("I'm still doing my induction as a care assistant. What's my basic pay per hour?")
    assert "£12.21" in answer.text and "30 hours" not in answer.text, answer.text


def test_no_hop_through_a_span_to_a_column_named_only_by_a_words_stem():
    # "notice period" is no "Periodic medical"
    answer = _care("What notice period does a lead care worker have to give?")
    assert "Every 2 years" not in answer.text, answer.text
    answer = _care("How often is the periodic medical for a lead care worker?")
    assert "Every 2 years" in answer.text, answer.text


ROLES = table(["", "Lifeguard", "Duty manager", "Competent plant operator"],
              [["Required qualification", "National Pool Lifeguard Qualification", "NPLQ plus first aid at work",
                "Pool plant operator certificate"],
               ["Qualification lasts", "2 years", "3 years", "5 years"],
               ["Ongoing training", "2 hours a month", "4 hours a quarter", "Annual refresher day"]])


def test_of_the_rows_a_question_names_the_one_of_the_asked_kind():
    assert named("How long is a pool plant operator certificate valid before it has to be renewed?", ROLES) == (
        "label", ["Qualification lasts"], "", ["Competent plant operator"])


def test_a_reading_asked_about_is_no_missing_part():
    from policypal.answering.coverage import decide

    units = [["Test Calcium hardness: Action level: Above 500 mg/l.", "Water quality"]]
    assert decide("At what calcium hardness reading do we have to take action?", units,
                  corpus_mentions={"read": False, "reading": False}).outcome == "answered"
