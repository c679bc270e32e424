"""Rows named by a quantity in a unit of measure (engine sizes in cc asked in litres, distances
in km), value columns that are ranges ("First 5,000 km" / "Above 5,000 km"), labels that start
with a numbered code and go on with a name ("Level 9 postgraduate diploma"), words written
clipped ("postgrad"), headers that join countries ("Ireland and Portugal"), and the table a
question is about when it names a row of another one."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ANSWERED, NOT_COVERED, Evidence
from policypal.answering.rows import match_table

from .row_helpers import named, table



MILEAGE = table(("Vehicle type", "First 4,000 km in tax year", "Above 4,000 km in tax year"), [
    ("Car up to 1,300cc", "EUR 0.31", "EUR 0.18"), ("Car 1,301-2,000cc", "EUR 0.39", "EUR 0.22"),
    ("Car over 2,000cc", "EUR 0.47", "EUR 0.26"), ("Electric car", "EUR 0.29", "EUR 0.17"), ("Motorcycle", "EUR 0.23", "EUR 0.12"),
], caption="Table 1: Mileage rates per km")
COURSES = table(("Qualification level", "Funding percentage", "Clawback period"), [
    ("Level 4 certificate", "100%", "No clawback"), ("Level 5 diploma", "85%", "12 months"),
    ("Level 6 bachelor's degree", "75%", "20 months"), ("Level 7 postgraduate certificate", "55%", "26 months"),
    ("Level 7 master's degree", "45%", "32 months"),
], caption="Table 2: Funding by qualification level")
REPAYMENT = table(("Months after completion", "Percentage repayable"), [
    ("0-6 months", "90%"), ("7-12 months", "60%"), ("13-24 months", "35%"),
])
SUPPLEMENT = table(("Distance to first visit", "Spain and Portugal", "Wales", "Canada"), [
    ("0-10 km", "EUR 2.90", "GBP 2.40", "CAD 4.10"), ("11-35 km", "EUR 6.10", "GBP 5.20", "CAD 8.70"),
    ("36 km and over", "EUR 10.40", "GBP 8.80", "CAD 14.60"),
], caption="Table 3: Home-visit travel supplement")




def test_a_quantity_is_compared_in_the_labels_unit_of_measure():
    assert named("rate for a 1.7 litre car", MILEAGE)[1] == ["Car 1,301-2,000cc"]  # 1,700 cc
    assert named("rate for my 2.4 petrol", MILEAGE)[1] == ["Car over 2,000cc"]  # an engine size in litres
    assert named("rate for a 1200cc car", MILEAGE)[1] == ["Car up to 1,300cc"]
    # a number in another unit is not an engine size: no row is named by it
    assert named("I have driven 1,800 km this year in my car", MILEAGE) is None


def test_a_distance_far_beyond_the_tables_bounds_names_no_row():
    assert named("my first visit is 20 km away", SUPPLEMENT)[1] == ["11-35 km"]
    assert named("my first 4000 km", SUPPLEMENT) is None  # not a distance to a first visit


def test_a_quantity_picks_the_value_column_whose_header_is_its_range():
    assert named("1.7 litre car, well under 4,000 km so far", MILEAGE)[1:] == (["Car 1,301-2,000cc"], "", ["First 4,000 km in tax year"])
    assert named("a 2.4 diesel and I have claimed 5,100 km this year", MILEAGE)[3] == ["Above 4,000 km in tax year"]


def test_a_leading_code_names_its_rows_and_the_other_words_tell_two_apart():
    assert named("clawback for level 6", COURSES)[1] == ["Level 6 bachelor's degree"]
    assert named("level 7 postgrad certificate funding", COURSES)[1] == ["Level 7 postgraduate certificate"]  # clipped word
    assert named("funding for a level 7 master's", COURSES)[1] == ["Level 7 master's degree"]
    assert named("how much of a Level 8 doctorate is funded?", COURSES)[:3] == ("absent", [], "Level 8")


def test_a_number_with_a_unit_does_not_name_a_labels_number():
    # "7 months" is a time since completion, not "Level 7"
    m = match_table("I resign 7 months after finishing my degree", COURSES)
    assert m is None or all(not r.cells[0].startswith("Level 7") for r in m.rows)


def test_two_columns_each_named_by_its_own_word_are_both_given():
    host = Evidence(1, "CPD > 4.1 Funding levels", "Table 2", kind="table", policy="cpd", rank=1, table=COURSES)
    answer = compose_answer("level 7 postgrad certificate - funding % and how long is the clawback", [host], corpus_mentions={})
    assert answer.outcome == ANSWERED
    assert "55%" in answer.text and "26 months" in answer.text and "45%" not in answer.text


def test_the_table_asked_about_is_chosen_over_one_whose_row_sets_the_scene():
    """"after completing my bachelor's degree" names a row of the funding table; the question asks
    what is repaid, which the uncaptioned repayment table's own section says."""
    courses = Evidence(1, "CPD > 4. Funding > 4.1 Funding levels", "Table 2", kind="table", policy="cpd", rank=2, table=COURSES)
    repay = Evidence(2, "CPD > 5. Repayment of funding > 5.1 When repayment applies", "| Months after completion |",
                     kind="table", policy="cpd", rank=1, table=REPAYMENT)
    notes = Evidence(3, "CPD > 5. Repayment of funding > 5.1 When repayment applies",
                     "An employee who leaves before the end of the clawback period must repay part of the funding, by the "
                     "months since completion in the table below.", policy="cpd", rank=3)
    answer = compose_answer("leaving 15 months after completing my bachelor's degree, what % do I repay?", [repay, courses, notes],
                            corpus_mentions={})
    assert answer.outcome == ANSWERED
    assert "35%" in answer.text and "60%" not in answer.text and "75%" not in answer.text


