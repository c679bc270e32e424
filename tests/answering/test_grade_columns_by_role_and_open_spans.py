"""Seen in the blind runs of holdout36 (an ambulance service) and holdout37 (a water utility): a
column spanning codes ("Bands 2-3") asked for by an asker who names their role, whose row in
another table gives the code ("an emergency care assistant": Band 3); a header running a family's
codes on to a code of another shape ("FT3-ST"), which holds codes it does not write ("FT4"); a
grade's column that decides between a table naming the grade and one naming the asked row; a row
named by a word of its label, its hours after a comma ("Sunday, 00:00 to 24:00")."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ANSWERED
from policypal.answering.table_codes import coded_columns
from policypal.answering.time_windows import without_hours

from .row_helpers import named, ranked_tables, table

ROLES = table(
    ["Band", "Role", "Entry pay point", "Top pay point"],
    [["Band 2", "Patient transport service (PTS) driver", "2-1", "2-2"],
     ["Band 3", "Emergency care assistant", "3-1", "3-3"],
     ["Band 4", "Emergency medical technician", "4-2", "4-3"],
     ["Band 5", "Newly qualified paramedic", "5-1", "5-3"],
     ["Band 6", "Paramedic", "6-1", "6-3"],
     ["Band 7", "Clinical team leader", "7-1", "7-2"]],
    caption="Table 1: Roles and bands",
)
ENHANCEMENTS = table(
    ["Time period", "Bands 2-3", "Bands 4-5", "Bands 6-7"],
    [["Monday to Friday, 20:00 to 00:00", "34%", "28%", "22%"],
     ["Saturday, 00:00 to 24:00", "41%", "36%", "29%"],
     ["Sunday, 00:00 to 24:00", "68%", "61%", "53%"],
     ["Public holiday, 00:00 to 24:00", "86%", "79%", "72%"]],
    caption="Staff receive their basic hourly rate plus the percentage shown below for their substantive band",
)


def test_hours_after_a_comma_are_when_the_row_runs_not_its_name():
    assert without_hours("Sunday, 00:00 to 24:00").strip() == "Sunday"
    assert without_hours("Monday to Friday, 20:00 to 00:00").strip() == "Monday to Friday"
    assert named("band 6 sunday enhancement", ENHANCEMENTS)[1::2] == (["Sunday, 00:00 to 24:00"], ["Bands 6-7"])


def test_the_askers_role_gives_the_code_whose_span_names_the_column():
    evidence = ranked_tables(("Pay > 6. Unsocial hours", ENHANCEMENTS), ("Pay > 3. Roles", ROLES))
    answer = compose_answer("I'm an emergency care assistant doing a Sunday day shift. What percentage enhancement do I get?",
                            evidence, corpus_mentions={})
    assert answer.outcome == ANSWERED and "68%" in answer.text, answer.text
    assert "61%" not in answer.text and "53%" not in answer.text, answer.text
    answer = compose_answer("What's the bank holiday enhancement for a newly qualified paramedic?", evidence, corpus_mentions={})
    assert "79%" in answer.text and "86%" not in answer.text and "72%" not in answer.text, answer.text


GRADES = table(
    ["Grade", "Typical roles", "Annual basic salary"],
    [["FT1", "Apprentice field technician", "£23,840"], ["FT2", "Network technician", "£27,615"],
     ["FT3", "Mains repair technician", "£31,290"], ["FT4", "Multi-skilled technician", "£34,960"],
     ["ST", "Senior technician", "£38,745"], ["TL-N", "Team leader, clean water networks", "£43,180"],
     ["TL-S", "Team leader, sewerage and drainage", "£44,520"]],
    caption="Table 1: Grades",
)
STANDBY = table(
    ["Payment", "FT1-FT2", "FT3-ST", "TL-N and TL-S"],
    [["Friday night standby", "£38.20", "£44.65", "£51.30"],
     ["Weekend standby, Saturday or Sunday (per day)", "£57.80", "£66.45", "£74.90"]],
    caption="Standby payments by grade",
)


def test_a_header_running_on_to_another_shape_of_code_holds_the_codes_between():
    assert coded_columns("weekend standby for an FT4", STANDBY) == ((), "")  # not "no FT4 column"
    assert coded_columns("weekend standby for an FT2", STANDBY)[0] == (1,)
    closed = table(["Payment", "FT1-FT2", "FT3"], [["Friday night standby", "£38.20", "£44.65"]])
    assert coded_columns("standby for an FT4", closed) == ((), "FT4")


def test_the_column_of_the_askers_grade_answers_over_the_grades_own_row():
    evidence = ranked_tables(("Pay > 3. Grades", GRADES), ("Pay > 5. Standby", STANDBY))
    answer = compose_answer("What's the weekend standby payment for an FT4, per day?", evidence, corpus_mentions={})
    assert answer.outcome == ANSWERED and "£66.45" in answer.text, answer.text
    assert "£34,960" not in answer.text and "£57.80" not in answer.text, answer.text
    answer = compose_answer("FT4 basic salary", evidence, corpus_mentions={})
    assert "£34,960" in answer.text and "£66.45" not in answer.text, answer.text


def test_a_hop_to_a_table_not_giving_what_is_asked_gives_way_to_the_table_that_does():
    points = table(["Pay point", "Band", "Annual salary (full time)", "Basic hourly rate"],
                   [["3-1", "Band 3", "£25,704", "£13.14"], ["3-3", "Band 3", "£28,012", "£14.32"],
                    ["5-1", "Band 5", "£32,283", "£16.51"]],
                   caption="Table 2: Pay points")
    evidence = ranked_tables(("Pay > 3. Roles", ROLES), ("Pay > 4. Pay points", points), ("Pay > 6. Unsocial hours", ENHANCEMENTS))
    question = "I'm an emergency care assistant doing a Sunday day shift. What percentage enhancement do I get on top of my hourly rate?"
    answer = compose_answer(question, evidence, corpus_mentions={})
    assert "68%" in answer.text and "£13.14" not in answer.text, answer.text
    # asked for the hourly rate, the role's entry pay point leads to it
    answer = compose_answer("What's the basic hourly rate when I start as an emergency care assistant?", evidence,
                            corpus_mentions={})
    assert "£13.14" in answer.text, answer.text


def test_a_hop_to_a_table_whose_heading_gives_what_is_asked_is_kept():
    premiums = table(["Shift type", "Band 1", "Band 2"],
                     [["Sunday working", "£3.10", "£3.60"], ["Bank holiday working", "£5.20", "£5.85"]])
    depots = table(["Site code", "Site name", "Depot band"],
                   [["DP-01", "Slough", "Band 1"], ["DP-02", "Reading", "Band 2"]])
    overtime = table(["Overtime worked", "Rate"], [["On a bank holiday", "Double time"], ["On a Sunday", "Time and a half"]],
                     caption="Overtime is paid at the rates below. Shift premiums are paid on top")
    evidence = ranked_tables(("Pay > 3. Shift premiums", premiums), ("Pay > 2. Depots", depots), ("Pay > 5. Overtime", overtime))
    answer = compose_answer("What premium do I get for working a bank holiday at the Slough depot?", evidence,
                            corpus_mentions={})
    assert "£5.20" in answer.text and "£5.85" not in answer.text, answer.text
