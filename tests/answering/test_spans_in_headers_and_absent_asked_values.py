"""Seen in the blind run of holdout31 (a film and television producer): a column for a span of
grades written after what it holds ("Per diem: grades C1–C6" for a C4); a place written in a row
label's brackets ("Valletta (Malta)") or missing from the gazetteer; and the thing asked for
("the per diem in Paris") given only by the table that lacks the named row, while another table
has a row for the asker's grade that gives something else (day rates)."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ANSWERED, NOT_COVERED
from policypal.answering.places import places_in
from policypal.answering.rows import what_a_header_gives

from .row_helpers import named, ranked_tables, table

PER_DIEMS = table(
    ["Location", "Per diem: grades C1–C6", "Per diem: grades C7–C10", "Per diem: grades C11–C12", "Accommodation cap per night"],
    [["London", "£45", "£52", "£60", "£185"],
     ["Glasgow", "£37", "£42", "£48", "£128"],
     ["Reykjavik", "£58", "£66", "£75", "£245"],
     ["Valletta (Malta)", "£39", "£45", "£51", "£150"]],
)

RATE_CARD = table(
    ["Grade", "Typical roles", "Daily rate (standard day)", "Overtime hourly rate"],
    [[f"C{i}", "Gaffer" if i == 8 else f"Role {i}", f"£{150 + 30 * i}", f"£{20 + 3 * i}"] for i in range(1, 13)],
)


def test_a_column_spanning_grades_after_what_it_holds_is_named_by_a_grade():
    assert named("Per diem in Glasgow for a C4?", PER_DIEMS)[1:4:2] == (["Glasgow"], ["Per diem: grades C1–C6"])
    assert named("Reykjavik per diem for grade C11", PER_DIEMS)[3] == ["Per diem: grades C11–C12"]
    assert named("per diem in London for a C8 electrician", PER_DIEMS)[3] == ["Per diem: grades C7–C10"]


def test_what_a_header_gives_leaves_out_the_codes_it_is_for():
    assert what_a_header_gives("Per diem: grades C1–C6") == "Per diem"
    assert what_a_header_gives("Daily rate (grades 1-5)") == "Daily rate"
    assert what_a_header_gives("Grades G1-G3") == ""
    assert what_a_header_gives("Accommodation cap per night") == "Accommodation cap per night"
    assert what_a_header_gives("Time: 9-17") == "Time: 9-17"  # hours, not codes


def test_every_eu_member_is_a_place():
    for name in ("Malta", "Valletta", "Cyprus", "Estonia", "Riga", "Slovakia", "Ljubljana", "Bulgaria"):
        assert [p.written for p in places_in(f"We are filming in {name} next month")] == [name], name


def test_a_place_in_a_labels_brackets_names_the_cell_over_another_tables_grade_row():
    evidence = ranked_tables(("Crew > 3.2 Rate card", RATE_CARD), ("Location > 4.1 Per diems", PER_DIEMS))
    answer = compose_answer("We're shooting in Malta next month and I'm a grade C2 trainee. What's my daily per diem?",
                            evidence, corpus_mentions={})
    assert answer.outcome == ANSWERED
    assert "£39" in answer.text and "£210" not in answer.text, answer.text


def test_the_asked_value_only_the_table_lacking_the_row_gives_makes_it_absent():
    evidence = ranked_tables(("Crew > 3.2 Rate card", RATE_CARD), ("Location > 4.1 Per diems", PER_DIEMS))
    for question, place in (("What's the per diem in Paris for a C5 crew member?", "Paris"),
                            ("What's the per diem for a grade C9 camera operator on location in Edinburgh?", "Edinburgh")):
        answer = compose_answer(question, evidence, corpus_mentions={})
        assert answer.outcome == NOT_COVERED, (question, answer.text)
        assert f"no row for {place}" in answer.text, answer.text
    # the rate card still answers what it gives
    day_rate = compose_answer("What's the daily rate for a C5?", evidence, corpus_mentions={})
    assert day_rate.outcome == ANSWERED and "£300" in day_rate.text, day_rate.text


ROLES = table(
    ["Grade", "Typical roles", "Daily rate (standard day)"],
    [["C6", "Grip; electrician; hair and make-up artist", "£300"],
     ["C10", "First assistant director; supervising art director", "£420"],
     ["C11", "Head of department (costume, make-up, locations)", "£468"]],
)


def test_a_particle_left_of_a_bracketed_example_names_no_row():
    # "make-up" is make and up: "build up" writes only the particle
    assert named("How much holiday pay do freelance crew build up for each day worked?", ROLES) is None
    assert named("What's the day rate for a head of costume?", ROLES)[1] == ["C11"]


STUNT_TIERS = table(
    ["Tier", "Examples", "Approved by", "Minimum notice before filming"],
    [["Tier 1", "Simple falls onto mats", "Stunt co-ordinator", "24 hours"],
     ["Tier 2", "Falls from 1 m to 3 m; choreographed fights", "Stunt co-ordinator and first assistant director", "3 working days"],
     ["Tier 3", "High falls above 3 m; vehicle stunts at 20 mph or more", "Producer and health and safety adviser", "10 working days"]],
)


def test_a_row_named_exactly_does_not_answer_for_money_its_table_never_gives():
    evidence = ranked_tables(("Health and safety > 3.2 Approval tiers for stunts", STUNT_TIERS))
    fee = compose_answer("What daily fee does a stunt performer get for a Tier 3 high fall?", evidence, corpus_mentions={})
    assert fee.outcome != ANSWERED, fee.text
    notice = compose_answer("How much notice is needed before filming a Tier 3 stunt?", evidence, corpus_mentions={})
    assert notice.outcome == ANSWERED and "10 working days" in notice.text, notice.text
    # a table of money answers the same kind of question
    rates = ranked_tables(("Crew > 3.2 Rate card", RATE_CARD))
    pay = compose_answer("What daily pay does a C3 get?", rates, corpus_mentions={})
    assert pay.outcome == ANSWERED and "£240" in pay.text, pay.text


SHORTFALL = table(
    ["Turnaround shortfall", "Payment for the shortfall", "Approval needed before scheduling"],
    [["Less than 30 minutes", "No payment; recorded on the daily production report", "Second assistant director"],
     ["30 minutes to 2 hours", "Overtime hourly rate for each hour or part hour of shortfall", "Line producer"],
     ["More than 2 hours up to 4 hours", "Double the overtime hourly rate", "Producer"],
     ["More than 4 hours", "One additional daily rate", "Not permitted except in an emergency"]],
)


def test_a_span_from_minutes_to_hours_holds_a_length_between():
    assert named("Who has to sign off a turnaround shortfall of 90 minutes before it goes on the schedule?",
                 SHORTFALL)[1] == ["30 minutes to 2 hours"]
    assert named("turnaround shortfall of 20 minutes: payment?", SHORTFALL)[1] == ["Less than 30 minutes"]
    assert named("a shortfall of 3 hours, who approves?", SHORTFALL)[1] == ["More than 2 hours up to 4 hours"]


AGE_LIMITS = table(
    ["Age band", "Maximum time at place of performance", "Maximum performing time", "Maximum continuous performing time",
     "Earliest call"],
    [["Under 6 months", "2 hours", "20 minutes", "10 minutes", "09:30"],
     ["5 to 8 years", "7.5 hours", "3.5 hours", "1 hour", "08:30"],
     ["9 to 12 years", "8.5 hours", "4.5 hours", "2.5 hours", "08:00"]],
)


def test_of_columns_sharing_the_asked_word_the_plainest_header_is_asked():
    assert named("How long can a seven-year-old perform in a single day?", AGE_LIMITS)[1:4:2] == \
        (["5 to 8 years"], ["Maximum performing time"])
    # a word of its own still names its column
    assert named("How long can a 10 year old perform continuously?", AGE_LIMITS)[3] == ["Maximum continuous performing time"]


def test_what_the_asker_gets_is_the_payment_column():
    assert named("We were called back 20 minutes early - do they get anything for the lost rest?", SHORTFALL)[1:4:2] == \
        (["Less than 30 minutes"], ["Payment for the shortfall"])
    assert named("shortfall of 3 hours: what do we get?", SHORTFALL)[3] == ["Payment for the shortfall"]