def test_a_header_joining_two_countries_holds_both():
    assert named("first visit 12 km from my clinic in Lisbon", SUPPLEMENT)[1:] == (["11-35 km"], "", ["Spain and Portugal"])
    m = match_table("first visit 12 km from my clinic in Chicago", SUPPLEMENT)
    assert (m.how, m.column_absent) == ("absent", True)


def test_beside_a_row_no_sentence_of_another_policy_is_cited():
    host = Evidence(1, "Mileage > 6.1 Supplement amounts", "Table 3", kind="table", policy="mileage", rank=1, table=SUPPLEMENT)
    other = Evidence(2, "CPD > 3.2 Which currency applies",
                     "The CPD budget is paid in the currency of the country of the base clinic; clinics in Spain and Portugal use EUR.",
                     policy="cpd", rank=2, similarity=0.4)
    answer = compose_answer("My first home visit is 20 km from my base clinic in Lisbon. How much is the supplement?", [host, other],
                            corpus_mentions={})
    assert answer.outcome == ANSWERED and "EUR 6.10" in answer.text
    assert [e.policy for e in answer.cited] == ["mileage"] and "CPD budget" not in answer.text
    assert compose_answer("What is the supplement in Chicago for 20 km?", [host], corpus_mentions={}).outcome == NOT_COVERED


CLASSES = table(("Class code", "Vehicle type", "Engine size", "Rate per km", "Annual cap"), [
    ("VC-1", "Small car", "up to 1,300 cc", "SEK 2.15", "SEK 13,000"), ("VC-2", "Medium car", "1,301-1,900 cc", "SEK 2.45", "SEK 15,500"),
    ("VC-3", "Large car", "over 1,900 cc", "SEK 2.75", "SEK 17,000"), ("VC-4", "Scooter", "up to 150 cc", "SEK 1.10", "SEK 5,500"),
    ("VC-5", "Bicycle", "not applicable", "SEK 0.80", "SEK 4,000"),
])


def test_a_column_of_spans_in_a_unit_names_the_row_of_a_coded_table_and_the_narrowest_span_wins():
    assert named("My car has a 1,500 cc engine. Which rate per km?", CLASSES)[1:3] == (["VC-2"], "")
    assert named("rate for my 90 cc engine", CLASSES)[1] == ["VC-4"]  # inside "up to 1,300 cc" too, but narrower
    assert named("rate per km for VC-3", CLASSES)[1] == ["VC-3"]  # the code still names its row


def test_a_kind_of_row_a_table_of_spans_lacks_is_absent():
    assert named("What is the mileage rate for a hybrid car?", MILEAGE)[:3] == ("absent", [], "hybrid car")
    assert named("rate for my electric car", MILEAGE)[1] == ["Electric car"]  # a label written out names its row


def test_a_quantity_word_of_a_table_of_spans_names_no_kind():
    hours = table(("Overtime hours in the pay week", "Approval"), [
        ("Up to 4 hours", "Shift lead"), ("4.5 - 8 hours", "Site manager"), ("More than 8 hours", "Regional director"),
    ], caption="Table 2: Approval level by weekly overtime hours")
    assert named("How much extra do I get for accepting overtime at short notice?", hours) is None
    assert named("what are the core hours at the Leeds office", hours) is None


SERVICE_PAY = table(["Length of service", "Weeks at full pay", "Weeks at half pay"], [
    ["Less than 26 weeks", "None", "None"],
    ["26 weeks to 2 years", "10 weeks", "12 weeks"],
    ["2 to 5 years", "16 weeks", "13 weeks"],
    ["More than 5 years", "24 weeks", "15 weeks"],
])


