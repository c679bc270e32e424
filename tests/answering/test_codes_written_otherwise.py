"""A code the question writes otherwise than the policy ("nc6" for "NC-06"), and a verb in "-s"
before the preposition it takes (seen in the blind run of holdout14)."""
from policypal.answering.compose import compose_answer
from policypal.answering.coverage import names_a_thing
from policypal.answering.evidence import ANSWERED, Evidence, TableData, TableRow
from policypal.answering.terms import code_variants

CODES = TableData(
    "Table 2: Non-chargeable time-recording codes and annual credit caps",
    ("Code", "Activity", "Annual Credit Cap (hours)", "Supporting Record"),
    tuple(TableRow(cells, chunk_id=700 + i) for i, cells in enumerate([
        ("NC-05", "Attending training courses and CPD events", "30", "Attendance log on the learning platform"),
        ("NC-06", "Recruitment interviews and graduate events", "25", "Interview schedule issued by HR"),
        ("NC-07", "Firm committees and networks", "35", "Minutes naming the attendee"),
    ])),
)


def test_a_code_is_looked_up_as_the_policy_may_write_it():
    assert code_variants("NC6")[:4] == ["NC6", "NC-6", "NC-06", "NC06"]
    assert "EX101" in code_variants("EX-101")
    assert code_variants("4.2") == ["4.2"]  # a section number is no code


def test_a_code_of_two_letters_or_more_names_its_table_whatever_else_the_question_says():
    # "evidence" and "logged" are in none of the table's words: the code alone says which table
    table = Evidence(key=1, breadcrumb="Hours > 5 Non-chargeable time", text="Table 2", kind="table", rank=1,
                     similarity=0.4, table=CODES)
    answer = compose_answer("What evidence do I need to back up time logged under nc6?", [table], corpus_mentions={})
    assert answer.outcome == ANSWERED
    assert "Interview schedule issued by HR" in answer.text
    assert "Attendance log" not in answer.text and "Minutes naming" not in answer.text


def test_a_verb_in_s_before_its_preposition_is_no_thing():
    assert not names_a_thing("counts", "how much of my pro bono time counts towards the bonus hours")
    assert names_a_thing("counts", "are head counts reported")


def test_what_is_the_salary_asks_for_an_amount_and_a_clause_number_is_none():
    from policypal.answering.coverage import missing_value

    rule = "3.3 The Firm pays the practising certificate fee for every solicitor."
    assert missing_value("What's the salary for a newly qualified solicitor", rule) == "how much"
    assert missing_value("what is the current national minimum wage per hour", "pay below the National Minimum Wage") == "how much"
    assert missing_value("What is the fee for a replacement key", "4.2 A replacement key costs £15.") == ""
    assert missing_value("What is the cost centre code for travel", rule) == ""  # a cost centre is no amount asked
    # "how much" was read as answered by the clause number "3.3" alone
    assert missing_value("How much does the firm pay towards the certificate", rule) == "how much"


def test_what_is_the_rate_or_allowance_asks_for_an_amount():
    from policypal.answering.coverage import missing_value

    definition = '"Driving for work" means driving any vehicle on Company business.'
    assert missing_value("What's the mileage rate if I use my own car to get to a job", definition) == "how much"
    assert missing_value("What is the overtime rate", "Overtime is paid at time and a half.") == ""
    assert missing_value("What is the time limit for claims", "Claims must be submitted within three months.") == ""


def test_a_code_of_a_two_part_family_the_table_lacks_is_absent_not_another_row():
    # "CL-C1" among CL-D1, CL-L1, CL-T1: no row of the claim table answers for it (holdout29)
    from .row_helpers import named, table

    claims = table(["Claim code", "Claim type", "Evidence required"],
                   [["CL-D1", "Visible damage on delivery", "Photos"], ["CL-L1", "Total loss", "Proof of value"],
                    ["CL-L2", "Partial loss", "Packing list"], ["CL-T1", "Theft from vehicle", "Police reference"]])
    assert named("What evidence is needed for a CL-C1 customs seizure claim?", claims)[:3] == ("absent", [], "CL-C1")
    assert named("What evidence is needed for a CL-T1 claim?", claims)[1] == ["CL-T1"]
    assert named("evidence for cl l2?", claims)[1] == ["CL-L2"]
    assert named("cl-l3 evidence?", claims)[:3] == ("absent", [], "CL-L3")