def test_range_rows_written_in_different_units_are_read_in_one():
    # weeks and years in one column: each end in its own unit, the question's quantity in its own
    assert named("I have 4 years of service. How many weeks at full pay?", SERVICE_PAY)[1] == ["2 to 5 years"]
    assert named("18 months service - how many weeks of half pay?", SERVICE_PAY)[1] == ["26 weeks to 2 years"]
    assert named("I joined 20 weeks ago. Weeks at full pay?", SERVICE_PAY)[1] == ["Less than 26 weeks"]
    assert named("After 7 years, how many weeks at half pay?", SERVICE_PAY)[1] == ["More than 5 years"]


def test_a_header_word_that_is_a_stop_word_names_no_column():
    leave = table(["Leave type", "Days per leave year", "How it is credited"], [
        ["Earned leave", "24 working days", "2 days per completed month"],
        ["Casual leave", "8 working days", "In full on 1 April"],
    ])
    # "how" of "how many days" is not the "How" of "How it is credited"
    assert named("How many days of casual leave do I get?", leave)[3] != ["How it is credited"]


def test_a_duration_falls_in_a_column_of_spans_of_time_beside_codes():
    # "10 hours overtime": the "8.5 to 12 hours" row of levels OT-1 ... OT-4 (holdout29)
    levels = table(["Approval level", "Overtime in the pay week", "Approver", "Notice required"],
                   [["OT-1", "Up to 4 hours", "Shift supervisor", "Same day"], ["OT-2", "4.5 to 8 hours", "Depot manager", "24 hours"],
                    ["OT-3", "8.5 to 12 hours", "Regional operations manager", "48 hours"],
                    ["OT-4", "More than 12 hours", "Head of Operations", "72 hours"]])
    assert named("Who has to approve it if I'll have done 10 hours overtime this week?", levels) == (
        "range", ["OT-3"], "", ["Approver"])
    assert named("Who approves 3 hours of overtime?", levels)[1] == ["OT-1"]
    # points in time are no spans: "7 days from delivery" names no row by a number of days
    deadlines = table(["Claim code", "Claim type", "Customer notification deadline"],
                      [["CL-L1", "Total loss", "28 days from expected delivery date"], ["CL-T1", "Theft from vehicle", "14 days from expected delivery date"],
                       ["CL-W1", "Water or weather damage", "7 days from delivery"]])
    assert named("The parcel came 10 days ago soaked by water damage - which code?", deadlines)[1] == ["CL-W1"]


def test_how_heavy_asks_for_the_weight_column():
    vehicles = table(["Class code", "Vehicle description", "Gross weight", "Licence category"],
                     [["VC-2", "Small panel van", "Up to 2,600 kg", "B"], ["VC-6", "Large rigid truck", "18,000 kg", "C"]])
    assert named("How heavy is a VC-6 truck?", vehicles)[3][0] == "Gross weight"


TILL = table(["Code", "Description", "Amount of variance (single session)", "Action"],
             [["TV-0", "Within tolerance", "Up to £2.00", "No action"], ["TV-1", "Minor variance", "£2.01 – £10.00", "Logged"],
              ["TV-2", "Moderate variance", "£10.01 – £25.00", "Informal conversation with team leader"],
              ["TV-3", "Significant variance", "£25.01 – £60.00", "Fact-finding meeting"],
              ["TV-4", "Serious variance", "Over £60.00", "Formal investigation"],
              ["TV-R", "Repeat pattern", "Three TV-1 or higher within 8 weeks", "Till refresher training"],
              ["TV-X", "Shared till variance", "Any amount on a shared till", "Recorded against till only"]])


def test_an_amount_names_its_row_in_a_column_mostly_of_money_spans_before_shared_words():
    # one row of the column is a count in weeks and one no span at all: the column is still of money;
    # "my till" shares a word with "Shared till variance", but the amount is the fact (holdout27)
    assert named("My till was £40 short at the end of the session - what variance code is that?", TILL)[:2] == ("range", ["TV-3"])
    assert named("What happens if my till is out by £15?", TILL)[1:] == (["TV-2"], "", ["Action"])
    assert named("what happens with a shared till variance?", TILL)[1] == ["TV-X"]


def test_rows_of_one_name_with_spans_in_brackets_are_chosen_by_the_quantity_given():
    uniform = table(["Role", "Starting issue", "Free replacement interval"],
                    [["Customer assistant (16 contracted hours or more)", "3 polo shirts", "Every 12 months"],
                     ["Customer assistant (under 16 contracted hours)", "2 polo shirts", "Every 18 months"],
                     ["Team leader (C4)", "3 shirts", "Every 15 months"]])
    assert named("I'm a customer assistant on 12 hours a week, how often is my uniform replaced for free?", uniform)[:2] == (
        "range", ["Customer assistant (under 16 contracted hours)"])
    assert named("customer assistant on 20 hours: what is the starting issue?", uniform)[1] == [
        "Customer assistant (16 contracted hours or more)"]
    assert named("how often is a customer assistant's uniform replaced?", uniform)[1] == [
        "Customer assistant (16 contracted hours or more)", "Customer assistant (under 16 contracted hours)"]
